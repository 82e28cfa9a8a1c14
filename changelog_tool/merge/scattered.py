"""The other side's own entries, wherever they stand in its file (pure).

A branch that merged main by hand before may hold its own entry *between* main's
entries, not after them; one side may have added or removed a blank line between
old entries. Neither is an edit of history, and what the merge needs is still
certain: every entry of the base that the protected side holds is still on the
other side (byte for byte, its own lines), and the entries the other side holds
that the base lacks are its own, in their order, wherever they stand. The result
is the protected side's bytes, then those entries (see
:mod:`changelog_tool.merge.threeway`): what InferenceX's own merge script does, and
what the pull-request gate accepts.

Refused, and named with their lines: an entry of the base that the other side
changed or removed while the protected side still holds it; an entry of the base
the other side changed that the protected side changed or removed too (two edits
of one entry: which one is meant is a guess); a change to the lines before the
first entry that the protected side does not share. An old entry the other side
only moved is neither lost nor its own (the protected side's bytes keep it where
they have it).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import content, first_line_difference, label, parse
from changelog_tool.ledger.entry import same_entry
from changelog_tool.merge.edits import MAX_LISTED, Problem


@dataclass(frozen=True)
class Scattered:
    """The other side's own entries as ``(line, own lines)`` in its file's order;
    ``inserted``: the lines of those that stood before one of the base's entries
    (not after the last); or the ``problems`` that refuse the merge."""

    blocks: list[tuple[int, bytes]]
    inserted: frozenset[int]
    problems: list[Problem]


def _preamble(ledger: Ledger) -> bytes:
    return ledger.data[: ledger.preamble_end].rstrip(b" \n")


def scattered_own(
    base: Ledger, other: Ledger, protected: Ledger, names: tuple[str, str]
) -> Scattered:
    """The entries ``other`` holds that ``base`` lacks (``names``: the protected
    side's, then the other side's), or why the merge is refused."""

    prot_name, side = names
    old = [content(base, b) for b in base.blocks]
    new = [content(other, b) for b in other.blocks]
    opcodes = SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
    lost: list[int] = []  # base entries the other side does not hold where the base has them
    extra: list[int] = []  # other-side entries the base does not have there
    paired: dict[int, int] = {}  # a base entry replaced in place -> the entry replacing it
    follows: dict[int, int] = {}  # a base entry not held there -> the other side's next entry
    last_old = -1  # the other side's last entry that is one of the base's
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            last_old = j2 - 1
            continue
        lost += range(i1, i2)
        extra += range(j1, j2)
        follows.update(dict.fromkeys(range(i1, i2), j2))
        if tag == "replace":
            paired.update(zip(range(i1, i2), range(j1, j2), strict=False))
    # an old entry placed elsewhere is neither lost nor the other side's own
    moved = Counter(old[i] for i in lost) & Counter(new[j] for j in extra)
    own, gone = _unmoved(extra, new, moved), _unmoved(lost, old, moved)
    held = Counter(content(protected, b) for b in protected.blocks)
    owned = set(own)
    problems: list[Problem] = []
    if _preamble(other) != _preamble(base) and _preamble(protected) == _preamble(base):
        problems.append(
            Problem(
                "history-modified",
                side,
                1,
                f"{side} changed the lines before the first entry, which {prot_name} keeps; "
                "only appending is allowed when merging",
            )
        )
    for i in gone:
        block = base.blocks[i]
        name = f"entry {i + 1} ({label(parse(old[i], block.line), old[i])}, line {block.line} of the base)"
        partner = paired.get(i)
        changed = partner is not None and partner in owned
        if changed and partner is not None and _relinked(old[i], new[partner], block.line):
            verb = "corrected the pr-link of"
        else:
            verb = "changed" if changed else "removed"
        if held[old[i]] > 0:
            why = f"which {prot_name} holds"
        elif changed:
            why = f"which {prot_name} changed or removed too"
        else:
            continue  # removed on both sides: it stays removed
        if changed and partner is not None:
            at = other.blocks[partner].line + first_line_difference(old[i], new[partner])
            where = f", at its line {at}"
        else:  # where it was: at the entry that now follows it, or the file's last line
            after = follows[i]
            end = len(other.data.rstrip(b"\n"))
            at = other.blocks[after].line if after < len(new) else other.line_of(end)
            where = ""
        problems.append(
            Problem(
                "history-modified",
                side,
                at,
                f"{side} {verb} {name}{where}, {why}; only appending is allowed when merging",
            )
        )
    if len(problems) > MAX_LISTED:
        more = len(problems) - MAX_LISTED
        problems = [
            *problems[:MAX_LISTED],
            Problem("history-modified", side, None, f"... and {more} more change(s)"),
        ]
    if problems:
        return Scattered([], frozenset(), problems)
    blocks = [(other.blocks[j].line, new[j]) for j in own]
    inserted = frozenset(other.blocks[j].line for j in own if j < last_old)
    return Scattered(blocks, inserted, [])


def _unmoved(indexes: list[int], texts: list[bytes], moved: Counter[bytes]) -> list[int]:
    """``indexes`` but for those whose text ``moved`` counts (each count used once)."""
    left = Counter(moved)
    out = []
    for k in indexes:
        if left[texts[k]] > 0:
            left[texts[k]] -= 1
        else:
            out.append(k)
    return out


def _relinked(old: bytes, new: bytes, line: int) -> bool:
    """The two versions of an entry differ only in their pr-link (the one rule:
    :func:`~changelog_tool.ledger.entry.same_entry`)."""
    before, after = parse(old, line), parse(new, line)
    return isinstance(before, dict) and isinstance(after, dict) and same_entry(before, after)
