"""What each side of a merge did to the changelog since the base, entry by entry.

Pure functions over :class:`~changelog_tool.ledger.Ledger` views of bytes. The
other (unprotected) side may only append: :func:`own_entries` returns the
entries it appended, or says exactly which historical entry it touched. The
protected side may do anything: :func:`protected_changes` lists what it
appended and removed, so that concurrent duplicates can be dropped.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from changelog_tool.ledger import Block, Ledger
from changelog_tool.yamlload import YamlProblem

MAX_LISTED = 5
UNPARSED: Any = object()


@dataclass(frozen=True)
class Problem:
    """Why a merge is refused. ``side`` names the input the ``line`` refers to."""

    code: str
    side: str
    line: int | None
    message: str


@dataclass(frozen=True)
class Entry:
    """One entry of one side: its bytes span and, when it parses, its value."""

    block: Block
    value: Any
    raw: bytes

    @property
    def line(self) -> int:
        return self.block.line

    def key(self) -> str:
        """Identity for duplicate detection: the entry without its pr-link."""
        if self.value is UNPARSED:
            return "raw:" + self.raw.decode("utf-8", "replace")
        if isinstance(self.value, dict):
            return json.dumps(without_pr_link(self.value), sort_keys=True, ensure_ascii=False)
        return json.dumps(self.value, sort_keys=True, ensure_ascii=False)


def without_pr_link(value: dict[str, Any]) -> dict[str, Any]:
    """The entry without ``pr-link``: the same rule as ``entry.same_entry``, written
    here so that the merge driver does not load jsonschema (60 ms) to apply it."""
    return {k: v for k, v in value.items() if k != "pr-link"}


def same_entry(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return without_pr_link(a) == without_pr_link(b)


def content(ledger: Ledger, block: Block) -> bytes:
    """An entry's own lines, without the newline that ends its last line (so that
    the last entry of a file lacking its final newline compares equal)."""
    text = ledger.data[block.start : block.end]
    return text[:-1] if text.endswith(b"\n") else text


def label(value: Any, fallback: bytes = b"") -> str:
    """A short human name for an entry: its config-keys."""
    if isinstance(value, dict) and isinstance(value.get("config-keys"), list):
        keys = [str(k) for k in value["config-keys"]]
        more = f" (+{len(keys) - 2} more)" if len(keys) > 2 else ""
        return "config-keys " + ", ".join(keys[:2]) + more
    first = fallback.split(b"\n", 1)[0].decode("utf-8", "replace")
    return repr(first[:60])


def parse(ledger: Ledger, block: Block) -> Any:
    """The block's value, or :data:`UNPARSED` when it does not parse on its own."""
    try:
        return ledger.parse_block(block).value
    except YamlProblem:
        return UNPARSED


def entry(ledger: Ledger, block: Block) -> Entry:
    return Entry(block, parse(ledger, block), content(ledger, block))


def _matcher(a: Sequence[bytes], b: Sequence[bytes]) -> SequenceMatcher[bytes]:
    return SequenceMatcher(None, a, b, autojunk=False)


# --- the other side: appends only ------------------------------------------------
def own_entries(
    base: Ledger, other: Ledger, side: str
) -> tuple[list[Entry], list[Problem]]:
    """The entries ``other`` appended after the base's last entry, parsed one by one;
    or the problems that make it more than an append (history edited, an entry
    that does not parse, a missing final newline)."""
    problems = _history_problems(base, other, side)
    if problems:
        return [], problems
    blocks = other.blocks[len(base.blocks) :]
    entries: list[Entry] = []
    for block in blocks:
        try:
            entries.append(Entry(block, other.parse_block(block).value, content(other, block)))
        except YamlProblem as problem:
            problems.append(
                Problem(problem.code, side, problem.line,
                        f"{side}'s new entry at line {block.line} is not valid YAML: "
                        f"{problem.message}")
            )
    if blocks and not other.data.endswith(b"\n"):
        problems.append(
            Problem("final-newline", side, other.line_of(len(other.data)),
                    f"{side} does not end with a newline; add one to its last entry")
        )
    return entries, problems


def history_end(ledger: Ledger, count: int) -> int:
    """Byte offset where the first ``count`` entries (with the separators between
    them, not after the last one) end."""
    if count == 0:
        return ledger.preamble_end
    return ledger.blocks[count - 1].end


def _extends(base: Ledger, other: Ledger) -> bool:
    """``other`` holds the base's entries byte for byte (separators between them
    included), possibly followed by more."""
    n = len(base.blocks)
    if len(other.blocks) < n:
        return False
    if n == 0:
        return other.data[: other.preamble_end].rstrip(b" \n") == base.data.rstrip(b" \n")
    last = base.blocks[-1]
    return other.data[: last.start] == base.data[: last.start] and content(
        other, other.blocks[n - 1]
    ) == content(base, last)


def _history_problems(base: Ledger, other: Ledger, side: str) -> list[Problem]:
    if _extends(base, other):
        return []
    return _describe_history_edits(base, other, side)


def _describe_history_edits(base: Ledger, other: Ledger, side: str) -> list[Problem]:
    """Name each historical entry the other side changed, removed or inserted."""
    old = [content(base, b) for b in base.blocks]
    new = [content(other, b) for b in other.blocks]
    problems: list[Problem] = []
    if base.data[: base.preamble_end] != other.data[: other.preamble_end] and base.blocks:
        problems.append(
            Problem("history-modified", side, 1,
                    f"{side} changed the lines before the first entry")
        )
    for tag, i1, i2, j1, j2 in _matcher(old, new).get_opcodes():
        if tag == "equal" or (tag == "insert" and i1 == len(old)):
            continue
        if tag == "insert":
            block = other.blocks[j1]
            problems.append(
                Problem("history-modified", side, block.line,
                        f"{side} inserted {label(parse(other, block), old_text(other, block))} "
                        f"at its line {block.line}, before the base's last entry; "
                        "entries may only be appended at the end")
            )
            continue
        for k in range(i1, i2):
            block = base.blocks[k]
            value = parse(base, block)
            name = f"entry {k + 1} ({label(value, old_text(base, block))}, line {block.line} of base)"
            partner = j1 + (k - i1)
            if tag == "replace" and partner < j2:
                changed = other.blocks[partner]
                new_value = parse(other, changed)
                what = ("corrected the pr-link of" if isinstance(value, dict)
                        and isinstance(new_value, dict) and same_entry(value, new_value)
                        else "changed")
                problems.append(
                    Problem("history-modified", side, changed.line,
                            f"{side} {what} {name}, at its line {changed.line}; "
                            "only appending is allowed when merging")
                )
            else:
                problems.append(
                    Problem("history-modified", side, block.line,
                            f"{side} removed {name}; only appending is allowed when merging")
                )
    if not problems:
        problems.extend(_separator_edits(base, other, side))
    if len(problems) > MAX_LISTED:
        rest = len(problems) - MAX_LISTED
        problems = [*problems[:MAX_LISTED],
                    Problem("history-modified", side, None, f"... and {rest} more change(s)")]
    return problems


def old_text(ledger: Ledger, block: Block) -> bytes:
    return ledger.data[block.start : block.end]


def _separator_edits(base: Ledger, other: Ledger, side: str) -> list[Problem]:
    for block in base.blocks[:-1]:
        theirs = other.blocks[block.index]
        if base.data[block.end : block.sep_end] != other.data[theirs.end : theirs.sep_end]:
            return [
                Problem("history-modified", side, other.line_of(theirs.end),
                        f"{side} changed the blank line(s) after entry {block.index + 1} "
                        f"(line {block.line} of base); historical separators must stay "
                        "byte-for-byte")
            ]
    return [Problem("history-modified", side, None, f"{side} changed historical bytes")]


# --- the protected side: anything goes, we only need to know what it did ---------
@dataclass(frozen=True)
class ProtectedChanges:
    appended: list[Entry]
    removed: list[Entry]


def protected_changes(base: Ledger, protected: Ledger) -> ProtectedChanges:
    """Entries the protected side added (anywhere) and removed since the base.

    An entry it rewrote only in ``pr-link`` counts as neither: a pr-link
    correction is kept as the protected side's bytes and is not a new entry.
    """
    base_blocks, prot_blocks = base.blocks, protected.blocks
    n = len(base_blocks)
    added_blocks: list[Block] = []
    removed_blocks: list[Block] = []
    if _extends(base, protected):
        added_blocks = prot_blocks[n:]
    else:
        old = [content(base, b) for b in base_blocks]
        new = [content(protected, b) for b in prot_blocks]
        for tag, i1, i2, j1, j2 in _matcher(old, new).get_opcodes():
            if tag != "equal":
                removed_blocks.extend(base_blocks[i1:i2])
                added_blocks.extend(prot_blocks[j1:j2])
    added = [entry(protected, b) for b in added_blocks]
    removed = [entry(base, b) for b in removed_blocks]
    added_keys = _counts(added)
    removed_keys = _counts(removed)
    return ProtectedChanges(
        appended=_minus(added, removed_keys),
        removed=_minus(removed, added_keys),
    )


def _counts(entries: Sequence[Entry]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for entry in entries:
        counts[entry.key()] = counts.get(entry.key(), 0) + 1
    return counts


def _minus(entries: Sequence[Entry], counts: dict[str, int]) -> list[Entry]:
    left = dict(counts)
    out = []
    for entry in entries:
        if left.get(entry.key(), 0) > 0:
            left[entry.key()] -= 1
        else:
            out.append(entry)
    return out
