"""Entry -> canonical YAML block: the schema's field order, list items indented four spaces,
descriptions double-quoted on one line, scalars plain only when YAML 1.1 and 1.2 both read
them back as the same string. See docs/design.md, "An emitter that proves itself"."""

from __future__ import annotations

import re
from collections.abc import Mapping

from changelog_tool.errors import ChangelogError
from changelog_tool.ledger.entry import lone_surrogate, normalize, not_an_integer
from changelog_tool.ledger.entryschema import FLAG, INTEGER, LIST, current
from changelog_tool.yaml.items import STR_TAG, YamlProblem, plain_tag
from changelog_tool.yaml.strict import load_value
from changelog_tool.yaml.yaml11 import plain as plain_1_1

# Characters a plain scalar may hold: no indicator can start it, no ": " or " #" can
# occur inside it, nothing needs an escape. (A trailing ":" is checked apart.)
_SAFE_PLAIN = re.compile(r"[A-Za-z0-9_./][A-Za-z0-9_./:*+-]*")
_NAMED = dict(zip("\x00\x07\x08\t\n\x0b\x0c\r\x1b", "0abtnvfre", strict=True))
"""The characters YAML escapes by a letter (``\\0``, ``\\a``, ... ``\\e``)."""


def _printable(code: int) -> bool:
    return (
        0x20 <= code <= 0x7E
        or 0xA0 <= code <= 0xD7FF
        or (0xE000 <= code <= 0xFFFD and code != 0xFEFF)
        or 0x10000 <= code <= 0x10FFFF
    ) and code not in (0x2028, 0x2029)


def double_quoted(text: str) -> str:
    """A YAML double-quoted scalar on one line that reads back as ``text`` (which holds no lone
    surrogate: :func:`_value` refuses one)."""
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
            out.append("\\" + _NAMED[char])
        elif code <= 0xFF:
            out.append(f"\\x{code:02X}")
        elif code <= 0xFFFF:
            out.append(f"\\u{code:04X}")
        else:
            out.append(f"\\U{code:08X}")
    out.append('"')
    return "".join(out)


def plain_is_safe(text: str) -> bool:
    """Whether ``text`` written plain reads back as ``text`` in YAML 1.1 and 1.2 alike."""
    if _SAFE_PLAIN.fullmatch(text) is None or text.endswith(":"):
        return False
    if plain_tag(text) != STR_TAG:  # YAML 1.2: the reader of every file the tool reads
        return False
    try:
        return plain_1_1(text) == text  # YAML 1.1: PyYAML, as the benchmark CI reads it
    except YamlProblem:
        return False


def scalar(text: str) -> str:
    """Plain when every reader gets the same string back, double-quoted otherwise."""
    return text if plain_is_safe(text) else double_quoted(text)


def _value(path: str, field: str, kind: str | None, value: object) -> str:
    """One value as YAML, or a refusal naming the field."""
    if kind == FLAG:
        if isinstance(value, bool):
            return "true" if value else "false"
        raise ChangelogError(f"{path}: {value!r} is not true or false")
    if kind == INTEGER:
        if isinstance(value, int) and not isinstance(value, bool):
            return str(value)
        raise ChangelogError(f"{path}: {not_an_integer(value)}")
    if not isinstance(value, str):
        raise ChangelogError(f"{path}: {value!r} is not text")
    why = lone_surrogate(value)
    if why is not None:
        raise ChangelogError(f"{path}: {why}")
    return double_quoted(value) if field == "description" else scalar(value)


def emit(entry: Mapping[str, object]) -> bytes:
    """The block for one entry, ending in one newline (no separator)."""
    canonical = normalize(entry)
    definition = current()
    unknown = [f for f in canonical if f not in definition.names]
    if unknown:
        raise ChangelogError(
            f"unknown field(s) {', '.join(unknown)}; allowed: {', '.join(definition.names)}; "
            + definition.where_to_declare()
        )
    lines: list[str] = []
    for field, value in canonical.items():
        head = "- " if not lines else "  "
        kind = definition.kind(field)
        if kind == LIST:
            if not isinstance(value, list):
                raise ChangelogError(f"{field}: {value!r} is not a list")
            lines.append(f"{head}{field}:")
            lines.extend(
                f"    - {_value(f'{field}/{i}', field, None, v)}" for i, v in enumerate(value)
            )
        else:
            lines.append(f"{head}{field}: {_value(field, field, kind, value)}")
    block = ("\n".join(lines) + "\n").encode("utf-8")
    try:  # the proof: it reads back as the entry
        parsed = load_value(block)
    except YamlProblem as problem:  # pragma: no cover - a bug in this module
        raise ChangelogError(
            f"internal error: emitted block does not parse: line {problem.line}: {problem.message}"
        ) from None
    if parsed != [canonical] or any(
        type(parsed[0][k]) is not type(v) for k, v in canonical.items()
    ):  # pragma: no cover - a bug in this module
        raise ChangelogError("internal error: emitted block does not read back as the entry")
    return block
