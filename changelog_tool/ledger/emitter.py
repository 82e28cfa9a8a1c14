"""Entry -> canonical YAML block, in the file's prevailing style.

Field order config-keys, scenario-type, description, pr-link, then flags;
list items indented four spaces; descriptions always double-quoted and on
one line; keys and links plain when that is safe, double-quoted otherwise.
Every block is parsed back before it is returned, so a block that would not
read back as exactly the entry never leaves this module.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from changelog_tool.errors import ChangelogError
from changelog_tool.ledger.entry import FIELD_ORDER, LIST_FIELDS, normalize
from changelog_tool.ledger.strictyaml import YamlProblem, load_value, resolve_plain

_SAFE_PLAIN = re.compile(r"^[A-Za-z0-9_./][A-Za-z0-9_./:*+=@-]*$")
_NAMED = {
    "\x00": "\\0",
    "\x07": "\\a",
    "\x08": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\x0b": "\\v",
    "\x0c": "\\f",
    "\r": "\\r",
    "\x1b": "\\e",
}


def _printable(code: int) -> bool:
    return (
        0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
        or 0x10000 <= code <= 0x10FFFF
    ) and code not in (0x2028, 0x2029)


def double_quoted(text: str) -> str:
    """A YAML double-quoted scalar on one line that reads back as ``text``."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char == '"':
            out.append('\\"')
        elif char == "\\":
            out.append("\\\\")
        elif _printable(code):
            out.append(char)
        elif char in _NAMED:
            out.append(_NAMED[char])
        elif 0xD800 <= code <= 0xDFFF:
            raise ChangelogError(
                f"the text {text[:40]!r} holds a lone surrogate (U+{code:04X}), which UTF-8 "
                "cannot store; retype that character"
            )
        elif code <= 0xFF:
            out.append(f"\\x{code:02X}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04X}")
        else:
            out.append(f"\\U{code:08X}")
    out.append('"')
    return "".join(out)


def scalar(text: str) -> str:
    """Plain when it reads back as the same string, double-quoted otherwise."""
    if (
        _SAFE_PLAIN.match(text)
        and ": " not in text
        and not text.endswith(":")
        and resolve_plain(text) == text
    ):
        return text
    return double_quoted(text)


def _value(field: str, value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if field == "description":
        return double_quoted(value)
    return scalar(value)


def emit(entry: Mapping[str, Any]) -> bytes:
    """The block for one entry, ending in one newline (no separator)."""
    canonical = normalize(entry)
    unknown = [f for f in canonical if f not in FIELD_ORDER]
    if unknown:
        raise ChangelogError(
            f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(FIELD_ORDER)}"
        )
    lines: list[str] = []
    for field, value in canonical.items():
        head = "- " if not lines else "  "
        if field in LIST_FIELDS:
            lines.append(f"{head}{field}:")
            lines.extend(f"    - {_value(field, item)}" for item in value)
        else:
            lines.append(f"{head}{field}: {_value(field, value)}")
    block = ("\n".join(lines) + "\n").encode("utf-8")
    _prove(block, canonical)
    return block


def _prove(block: bytes, entry: Mapping[str, Any]) -> None:
    try:
        parsed = load_value(block)
    except YamlProblem as problem:  # pragma: no cover - a bug in this module
        raise ChangelogError(f"internal error: emitted block does not parse: {problem}") from None
    if parsed != [dict(entry)] or any(
        type(parsed[0][k]) is not type(v) for k, v in entry.items()
    ):  # pragma: no cover - a bug in this module
        raise ChangelogError("internal error: emitted block does not read back as the entry")


def emit_many(entries: list[Mapping[str, Any]]) -> bytes:
    """Blocks separated by exactly one empty line."""
    return b"\n".join(emit(e) for e in entries)
