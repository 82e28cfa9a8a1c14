"""Findings (what a check found) and the three output formats."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    path: str
    line: int | None = None
    severity: str = ERROR
    key: str | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
            "path": self.path,
            "line": self.line,
        }
        if self.key is not None:
            data["key"] = self.key
        return data


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.severity == ERROR for f in findings)


def format_text(findings: Sequence[Finding]) -> str:
    lines = []
    for f in findings:
        where = f"{f.path}:{f.line}" if f.line is not None else f.path
        label = f.code if f.severity == ERROR else f"{f.code}: {f.severity}"
        lines.append(f"{where}: {label}: {f.message}")
    return "\n".join(lines)


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(findings: Sequence[Finding]) -> str:
    """GitHub Actions workflow commands: annotations without any token."""
    lines = []
    for f in findings:
        props = [f"file={_escape_property(f.path)}"]
        if f.line is not None:
            props.append(f"line={f.line}")
        props.append(f"title={_escape_property(f.code)}")
        lines.append(f"::{f.severity} {','.join(props)}::{_escape_data(f.message)}")
    return "\n".join(lines)


def dump_json(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False)
