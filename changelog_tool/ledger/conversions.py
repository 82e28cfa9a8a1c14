"""Whole-file conversions (a BOM, CRLF) undone before comparing with the base, so each is one
``encoding`` finding; byte offsets counted in the file as it is (pure)."""

from __future__ import annotations

import dataclasses
import re

from changelog_tool.findings import Finding

BOM = b"\xef\xbb\xbf"
OFFSET = re.compile(r"at offset \d+")
NUL_REFUSED = "unacceptable character #x0000"
"""How the YAML reader refuses a NUL byte: it only restates the ``encoding`` finding."""


def undo_conversions(base: bytes, head: bytes, path: str) -> tuple[bytes, list[Finding]]:
    """A BOM or CRLF line endings the base lacks: one ``encoding`` finding each, and head without
    them."""
    found: list[tuple[str, int, str]] = []
    if head.startswith(BOM) and not base.startswith(BOM):
        head = head[len(BOM) :]
        found.append(
            (
                "the file now starts with a UTF-8 byte-order mark (BOM)",
                1,
                f"remove its first 3 bytes (`sed -i '1s/^\\xEF\\xBB\\xBF//' {path}`)",
            )
        )
    crlf = head.find(b"\r\n")
    if crlf >= 0 and b"\r" not in base:
        line = head.count(b"\n", 0, crlf) + 1
        count = head.count(b"\r\n")
        head = head.replace(b"\r\n", b"\n")
        found.append(
            (
                f"CRLF line endings: {count} line(s) end in CR LF (the first is line {line})",
                line,
                f"convert them back to LF (`sed -i 's/\\r$//' {path}`); "
                "an editor or git's core.autocrlf made them",
            )
        )
    same = "; the file is otherwise unchanged" if found and head == base else ""
    return head, [
        Finding("encoding", f"{what}{same}; {fix}", path, line) for what, line, fix in found
    ]


def offsets_in(raw: bytes, findings: list[Finding]) -> None:
    """Byte offsets in messages counted in the file as it is (before undoing a BOM or CRLF)."""
    for index, finding in enumerate(findings):
        if finding.code != "encoding" or finding.line is None or not OFFSET.search(finding.message):
            continue
        start = 0
        for _ in range(finding.line - 1):
            start = raw.index(b"\n", start) + 1
        try:
            raw[start:].decode("utf-8")
        except UnicodeDecodeError as exc:
            findings[index] = dataclasses.replace(
                finding, message=OFFSET.sub(f"at offset {start + exc.start}", finding.message)
            )


def readable(text: bytes) -> bool:
    """Could a YAML parser read these bytes at all (no NUL, valid UTF-8)?"""
    if b"\x00" in text:
        return False
    try:
        text.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
