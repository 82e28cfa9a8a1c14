"""What each side did to the changelog since the base, by the one comparison
(:func:`~changelog_tool.ledger.pairing.pair`): the other side's own entries, or
its edits of entries the protected side holds; the protected side's appends and
removals."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import content, first_line_difference, label, parse, parse_entry
from changelog_tool.ledger.pairing import (
    EDITED,
    KEPT,
    REFORMATTED,
    RELINKED,
    Pair,
    Pairing,
    identity,
)
from changelog_tool.merge.edits import MAX_LISTED, Entry, Problem, possessive
from changelog_tool.yaml.items import YamlProblem


@dataclass(frozen=True)
class Own:
    """The other side's own entries in its file's order; ``inserted``: the lines of
    those that stood before one of the base's entries; ``history``: its bytes before
    its own entries when they all follow the base's (else all of it); or the
    ``problems`` that refuse the merge."""

    entries: list[Entry]
    problems: list[Problem]
    history: bytes = b""
    inserted: frozenset[int] = frozenset()


def own_entries(by_other: Pairing, by_protected: Pairing, names: tuple[str, str]) -> Own:
    """The entries the other side holds that the base lacks, parsed one by one
    (``by_other``: the base paired with the other side; ``by_protected``: with the
    protected side; ``names``: the protected side's, then the other side's); or the
    problems that refuse the merge (an entry the protected side holds edited or
    removed, the lines before the first entry changed, an own entry that does not
    parse)."""
    problems = _history_problems(by_other, by_protected, names)
    if problems:
        return Own([], problems)
    other, side = by_other.new, names[1]
    tail = by_other.tail_start
    entries: list[Entry] = []
    for index in by_other.own:
        block = other.blocks[index]
        raw = content(other, block)
        try:
            entries.append(Entry(block.line, raw, parse_entry(raw, block.line)))
        except YamlProblem as problem:
            problems.append(
                Problem(
                    problem.code,
                    side,
                    problem.line,
                    f"{possessive(side)} new entry at line {block.line} is not valid YAML: "
                    f"{problem.message}",
                )
            )
    inserted = frozenset(other.blocks[j].line for j in by_other.own if j < tail)
    end = other.blocks[tail - 1].end if tail > 0 else other.preamble_end
    history = other.data if inserted else other.data[:end]
    return Own(entries, problems, history, inserted)


def _history_problems(
    by_other: Pairing, by_protected: Pairing, names: tuple[str, str]
) -> list[Problem]:
    """Each entry of the base the other side edited (a pr-link included; unless the
    protected side made the same change) or removed while the protected side still
    holds it, and a change to the lines before the first entry that the protected
    side does not share. Form is never one: whitespace, blank lines, order."""
    prot_name, side = names
    base, other, prot = by_other.old, by_other.new, by_protected.new
    held = {p.base: p for p in by_protected.pairs}
    problems: list[Problem] = []
    if _preamble(other) != _preamble(base) and _preamble(prot) == _preamble(base):
        problems.append(
            Problem(
                "history-modified",
                side,
                1,
                f"{side} changed the lines before the first entry, which {prot_name} keeps; "
                "only appending is allowed when merging",
            )
        )
    for p in by_other.pairs:
        if p.how not in (EDITED, RELINKED):
            continue  # the same entry, other form
        theirs = held.get(p.base)
        old, new = base.text(base.blocks[p.base]), other.text(other.blocks[p.head])
        if theirs is not None and identity(prot.text(prot.blocks[theirs.head])) == identity(new):
            continue  # both sides made the same change
        verb = "corrected the pr-link of" if p.how == RELINKED else "changed"
        at = other.blocks[p.head].line + first_line_difference(old, new)
        what = f"{verb} {_name(base, p.base)}, at its line {at}"
        problems.append(_edit(side, what, prot_name, _why(theirs), at))
    for index in by_other.removed:
        theirs = held.get(index)
        if theirs is None:
            continue  # removed on both sides: it stays removed
        # placed where it was: at the base entry that now follows it, or the last line
        after = min((p.head for p in by_other.pairs if p.base > index), default=None)
        end = len(other.data.rstrip(b"\n"))
        at = other.blocks[after].line if after is not None else other.line_of(end)
        problems.append(_edit(side, f"removed {_name(base, index)}", prot_name, _why(theirs), at))
    if len(problems) > MAX_LISTED:
        more = len(problems) - MAX_LISTED
        problems = [
            *problems[:MAX_LISTED],
            Problem("history-modified", side, None, f"... and {more} more change(s)"),
        ]
    return problems


def _why(theirs: Pair | None) -> str:
    """How the protected side has the entry the other side edited or removed: the
    base's entry (form aside), or its own edit of it, or none (it removed it: the
    other side's edit would be lost)."""
    return (
        "holds"
        if theirs is not None and theirs.how in (KEPT, REFORMATTED)
        else "changed or removed too"
    )


def _edit(side: str, what: str, prot_name: str, why: str, line: int) -> Problem:
    return Problem(
        "history-modified",
        side,
        line,
        f"{side} {what}, which {prot_name} {why}; only appending is allowed when merging",
    )


def _name(ledger: Ledger, index: int) -> str:
    block = ledger.blocks[index]
    raw = content(ledger, block)
    return (
        f"entry {index + 1} ({label(parse(raw, block.line), raw)}, line {block.line} of the base)"
    )


def _preamble(ledger: Ledger) -> bytes:
    return identity(ledger.data[: ledger.preamble_end])


@dataclass(frozen=True)
class ProtectedChanges:
    appended: list[Entry]
    removed: list[Entry]


def protected_changes(by_protected: Pairing) -> ProtectedChanges:
    """The entries the protected side added (anywhere) and removed since the base
    (``by_protected``: the base paired with it), an entry it edited counting as both,
    and one it removed cancelling one it added that is the same entry but for
    pr-link (:meth:`Entry.key`). One it only relinked or reformatted is neither: its
    bytes are kept as they are."""
    base, prot = by_protected.old, by_protected.new
    edited = [p for p in by_protected.pairs if p.how == EDITED]
    added = [_entry(prot, j) for j in sorted([*by_protected.own, *(p.head for p in edited)])]
    removed = [_entry(base, i) for i in sorted([*by_protected.removed, *(p.base for p in edited)])]
    return ProtectedChanges(_minus(added, removed), _minus(removed, added))


def _entry(ledger: Ledger, index: int) -> Entry:
    block = ledger.blocks[index]
    raw = content(ledger, block)
    return Entry(block.line, raw, parse(raw, block.line))


def _minus(entries: list[Entry], others: list[Entry]) -> list[Entry]:
    """``entries`` but one for each of ``others`` with the same key."""
    left = Counter(entry.key() for entry in others)
    out = []
    for entry in entries:
        if left[entry.key()] > 0:
            left[entry.key()] -= 1
        else:
            out.append(entry)
    return out
