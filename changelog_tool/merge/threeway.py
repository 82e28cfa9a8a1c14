"""The pure three-way merge of the changelog: the protected side's bytes, then the
other side's own entries, verified before it is returned. See docs/design.md,
"Why a merge driver"."""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from changelog_tool.ledger.appending import append_break
from changelog_tool.ledger.document import Ledger, separator_before_append
from changelog_tool.ledger.edits import label, parse
from changelog_tool.ledger.pairing import pair
from changelog_tool.merge.corrections import carry
from changelog_tool.merge.edits import Entry, Problem
from changelog_tool.merge.proof import parses_whole, verify
from changelog_tool.merge.replay import Mainline, Split, replayed_run
from changelog_tool.merge.side_changes import own_entries, protected_changes
from changelog_tool.settings import DEFAULT_PLACEHOLDERS

Side = Literal["ours", "theirs"]
SIDES: tuple[Side, Side] = ("ours", "theirs")


def other_side(side: Side) -> Side:
    return "theirs" if side == "ours" else "ours"


@dataclass(frozen=True)
class Note:
    """An entry named in a report. ``line`` is in the file ``where`` names;
    ``other_line`` (for a duplicate) is the protected copy's line in the result."""

    where: str
    line: int
    label: str
    other_line: int | None = None

    def below(self, lines: int) -> Note:
        """The same entry in files that have ``lines`` more lines before it."""
        other = self.other_line + lines if self.other_line is not None else None
        return Note(self.where, self.line + lines, self.label, other)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"where": self.where, "line": self.line, "entry": self.label}
        if self.other_line is not None:
            data["duplicate_of_line"] = self.other_line
        return data


@dataclass(frozen=True)
class Report:
    protected: Side
    kept: tuple[Note, ...] = ()
    duplicates: tuple[Note, ...] = ()
    removed: tuple[Note, ...] = ()
    replayed: int = 0
    replayed_why: str = ""  # what proved the replayed entries the branch's own
    rewritten: tuple[Note, ...] = ()  # replayed own entries the other side changed or dropped
    corrected: tuple[Note, ...] = ()  # the other side's pr-link corrections carried over
    reappended: tuple[
        Note, ...
    ] = ()  # kept entries that stood before old entries on the other side

    def to_json(self) -> dict[str, object]:
        return {
            "protected": self.protected,
            "kept": [n.to_json() for n in self.kept],
            "duplicates": [n.to_json() for n in self.duplicates],
            "removed_by_protected": [n.to_json() for n in self.removed],
            "replayed": self.replayed,
            "replayed_why": self.replayed_why or None,
            "replayed_rewritten": [n.to_json() for n in self.rewritten],
            "pr_link_corrections": [n.to_json() for n in self.corrected],
            "reappended_from_history": [n.to_json() for n in self.reappended],
        }


@dataclass(frozen=True)
class Merged:
    data: bytes
    report: Report


@dataclass(frozen=True)
class Refused:
    protected: Side
    problems: tuple[Problem, ...] = field(default_factory=tuple)


def merge(
    base: bytes,
    ours: bytes,
    theirs: bytes,
    protected: Side,
    placeholders: Sequence[str] = DEFAULT_PLACEHOLDERS,
    mainline: Mainline | Callable[[], Mainline] | None = None,
    slug: str | Callable[[], str | None] | None = None,
) -> Merged | Refused:
    """Merge three versions of the changelog; ``protected`` says whose bytes lead.

    When the other side rewrote entries the protected side ends with, and git's
    record (``mainline``, or a function giving it, asked only then) proves them the
    branch's own being replayed (:func:`~changelog_tool.merge.replay.replayed_run`;
    without a record, the guess from ``placeholders``, the placeholder pr-links),
    they are merged as the other side has them; otherwise the merge is refused, and
    says why. ``slug`` (or a function giving it) is the repository the other side's
    pr-link corrections must point at (:mod:`~changelog_tool.merge.corrections`).
    """
    sides = {"ours": ours, "theirs": theirs}
    prot, other = sides[protected], sides[other_side(protected)]
    problems = _byte_problems(prot, protected) + _byte_problems(other, other_side(protected))
    if problems:
        return Refused(protected, tuple(problems))
    result = _merge(base, prot, other, protected)
    if isinstance(result, Merged):
        return result
    names = (protected, other_side(protected))
    run = replayed_run(base, prot, other, names, placeholders, mainline)
    if isinstance(run, Problem):
        return Refused(protected, (*result.problems, run))
    if run is not None:
        retry = _merge(run.base, run.protected, other, protected, run)
        if isinstance(retry, Merged) and retry.data.startswith(run.protected):
            return retry
        return result
    carried = carry(base, prot, other, slug)
    if carried is not None:
        fixed_base, fixed_prot, lines = carried
        retry = _merge(fixed_base, fixed_prot, other, protected)
        if isinstance(retry, Merged):
            notes = tuple(Note("result", line, "pr-link corrected") for line in lines)
            return Merged(retry.data, dataclasses.replace(retry.report, corrected=notes))
    return result


def _byte_problems(data: bytes, side: str) -> list[Problem]:
    """Encoding problems refuse a side; a missing final newline is checked later,
    only where it matters (the other side's appended entries)."""
    return [
        Problem(p.code, side, p.line, f"{side}: {p.message}")
        for p in Ledger(data).byte_problems()
        if p.code != "final-newline"
    ]


def _merge(
    base: bytes, prot: bytes, other: bytes, protected: Side, replay: Split | None = None
) -> Merged | Refused:
    other_name = other_side(protected)
    old = Ledger(base)
    by_protected = pair(old, Ledger(prot))
    own = own_entries(pair(old, Ledger(other)), by_protected, (protected, other_name))
    if own.problems:
        return Refused(protected, tuple(own.problems))
    changes = protected_changes(by_protected)
    pending: dict[Hashable, list[Entry]] = {}
    for entry in changes.appended:
        pending.setdefault(entry.key(), []).append(entry)
    kept: list[Entry] = []
    duplicates: list[Note] = []
    for entry in own.entries:
        twins = pending.get(entry.key())
        if twins:
            twin = twins.pop(0)
            duplicates.append(Note(other_name, entry.line, label(entry.value), twin.line))
        else:
            kept.append(entry)
    data, lines = _assemble(prot, [e.raw + b"\n" for e in kept])
    problems = _append_breaks(prot, data, protected) or verify(
        prot, data, len(kept), lines[0] if lines else None, protected
    )
    if not problems and not prot.startswith(own.history):
        problems = parses_whole(other, other_name)
    if problems:
        return Refused(protected, tuple(problems))
    notes = [Note("result", line, label(e.value)) for e, line in zip(kept, lines, strict=True)]
    report = Report(
        protected=protected,
        kept=tuple(notes),
        reappended=tuple(
            note for note, e in zip(notes, kept, strict=True) if e.line in own.inserted
        ),
        duplicates=tuple(duplicates),
        removed=tuple(Note("base", e.line, label(e.value, e.raw)) for e in changes.removed),
        replayed=replay.count if replay else 0,
        replayed_why=replay.why if replay else "",
        rewritten=_rewritten(replay, own.entries, protected) if replay else (),
    )
    return Merged(data, report)


def _append_breaks(prot: bytes, data: bytes, protected: Side) -> list[Problem]:
    """The one append rule (:func:`~changelog_tool.ledger.appending.append_break`,
    as ``add`` and ``verify`` apply it) on what the merge appends to the protected
    side: its last entry must read the same, and the whole stay one list."""
    if len(data) == len(prot):
        return []
    broken = append_break(prot, data[len(prot) :], whose=f"{protected}'s")
    if broken is None:
        return []
    return [Problem(broken.code, "result", broken.line, f"{broken.what}; nothing was written")]


def _assemble(protected: bytes, blocks: list[bytes]) -> tuple[bytes, list[int]]:
    """Protected bytes, then each block after exactly one empty line."""
    if not blocks:
        return protected, []
    head = protected + separator_before_append(protected)
    line = head.count(b"\n") + 1
    lines = []
    for block in blocks:
        lines.append(line)
        line += block.count(b"\n") + 1
    return head + b"\n".join(blocks), lines


def _rewritten(replay: Split, own: list[Entry], protected: Side) -> tuple[Note, ...]:
    """The replayed entries the other side no longer holds as they were (changed or
    dropped), named at their lines in the protected side."""
    held = Counter(entry.raw for entry in own)
    gone = []
    for raw, line in zip(replay.entries, replay.lines, strict=True):
        if held[raw] > 0:
            held[raw] -= 1
        else:
            gone.append(Note(protected, line, label(parse(raw, line), raw)))
    return tuple(gone)
