"""One entry of the changelog read alone (:func:`parse_entry`), named (:func:`label`,
:func:`name`), and where two versions first differ (:func:`first_line_difference`)."""

from __future__ import annotations

from changelog_tool.ledger.document import Block, Ledger, parse_item
from changelog_tool.yaml.items import YamlProblem

UNPARSED: object = object()


def content(ledger: Ledger, block: Block) -> bytes:
    """An entry's own lines without the final newline (a file lacking one compares equal)."""
    text = ledger.data[block.start : block.end]
    return text[:-1] if text.endswith(b"\n") else text


def parse_entry(raw: bytes, line: int) -> object:
    """The value of one entry's bytes by the strict loader (raises :class:`YamlProblem`)."""
    return parse_item(raw + b"\n", line).value


def parse(raw: bytes, line: int) -> object:
    """The entry's value, or :data:`UNPARSED` when it does not parse on its own."""
    try:
        return parse_entry(raw, line)
    except YamlProblem:
        return UNPARSED


def value(ledger: Ledger, block: Block) -> object:
    """The value of an entry of ``ledger``, or :data:`UNPARSED`."""
    return parse(content(ledger, block), block.line)


def name(ledger: Ledger, index: int, where: str = "") -> str:
    """``entry 3 (config-keys a, b)``; with ``where``, ``(..., line 12 of WHERE)``."""
    block = ledger.blocks[index]
    raw = content(ledger, block)
    at = f", line {block.line} of {where}" if where else ""
    return f"entry {index + 1} ({label(parse(raw, block.line), raw)}{at})"


def label(value: object, fallback: bytes = b"") -> str:
    """A short human name for an entry: its config-keys."""
    if isinstance(value, dict) and isinstance(value.get("config-keys"), list):
        keys = [str(k) for k in value["config-keys"]]
        more = f" (+{len(keys) - 2} more)" if len(keys) > 2 else ""
        return "config-keys " + ", ".join(keys[:2]) + more
    first = fallback.split(b"\n", 1)[0].decode("utf-8", "replace")
    return repr(first[:60])


def first_line_difference(old: bytes, new: bytes) -> int:
    """0-based line (within an entry) where two versions of it first differ."""
    pairs = zip(old.split(b"\n"), new.split(b"\n"), strict=False)
    return next((n for n, (a, b) in enumerate(pairs) if a != b), 0)
