"""What the merge driver, ``resolve`` and ``sync`` share: pick the protected side, merge
(nothing dropped or rewritten on a guess), and say what happened."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace

from changelog_tool.findings import WARNING, Finding, format_text
from changelog_tool.ledger.document import Ledger
from changelog_tool.merge.protected import (
    Context,
    Decision,
    begins_with_history,
    by_upstream,
    decide,
    history_end,
)
from changelog_tool.merge.replay import Mainline, Upstream, possessive
from changelog_tool.merge.threeway import Merged, Note, Refused, merge, other_side


@dataclass(frozen=True)
class Outcome:
    path: str
    decision: Decision
    result: Merged | Refused
    upstream: Upstream | None

    @property
    def ok(self) -> bool:
        return isinstance(self.result, Merged)

    def findings(self) -> list[Finding]:
        """Refusal reasons; concurrent duplicates as ``duplicate-entry`` warnings."""
        if isinstance(self.result, Refused):
            return [replace(p, path=self.path) for p in self.result.problems]
        side = self.decision.side
        return [
            Finding(
                "duplicate-entry",
                f"the entry at line {n.line} of {n.where} ({n.label}) was also appended by "
                f"{side} since the base (line {n.other_line}): kept once, as {side} has it",
                self.path,
                n.other_line,
                WARNING,
            )
            for n in self.result.report.duplicates
        ]

    def summary(self) -> list[str]:
        side = self.decision.side
        other = other_side(side)
        lines = [f"protected side is {side}: {self.decision.reason}"]
        if isinstance(self.result, Refused):
            return [f"{self.path}: {lines[0]}"]
        report = self.result.report
        kept = f"kept {side} byte for byte"
        if report.corrected:
            s = "" if len(report.corrected) == 1 else "s"
            kept = (
                f"kept {side} but for {possessive(other)} pr-link correction{s} "
                f"(line {_lines(report.corrected)})"
            )
        if report.replayed:
            kept += (
                f" up to its last {_entries(report.replayed)}, this branch's own being replayed"
                f" ({report.replayed_why}; taken from {other}, with its edits)"
            )
        if report.kept:
            appended = f"{_entries(len(report.kept))} of {other} (line {_lines(report.kept)})"
            lines.append(f"merged: {kept}, then appended {appended}")
        else:
            lines.append(f"merged: {kept}; {other} has no new entry to add")
        if report.reappended:
            lines.append(
                f"re-appended {_entries(len(report.reappended))} of this branch "
                f"that stood before main's newer entries (now at line {_lines(report.reappended)})"
            )
        for n in report.rewritten:
            lines.append(
                f"{other} changed or dropped its own entry {n.label} (line {n.line} of {n.where}), "
                "being replayed"
            )
        for n in report.corrected:
            lines.append(
                f"carried {possessive(other)} pr-link correction onto line {n.line} "
                f"(the entry was unchanged on {side})"
            )
        for n in report.removed:
            lines.append(
                f"{side} removed {n.label} (line {n.line} of the base) since the base; it stays removed"
            )
        return [f"{self.path}: {line}" for line in lines]

    def to_json(self) -> dict[str, object]:
        document: dict[str, object] = {
            "ok": self.ok,
            "path": self.path,
            "protected": self.decision.side,
            "protected_reason": self.decision.reason,
            "protected_certain": self.decision.certain,
            "protected_ref": self.upstream.ref if self.upstream else None,
            "findings": [f.to_json() for f in self.findings()],
        }
        if isinstance(self.result, Merged):
            document.update(self.result.report.to_json())
        return document


def _entries(count: int) -> str:
    return f"{count} entr{'y' if count == 1 else 'ies'}"


def _lines(notes: tuple[Note, ...]) -> str:
    return ", ".join(str(n.line) for n in notes)


def merge_sides(path: str, base: bytes, ours: bytes, theirs: bytes, context: Context) -> Outcome:
    upstream, decision, mainline = context.upstream, context.decision, context.mainline
    if decision is None:

        def hint() -> Decision | None:
            found = upstream() if callable(upstream) else upstream
            return by_upstream(ours, theirs, found.data, found.ref) if found else None

        decision = decide(context, hint)
    if not isinstance(upstream, Upstream):
        upstream = None  # one asked for only as a hint is not reported
    elif mainline is None:
        mainline = Mainline(upstream=upstream)
    result = merge(base, ours, theirs, decision.side, context.placeholders, mainline, context.slug)
    if isinstance(result, Merged) and not decision.certain:
        other = theirs if decision.side == "ours" else ours
        result = _nothing_dropped_on_a_guess(result, decision, other)
    return Outcome(path, decision, result, upstream)


def _nothing_dropped_on_a_guess(
    result: Merged, decision: Decision, other_bytes: bytes
) -> Merged | Refused:
    """On a guessed side, removals, replayed entries, or moving the other side's entries
    (or replacing its copy of a duplicate) refuse the merge."""
    report = result.report
    moved = _first_moved(result.data, other_bytes)
    if not report.removed and not report.replayed and moved is None:
        return result
    side = decision.side
    other = other_side(side)
    guess = (
        f"that {side} is the protected side is only a guess ({decision.reason}), and "
        "nothing is dropped, rewritten or moved on a guess: run `changelog resolve --protected "
        "ours|theirs`"
    )

    def refusal(what: str, where: str, at: int | None) -> Finding:
        return Finding("history-modified", f"{what}; {guess}", where, at)

    found = [
        refusal(f"{side} removed {note.label} (line {note.line} of the base)", "base", note.line)
        for note in report.removed
    ]
    if report.replayed:
        what = (
            f"{possessive(side)} last {report.replayed} entries would be taken from the other "
            "side as this branch's own, being replayed"
        )
        found.append(refusal(what, side, None))
    if moved is not None:
        line, name = moved
        if any(note.line == line for note in report.duplicates):
            how = f"{possessive(side)} copy of it, equal but for pr-link, would replace it"
        else:
            how = f"{possessive(side)} new entries would come before it"
        what = f"{other} committed {name} at its line {line}, and the result would not keep it"
        what += f" there ({how})"
        found.append(refusal(what, other, line))
    return Refused(tuple(found))


def _first_moved(result: bytes, other: bytes) -> tuple[int, str] | None:
    """The line and name of ``other``'s first entry that ``result`` does not keep in place."""
    if begins_with_history(result, other) is not False:
        return None
    low = first_difference(result, other[: history_end(other) or 0])
    blocks = [b for b in Ledger(other).blocks if b.start <= low]
    if not blocks:
        return other.count(b"\n", 0, low) + 1, "its preamble"
    return blocks[-1].line, blocks[-1].name()


def first_difference(a: bytes, b: bytes) -> int:
    """The offset of the first byte where ``a`` and ``b`` differ (or the shorter one's length),
    found by halves: each step one ``memcmp``, not a loop over bytes."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while high - low > 1:  # a[:low] == b[:low], a[:high] != b[:high]
        middle = (low + high) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle
    return low


def emit(outcome: Outcome, fmt: str, extra: dict[str, object], next_step: str) -> None:
    if fmt == "json":
        document = {**outcome.to_json(), **extra, "next": next_step}
        print(json.dumps(document, indent=2, ensure_ascii=False))
        return
    text = format_text(outcome.findings())
    if text:
        print(text)
    for line in [*outcome.summary(), next_step]:
        print(line)
