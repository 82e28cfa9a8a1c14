"""The pure three-way merge: the protected side's bytes, then the other side's own entries,
proven before it is returned. See docs/design.md, "Why a merge driver"."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from typing import Literal

from changelog_tool.findings import Finding
from changelog_tool.ledger.compare import pr_link_corrections
from changelog_tool.ledger.document import (
    UNPARSED,
    Entry,
    Ledger,
    first_line_difference,
    label,
    parse,
    separator_before_append,
)
from changelog_tool.ledger.entry import entry_identity, pull_link_problem
from changelog_tool.ledger.pairing import (
    EDITED,
    KEPT,
    REFORMATTED,
    RELINKED,
    Pairing,
    identity,
    pair,
    preamble,
)
from changelog_tool.merge.proof import parses_whole, verify
from changelog_tool.merge.replay import Mainline, Split, possessive, replayed_run
from changelog_tool.settings import DEFAULT_PLACEHOLDERS
from changelog_tool.yaml.items import YamlProblem

Side = Literal["ours", "theirs"]
MAX_LISTED = 5


def other_side(side: Side) -> Side:
    return "theirs" if side == "ours" else "ours"


def key(entry: Entry) -> Hashable:
    """Equal exactly when the gate's ``same_entry`` says so; an unparsed entry, by its bytes."""
    if entry.value is UNPARSED:
        return ("raw", entry.raw)
    return entry_identity(entry.value)


@dataclass(frozen=True)
class Note:
    """``line`` in the file ``where`` names; ``other_line``: a duplicate's protected copy."""

    where: str
    line: int
    label: str
    other_line: int | None = None

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {"where": self.where, "line": self.line, "entry": self.label}
        if self.other_line is not None:
            data["duplicate_of_line"] = self.other_line
        return data


@dataclass(frozen=True)
class Report:
    kept: tuple[Note, ...] = ()
    duplicates: tuple[Note, ...] = ()
    removed: tuple[Note, ...] = ()
    replayed: int = 0
    replayed_why: str = ""  # what proved the replayed entries the branch's own
    rewritten: tuple[Note, ...] = ()  # replayed own entries the other side changed or dropped
    corrected: tuple[Note, ...] = ()  # the other side's pr-link corrections carried over
    reappended: tuple[Note, ...] = ()  # kept entries that stood before old entries

    def to_json(self) -> dict[str, object]:
        return {
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
    """Each finding's path names the side its line is in (or ``base``, ``result``)."""

    problems: tuple[Finding, ...]


def merge(
    base: bytes,
    ours: bytes,
    theirs: bytes,
    protected: Side,
    placeholders: Sequence[str] = DEFAULT_PLACEHOLDERS,
    mainline: Mainline | Callable[[], Mainline] | None = None,
    slug: str | Callable[[], str | None] | None = None,
) -> Merged | Refused:
    """``protected``'s bytes lead. A refusal is retried on the branch's own entries being
    replayed, then with the other side's pr-link corrections carried (function arguments
    are asked only then)."""
    prot, other = (ours, theirs) if protected == "ours" else (theirs, ours)
    problems = [  # a missing final newline matters only where entries are appended
        dataclasses.replace(p, message=f"{side}: {p.message}")
        for data, side in ((prot, protected), (other, other_side(protected)))
        for p in Ledger(data).byte_problems(side)
        if p.code != "final-newline"
    ]
    if problems:
        return Refused(tuple(problems))
    result = _merge(base, prot, other, protected)
    if isinstance(result, Merged):
        return result
    names = (protected, other_side(protected))
    run = replayed_run(base, prot, other, names, placeholders, mainline)
    if isinstance(run, Finding):
        return Refused((*result.problems, run))
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


def _merge(
    base: bytes, prot: bytes, other: bytes, protected: Side, replay: Split | None = None
) -> Merged | Refused:
    other_name = other_side(protected)
    old, new = Ledger(base), Ledger(prot)
    by_protected = pair(old, new)
    own = _own_entries(pair(old, Ledger(other)), by_protected, (protected, other_name))
    if isinstance(own, list):
        return Refused(tuple(own))
    own_list, history, inserted = own
    # appended and removed since the base (an edited entry is both), alike ones cancelled
    edited = [p for p in by_protected.pairs if p.how == EDITED]
    added = [new.blocks[j] for j in sorted([*by_protected.own, *(p.head for p in edited)])]
    dropped = [old.blocks[i] for i in sorted([*by_protected.removed, *(p.base for p in edited)])]
    appended, removed = _minus(added, dropped), _minus(dropped, added)
    pending: dict[Hashable, list[Entry]] = {}
    for entry in appended:
        pending.setdefault(key(entry), []).append(entry)
    kept: list[Entry] = []
    duplicates: list[Note] = []
    for entry in own_list:
        twins = pending.get(key(entry))
        if twins:
            twin = twins.pop(0)
            duplicates.append(Note(other_name, entry.line, label(entry.value), twin.line))
        else:
            kept.append(entry)
    data, lines = assemble(prot, [e.raw + b"\n" for e in kept])
    problems = verify(prot, data, len(kept), lines[0] if lines else None, protected)
    if not problems and not prot.startswith(history):
        problems = parses_whole(other, other_name)
    if problems:
        return Refused(tuple(problems))
    notes = [Note("result", line, label(e.value)) for e, line in zip(kept, lines, strict=True)]
    # the replayed entries the other side changed or dropped
    rewritten = _minus(list(replay.entries), own_list, lambda e: e.raw) if replay else []
    report = Report(
        kept=tuple(notes),
        reappended=tuple(note for note, e in zip(notes, kept, strict=True) if e.line in inserted),
        duplicates=tuple(duplicates),
        removed=tuple(Note("base", e.line, label(e.value, e.raw)) for e in removed),
        replayed=len(replay.entries) if replay else 0,
        replayed_why=replay.why if replay else "",
        rewritten=tuple(Note(protected, e.line, label(e.value, e.raw)) for e in rewritten),
    )
    return Merged(data, report)


def assemble(protected: bytes, blocks: list[bytes]) -> tuple[bytes, list[int]]:
    """Protected bytes, then each block after exactly one empty line."""
    if not blocks:
        return protected, []
    head = protected + separator_before_append(protected)
    heights = (block.count(b"\n") + 1 for block in blocks[:-1])
    return head + b"\n".join(blocks), list(accumulate(heights, initial=head.count(b"\n") + 1))


def _own_entries(
    by_other: Pairing, by_protected: Pairing, names: tuple[str, str]
) -> tuple[list[Entry], bytes, frozenset[int]] | list[Finding]:
    """The other side's own entries, its bytes before them (all of it when some stood
    before a base entry) and those entries' lines; or the problems that refuse the merge."""
    problems = _history_problems(by_other, by_protected, names)
    if problems:
        return problems
    other, side = by_other.new, names[1]
    tail = by_other.tail_start
    entries = [other.blocks[index] for index in by_other.own]
    problems = [
        Finding(
            read.code,
            f"{possessive(side)} new entry at line {e.line} is not valid YAML: {read.message}",
            side,
            read.line,
        )
        for e in entries
        if isinstance(read := e.parsed, YamlProblem)
    ]
    if problems:
        return problems
    inserted = frozenset(other.blocks[j].line for j in by_other.own if j < tail)
    end = other.blocks[tail - 1].end if tail > 0 else other.preamble_end
    return entries, other.data if inserted else other.data[:end], inserted


def _history_problems(
    by_other: Pairing, by_protected: Pairing, names: tuple[str, str]
) -> list[Finding]:
    """Base entries the other side edited (unless the protected side made the same change)
    or removed while the protected side holds them, a preamble change only it made; never
    form (whitespace, blank lines, order)."""
    prot_name, side = names
    base, other, prot = by_other.old, by_other.new, by_protected.new
    held = {p.base: p for p in by_protected.pairs}
    problems: list[Finding] = []
    if preamble(other) != preamble(base) and preamble(prot) == preamble(base):
        problems.append(
            Finding(
                "history-modified",
                f"{side} changed the lines before the first entry, which {prot_name} keeps; "
                "only appending is allowed when merging",
                side,
                1,
            )
        )

    def edit(what: str, index: int, line: int) -> Finding:
        theirs = held.get(index)
        why = "holds" if theirs is not None and theirs.how in (KEPT, REFORMATTED) else None
        return Finding(
            "history-modified",
            f"{side} {what}, which {prot_name} {why or 'changed or removed too'}; "
            "only appending is allowed when merging",
            side,
            line,
        )

    for p in by_other.pairs:
        if p.how not in (EDITED, RELINKED):
            continue  # the same entry, other form
        theirs = held.get(p.base)
        old, new = base.blocks[p.base].text, other.blocks[p.head].text
        if theirs is not None and identity(prot.blocks[theirs.head].text) == identity(new):
            continue  # both sides made the same change
        verb = "corrected the pr-link of" if p.how == RELINKED else "changed"
        at = other.blocks[p.head].line + first_line_difference(old, new)
        problems.append(
            edit(f"{verb} {base.blocks[p.base].name('the base')}, at its line {at}", p.base, at)
        )
    for index in by_other.removed:
        if index not in held:
            continue  # removed on both sides: it stays removed
        # placed where it was: at the base entry that now follows it, or the last line
        after = min((p.head for p in by_other.pairs if p.base > index), default=None)
        end = len(other.data.rstrip(b"\n"))
        at = other.blocks[after].line if after is not None else other.line_of(end)
        problems.append(edit(f"removed {base.blocks[index].name('the base')}", index, at))
    if len(problems) > MAX_LISTED:
        more = len(problems) - MAX_LISTED
        problems = [
            *problems[:MAX_LISTED],
            Finding("history-modified", f"... and {more} more change(s)", side, None),
        ]
    return problems


def _minus(
    entries: list[Entry], others: list[Entry], by: Callable[[Entry], Hashable] = key
) -> list[Entry]:
    """``entries`` but one for each of ``others`` alike ``by``."""
    left = Counter(by(entry) for entry in others)
    out = []
    for entry in entries:
        if left[by(entry)] > 0:
            left[by(entry)] -= 1
        else:
            out.append(entry)
    return out


def carry(
    base: bytes, protected: bytes, other: bytes, slug: str | Callable[[], str | None] | None = None
) -> tuple[bytes, bytes, tuple[int, ...]] | None:
    """The other side's pr-link corrections of old entries carried onto the protected side:
    ``(corrected base, corrected protected side, lines corrected in it)`` when they are its
    only history change, each to a canonical link into ``slug``, in an entry each side holds
    exactly once, byte for byte; else ``None``."""
    found = pr_link_corrections(base, other)
    if found is None:
        return None
    length, corrected = found
    lines = other.split(b"\n")
    repository = slug() if callable(slug) else slug
    blocks = Ledger(base).blocks
    edits: list[tuple[int, int, bytes]] = []  # (start, end, new line) in the protected side
    for number, _ in corrected:
        block = next((b for b in reversed(blocks) if b.line <= number), None)
        at = _only_block_at(protected, block.text) if block is not None else None
        if block is None or at is None or _only_block_at(base, block.text) is None:
            return None  # not exactly once on both sides: which copy is meant is a guess
        index, entry_lines = number - block.line, block.text.split(b"\n")
        entry_lines[index] = new_line = lines[number - 1]
        value = parse(b"\n".join(entry_lines).rstrip(b"\n"), 1)
        link = value.get("pr-link") if isinstance(value, dict) else None
        if not isinstance(link, str) or pull_link_problem(link, repository) is not None:
            return None  # not a canonical link, by the gate's rule
        start = at + sum(len(line) + 1 for line in entry_lines[:index])
        end = protected.find(b"\n", start)
        edits.append((start, len(protected) if end < 0 else end, new_line))
    result = protected
    for start, end, new_line in sorted(edits, reverse=True):
        result = result[:start] + new_line + result[end:]
    protected_lines = tuple(protected.count(b"\n", 0, start) + 1 for start, _, _ in edits)
    return other[:length], result, protected_lines


def _only_block_at(data: bytes, text: bytes) -> int | None:
    """Where ``text`` starts a line of ``data``, when it does exactly once."""
    hits = [
        m.start()
        for m in re.finditer(re.escape(text), data)
        if m.start() == 0 or data[m.start() - 1 : m.start()] == b"\n"
    ]
    return hits[0] if len(hits) == 1 else None
