"""One entry of the changelog read alone (:func:`parse_entry`), named (:func:`label`), and where
two versions first differ (:func:`first_line_difference`)."""

from __future__ import annotations

from changelog_tool.ledger.document import Block, Ledger
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items

UNPARSED: object = object()


def content(ledger: Ledger, block: Block) -> bytes:
    """An entry's own lines without the final newline (a file lacking one compares equal)."""
    text = ledger.data[block.start : block.end]
    return text[:-1] if text.endswith(b"\n") else text


def parse_entry(raw: bytes, line: int) -> object:
    """The value of one entry's bytes by the strict loader (raises :class:`YamlProblem`)."""
    items = load_items(raw + b"\n", line_offset=line - 1)
    if not isinstance(items, list) or len(items) != 1 or not isinstance(items[0], Item):
        raise YamlProblem("entry-count", "this block is not exactly one list item", line)
    return items[0].value


def parse(raw: bytes, line: int) -> object:
    """The entry's value, or :data:`UNPARSED` when it does not parse on its own."""
    try:
        return parse_entry(raw, line)
    except YamlProblem:
        return UNPARSED


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
