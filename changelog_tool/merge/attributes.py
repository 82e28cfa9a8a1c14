"""The gitattributes lines of the merge driver, read as git reads them (never searched as
text), for ``install`` and ``init``."""

from __future__ import annotations

from pathlib import Path

from changelog_tool.errors import EnvironmentProblem
from changelog_tool.ledger.document import regular_file
from changelog_tool.merge.setup import DRIVER


def attribute_lines(path: Path) -> list[str]:
    """The file's lines, each with its own line ending, so that what is kept is written back
    byte for byte."""
    real = regular_file(path, missing_ok=True)  # a directory here is refused, exit 2
    if real is None:
        return []
    try:
        text = real.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EnvironmentProblem(
            f"{path} is not UTF-8 text (byte {exc.start}); git reads attribute files as "
            "UTF-8: fix or remove that byte, then run the command again"
        ) from None
    return text.splitlines(keepends=True)


def line_ending(lines: list[str]) -> str:
    """The line ending the file uses (its first line's: CRLF or LF), LF for a new file."""
    return "\r\n" if lines and lines[0].endswith("\r\n") else "\n"


def is_driver_line(line: str) -> bool:
    """Does this gitattributes line set ``merge=perf-changelog`` (a comment naming it does
    not)?"""
    return f"merge={DRIVER}" in attributes(line)


def attributes(line: str) -> list[str]:
    """The attributes a gitattributes line sets (none for a comment or a blank)."""
    text = line.strip()
    if not text or text.startswith("#"):
        return []
    if text.startswith('"'):  # a C-quoted pattern: its end is the first unescaped quote
        at, escaped = 1, False
        while at < len(text) and (escaped or text[at] != '"'):
            escaped = not escaped and text[at] == "\\"
            at += 1
        return text[at + 1 :].split()
    return text.split()[1:]
