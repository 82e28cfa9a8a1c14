"""What each side of a merge did to the changelog since the base, entry by entry.

Pure functions over bytes. The other (unprotected) side may add entries
anywhere but change none the protected side holds: :func:`own_entries` returns
the entries it added, or names exactly which historical entry it touched (see
:mod:`~changelog_tool.merge.scattered`). The protected side may do anything:
:func:`protected_changes` lists what it appended and removed, so that
concurrent duplicates can be dropped.

The usual case (a side is the base's bytes, then blank lines, then new
entries) is recognised from the end of the base's last entry alone, without
splitting the whole file; the entry-by-entry comparison (with
:class:`~changelog_tool.ledger.document.Ledger` spans) runs only when that fails.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from changelog_tool.ledger.boundaries import begins_entry
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import UNPARSED, content, parse, parse_entry
from changelog_tool.ledger.entry import entry_identity
from changelog_tool.merge.edits import Problem, possessive
from changelog_tool.merge.scattered import scattered_own
from changelog_tool.yaml.items import YamlProblem

_BLANK_LINES = re.compile(rb"(?:[ ]*\n)*[ ]*")


@dataclass(frozen=True)
class Entry:
    """One entry of one side: its first line, its own lines (without the final
    newline) and, when it parses, its value."""

    line: int
    raw: bytes
    value: Any

    def key(self) -> Hashable:
        """Identity for duplicate detection: the entry without its pr-link, equal
        exactly when the gate's :func:`~changelog_tool.ledger.entry.same_entry` says
        so (YAML data equality); an entry that does not parse, by its bytes."""
        if self.value is UNPARSED:
            return ("raw", self.raw)
        return entry_identity(self.value)


# --- a syntax-only read of a whole file, in C ---------------------------------
_DOCUMENT_MARKS = (b"---", b"...", b"%")


def _has_document_mark(data: bytes) -> bool:
    """A line that begins with ``---``, ``...`` or a directive (``%``): more than
    one document could follow (a cheap over-approximation: ``---x`` counts too)."""
    return any(data.startswith(mark) or b"\n" + mark in data for mark in _DOCUMENT_MARKS)


def block_list_events(data: bytes) -> int | None:
    """How many YAML events ``data`` parses into, when it is one document whose
    root is a block sequence at column 0; ``None`` when it is not (or does not
    parse, or the C parser is missing). Only syntax is read: libyaml's own loop,
    no Python object per event (building values costs several times more)."""
    try:  # deferred (and below): ruamel.yaml costs ~16 ms; a rebase's driver never reads this
        from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
    except ImportError:
        return None
    if _has_document_mark(data):
        return None
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.events import SequenceStartEvent

    try:
        parser = CParser(data)
        parser.get_event()  # stream start
        parser.get_event()  # document start
        root = parser.get_event() if parser.check_event(SequenceStartEvent) else None
        if root is None or root.flow_style or root.start_mark.column != 0:
            return None
        count: int = 3 + parser.raw_parse()  # the rest, to the end of the stream
    except YAMLError:
        return None
    return count


# --- the fast path: a side that is the base's bytes, then more entries ----------
def history_end(base: bytes) -> int | None:
    """Where the base's last entry ends (after its last line); ``None`` without entries."""
    last = Ledger(base).last_block()
    return last.end if last is not None else None


def begins_with_history(data: bytes, of: bytes) -> bool | None:
    """Whether ``data`` begins with ``of``'s bytes up to the end of its last entry (the
    blank lines after it are not compared); ``None`` when ``of`` holds no entry. The
    one rule for "this side keeps that file's history where it stands"."""
    end = history_end(of)
    return None if end is None else data[:end] == of[:end]


def after_history(base: bytes, side: bytes, end: int | None) -> int | None:
    """If ``side`` is the base's bytes up to ``end`` followed only by blank lines and
    new entries, the offset where that tail begins; else ``None``."""
    if end is None or side[:end] != base[:end]:
        return None
    pos = end
    if not base[:end].endswith(b"\n"):  # the base's last line has no newline
        if pos == len(side):
            return pos
        if side[pos : pos + 1] != b"\n":
            return None
        pos += 1
    match = _BLANK_LINES.match(side, pos)
    after = match.end() if match else pos
    if after == len(side) or (side[after - 1 : after] == b"\n" and begins_entry(side, after)):
        return pos
    return None


def tail_entries(data: bytes, start: int) -> list[tuple[int, bytes]]:
    """``(line, own lines)`` of each entry in ``data[start:]``."""
    rest = Ledger(data[start:])
    offset = data.count(b"\n", 0, start)
    return [(offset + block.line, content(rest, block)) for block in rest.blocks]


# --- the other side: appends only ------------------------------------------------
@dataclass(frozen=True)
class Own:
    entries: list[Entry]
    problems: list[Problem]
    history: bytes  # the other side's bytes that are the base's history
    inserted: frozenset[int] = frozenset()  # lines of own entries that stood mid-history


def own_entries(base: bytes, other: bytes, side: str, protected: bytes, protected_name: str) -> Own:
    """The entries ``other`` holds that the base lacks, parsed one by one: those it
    appended after the base's last entry, or, when it is more than an append, those
    it holds anywhere (:func:`~changelog_tool.merge.scattered.scattered_own`, which
    refuses a change to an entry ``protected`` holds); or the problems that refuse
    the merge (history edited, an entry that does not parse, a missing final
    newline)."""
    start = after_history(base, other, history_end(base))
    inserted: frozenset[int] = frozenset()
    if start is not None:
        blocks, history = tail_entries(other, start), other[:start]
    else:
        found = scattered_own(
            Ledger(base), Ledger(other), Ledger(protected), (protected_name, side)
        )
        if found.problems:
            return Own([], found.problems, b"")
        blocks, inserted = found.blocks, found.inserted
        history = other  # not the protected side's bytes: the whole side is parsed
    entries: list[Entry] = []
    problems = []
    for line, raw in blocks:
        try:
            entries.append(Entry(line, raw, parse_entry(raw, line)))
        except YamlProblem as problem:
            problems.append(
                Problem(
                    problem.code,
                    side,
                    problem.line,
                    f"{possessive(side)} new entry at line {line} is not valid YAML: {problem.message}",
                )
            )
    if blocks and not other.endswith(b"\n"):
        problems.append(
            Problem(
                "final-newline",
                side,
                other.count(b"\n") + 1,
                f"{side} does not end with a newline; add one to its last entry",
            )
        )
    return Own(entries, problems, history, inserted)


# --- the protected side: anything goes, we only need to know what it did ---------
@dataclass(frozen=True)
class ProtectedChanges:
    appended: list[Entry]
    removed: list[Entry]


def protected_changes(base: bytes, protected: bytes) -> ProtectedChanges:
    """Entries the protected side added (anywhere) and removed since the base.

    An entry it rewrote only in ``pr-link`` counts as neither: a pr-link
    correction is kept as the protected side's bytes and is not a new entry.
    """
    start = after_history(base, protected, history_end(base))
    if start is not None:
        return ProtectedChanges(
            [Entry(line, raw, parse(raw, line)) for line, raw in tail_entries(protected, start)], []
        )

    base_ledger, prot_ledger = Ledger(base), Ledger(protected)
    old = [content(base_ledger, b) for b in base_ledger.blocks]
    new = [content(prot_ledger, b) for b in prot_ledger.blocks]
    added: list[Entry] = []
    removed: list[Entry] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if tag != "equal":
            removed += [
                Entry(b.line, old[b.index], parse(old[b.index], b.line))
                for b in base_ledger.blocks[i1:i2]
            ]
            added += [
                Entry(b.line, new[b.index], parse(new[b.index], b.line))
                for b in prot_ledger.blocks[j1:j2]
            ]
    return ProtectedChanges(
        appended=_minus(added, _counts(removed)),
        removed=_minus(removed, _counts(added)),
    )


def _counts(entries: Sequence[Entry]) -> dict[Hashable, int]:
    counts: dict[Hashable, int] = {}
    for entry in entries:
        counts[entry.key()] = counts.get(entry.key(), 0) + 1
    return counts


def _minus(entries: Sequence[Entry], counts: dict[Hashable, int]) -> list[Entry]:
    left = dict(counts)
    out = []
    for entry in entries:
        if left.get(entry.key(), 0) > 0:
            left[entry.key()] -= 1
        else:
            out.append(entry)
    return out
