"""Findings (what a check found) and their text, github and json formats. Names from the branch
never break out of their one line. See docs/security.md."""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

ERROR = "error"
WARNING = "warning"
NOTICE = "notice"


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    path: str
    line: int | None = None
    severity: str = ERROR
    key: str | None = None
    detail: Mapping[str, object] | None = field(default=None, compare=False, repr=False)
    """What a finding that stands for several places lists, for the JSON output (one
    list field: a key's dangling ``references``, a folder's orphan ``files``)."""

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
            "line": self.line,
        }
        if self.key is not None:
            data["key"] = self.key
        if self.detail:
            data.update(self.detail)
        return data


def listing(names: Sequence[str], most: int = 3) -> str:
    """``a, b, c and 4 more``."""
    shown = ", ".join(names[:most])
    return f"{shown} and {len(names) - most} more" if len(names) > most else shown


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity == ERROR for f in findings)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
"""A character that breaks or rewrites a line (C0/C1 controls, line and paragraph separators,
bidi overrides) or cannot be printed: a lone surrogate, a file name's non-UTF-8 byte from git."""


def _escape(char: str) -> str:
    code = ord(char)
    if 0xDC80 <= code <= 0xDCFF:  # a byte a file name holds that is not UTF-8
        return f"\\x{code - 0xDC00:02x}"
    return repr(char)[1:-1]


def escape_controls(text: str) -> str:
    """``text`` with every control character as a visible escape (``\\n``, ``\\x1b``, ``\\xff``)."""
    return _CONTROL.sub(lambda found: _escape(found.group()), text)


def shown(name: str) -> str:
    """A name from the branch as is, or quoted with its control characters escaped."""
    if _CONTROL.search(name) is None:
        return name
    quote = "'" if "'" not in name or '"' in name else '"'  # as repr() picks it and writes it,
    escaped = ("\\" + c if c in (quote, "\\") else _escape(c) for c in name)  # but \xff for a byte
    return quote + "".join(escaped) + quote


def not_a_command(line: str) -> str:
    """One log line GitHub cannot read as a workflow command."""
    line = escape_controls(line)
    bare = line.lstrip()
    if bare.startswith("::"):
        line = line[: len(line) - len(bare)] + "%3A" + bare[1:]
    return line


def format_text(findings: Sequence[Finding]) -> str:
    """``path:line: code: message``, one line per finding whatever the names hold."""
    lines = []
    for f in findings:
        where = f"{f.path}:{f.line}" if f.line is not None else f.path
        label = f.code if f.severity == ERROR else f"{f.code}: {f.severity}"
        lines.append(not_a_command(f"{where}: {label}: {f.message}"))
    return "\n".join(lines)


def _escape_data(text: str) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return escape_controls(text)


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Sequence[Finding]) -> str:
    lines = []
    for f in findings:
        line = f",line={f.line}" if f.line is not None else ""
        where = f"file={_escape_property(f.path)}{line},title={_escape_property(f.code)}"
        lines.append(f"::{f.severity} {where}::{_escape_data(f.message)}")
    return "\n".join(lines)


def text_log(lines: Sequence[str]) -> str:
    """Log lines (changes, the suggested entry) as text, each line made safe by itself."""
    return "\n".join(not_a_command(line) for text in lines for line in text.split("\n"))


def github_log(lines: Sequence[str], token: str | None = None) -> str:
    """Log lines for GitHub Actions, each made safe and all between ``::stop-commands::TOKEN``
    and ``::TOKEN::``."""
    token = token or secrets.token_hex(16)
    return f"::stop-commands::{token}\n{text_log(lines)}\n::{token}::"


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def json_default(value: object) -> str:
    return value.isoformat() if isinstance(value, date) else str(value)


def dump_json(document: Mapping[str, object]) -> str:
    """The document as valid UTF-8 JSON: a lone surrogate is written as its ``\\udcXX`` escape."""
    text = json.dumps(document, ensure_ascii=False, default=json_default)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
