"""Naming what a version of the changelog did to the history it started from.

The one describer behind every ``history-modified`` finding (``verify`` judging
a branch, the merge refusing a side): the entry blocks of both versions are
aligned (difflib) and each historical entry that was changed, relinked,
removed, or had an entry inserted before it is named with its number, its
config-keys and its lines, so a human can put it back.
"""

from __future__ import annotations

from dataclasses import dataclass
from difflib import SequenceMatcher

from changelog_tool.ledger.document import Block, Ledger
from changelog_tool.ledger.entry import same_entry
from changelog_tool.ledger.quickread import quick_item
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items

UNPARSED: object = object()

INSERTED = "inserted"
"""How an :class:`Edit` of an entry placed among the base's begins (the one edit
that leaves every byte of the base's entries as they were)."""


@dataclass(frozen=True)
class Edit:
    """One change to history: the line it is at (in the edited version, or ``None``)
    and what happened, as a phrase that follows the editor's name (the caller adds
    the rule it breaks)."""

    line: int | None
    what: str


def content(ledger: Ledger, block: Block) -> bytes:
    """An entry's own lines, without the newline that ends its last line (so that
    the last entry of a file lacking its final newline compares equal)."""
    text = ledger.data[block.start : block.end]
    return text[:-1] if text.endswith(b"\n") else text


def parse_entry(raw: bytes, line: int) -> object:
    """The value of one entry's bytes (raises :class:`YamlProblem`, lines in the file).

    An entry in the emitter's layout is read without the YAML parser (the same
    value, see :mod:`~changelog_tool.ledger.quickread`), so a merge of such entries
    never loads it; any other entry is parsed by the strict loader."""
    quick = quick_item(raw + b"\n", line, lines=False)
    if quick is not None:
        return quick.value
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


def history_edits(base: Ledger, new: Ledger) -> list[Edit]:
    """Every change ``new`` made to ``base``'s entries (entries added after the
    base's last one are appends, not edits)."""
    old_texts = [content(base, b) for b in base.blocks]
    new_texts = [content(new, b) for b in new.blocks]
    edits: list[Edit] = []
    if base.data[: base.preamble_end].rstrip(b" \n") != new.data[: new.preamble_end].rstrip(b" \n"):
        edits.append(Edit(1, "changed the lines before the first entry"))

    matcher = SequenceMatcher(None, old_texts, new_texts, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "insert" and i1 == len(old_texts)):
            continue
        if tag == "insert":
            edits.extend(_inserted(new, new_texts, range(j1, j2)))
            continue
        for k in range(i1, i2):
            block = base.blocks[k]
            value = parse(old_texts[k], block.line)
            name = f"entry {k + 1} ({label(value, old_texts[k])}, line {block.line} of the base)"
            partner = j1 + (k - i1)
            if tag == "replace" and partner < j2:
                changed = new.blocks[partner]
                new_value = parse(new_texts[partner], changed.line)
                relinked = (
                    isinstance(value, dict)
                    and isinstance(new_value, dict)
                    and same_entry(value, new_value)
                )
                verb = "corrected the pr-link of" if relinked else "changed"
                at = changed.line + first_line_difference(old_texts[k], new_texts[partner])
                edits.append(Edit(at, f"{verb} {name}, at its line {at}"))
            else:  # placed where it was: at the entry that now follows it, or the end
                after = new.blocks[j2].line if j2 < len(new.blocks) else _last_line(new)
                edits.append(Edit(after, f"removed {name}"))
        if tag == "replace" and j2 - j1 > i2 - i1 and i2 < len(old_texts):
            # (a run that reaches the base's end: what follows its last entry's
            # partner is appended, as compare's split of the appended entries has it)
            edits.extend(_inserted(new, new_texts, range(j1 + i2 - i1, j2)))
    if not edits:
        edits.extend(_separator_edits(base, new))
    return edits


def _inserted(new: Ledger, texts: list[bytes], indexes: range) -> list[Edit]:
    """Entries ``new`` has before the base's last entry that the base lacks."""
    out = []
    for index in indexes:
        block = new.blocks[index]
        value = parse(texts[index], block.line)
        out.append(
            Edit(
                block.line,
                f"{INSERTED} {label(value, texts[index])} at its line "
                f"{block.line}, before the base's last entry",
            )
        )
    return out


def _last_line(ledger: Ledger) -> int:
    """The file's last line that has text (a line past the end names nothing)."""
    return max(1, ledger.data.rstrip(b"\n").count(b"\n") + 1)


def first_line_difference(old: bytes, new: bytes) -> int:
    """0-based line (within an entry) where two versions of it first differ."""
    pairs = zip(old.split(b"\n"), new.split(b"\n"), strict=False)
    return next((n for n, (a, b) in enumerate(pairs) if a != b), 0)


def _separator_edits(base: Ledger, new: Ledger) -> list[Edit]:
    """The first separator between historical entries that ``new`` changed."""
    for block in base.blocks[:-1]:
        if block.index >= len(new.blocks):
            break
        theirs = new.blocks[block.index]
        if base.data[block.end : block.sep_end] != new.data[theirs.end : theirs.sep_end]:
            return [
                Edit(
                    new.line_of(theirs.end),
                    f"changed the blank line(s) after entry {block.index + 1} (line "
                    f"{block.line} of the base)",
                )
            ]
    return []
