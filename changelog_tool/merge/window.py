"""The merge of three files that share their history, done on what follows it.

When the base, ours and theirs begin with the same bytes up to where the base's
last entry begins (the *shared history*, proven by comparing the files, see
:func:`changelog_tool.ledger.streams.share_prefix`), the merge only has to read
what follows it: each file's *window*, from the base's last entry on. Git runs
the driver on every rebase step, and the history is long; the windows hold the
base's last entry and what each side appended since.

Why the windows' merge is the whole files' merge (pure bytes, no git):

- Each side must be the base's history then new entries (:func:`appends_only`,
  checked on the windows: before them the three files are equal). Then both
  sides' new entries lie inside the windows, the protected side keeps all of
  its bytes, and nothing is removed, replayed or carried; a merge that reports
  any of those is not taken from the windows.
- The shared history is the base's, main's own file when the branch was made
  (the CI gate checked it when it landed; the same argument as ``verify
  --base``): it is not parsed again. The proof parses the windows, which begin
  at a ``-`` at column 0 right after a newline: the base's last entry, the
  boundary the appended entries must not disturb, reads back as it does alone,
  and every appended entry reads back as the value it had.
- Lines: every file has the same lines before its window, so every line the
  report names moves down by that count (:meth:`Report.below`).

A refused merge is not taken from the windows either: its messages name entries
and lines of the whole files, so the caller merges the whole files again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from changelog_tool.merge.outcome import Outcome, merge_sides
from changelog_tool.merge.protected import Decision, by_beginning
from changelog_tool.merge.side_changes import after_history, history_end
from changelog_tool.merge.threeway import SIDES, Merged, Side
from changelog_tool.settings import DEFAULT_PLACEHOLDERS

UNKNOWN: Literal["unknown"] = "unknown"


@dataclass(frozen=True)
class Windows:
    """The three files from ``cut`` (where the base's last entry begins) to their end;
    before ``cut`` they are equal and hold ``lines`` newlines."""

    base: bytes
    ours: bytes
    theirs: bytes
    cut: int
    lines: int = 0

    def side(self, side: Side) -> bytes:
        return self.ours if side == "ours" else self.theirs


def appends_only(windows: Windows) -> bool:
    """Each side's window is the base's window (its last entry) then only blank lines
    and new entries."""
    end = history_end(windows.base)
    return end is not None and all(
        after_history(windows.base, windows.side(side), end) is not None for side in SIDES
    )


def merge_after(
    path: str,
    windows: Windows,
    decision: Decision,
    placeholders: Sequence[str] = DEFAULT_PLACEHOLDERS,
) -> Outcome | None:
    """The outcome of merging the whole files, from their windows, its report in
    whole-file lines (its result's bytes are the windows' merge: the protected
    side's window, then what is appended). ``None`` when the whole files must be
    merged instead: a side is more than an append, or the merge is refused, or it
    removes, replays or carries anything."""
    if not appends_only(windows):
        return None
    outcome = merge_sides(
        path,
        windows.base,
        windows.ours,
        windows.theirs,
        upstream=None,
        decision=decision,
        placeholders=placeholders,
    )
    result = outcome.result
    if not isinstance(result, Merged):
        return None
    report = result.report
    if report.removed or report.replayed or report.rewritten or report.corrected:
        return None
    if not result.data.startswith(windows.side(decision.side)):
        return None
    return Outcome(path, decision, Merged(result.data, report.below(windows.lines)), None)


def upstream_hint(
    windows: Windows,
    size: int,
    holds_whole: Mapping[Side, bool],
    name: str,
) -> Decision | Literal["unknown"] | None:
    """:func:`~changelog_tool.merge.protected.by_upstream`'s answer for the protected
    ref's file of ``size`` bytes, when ``holds_whole`` says a side begins with all of
    it (its bytes hash to the ref's blob), so the ref's bytes are that side's:
    which side begins with the ref's history. :data:`UNKNOWN` when no side holds the
    whole file (the caller reads the ref)."""
    holder = next((side for side in SIDES if holds_whole.get(side)), None)
    if holder is None:
        return UNKNOWN
    if size <= windows.cut:
        return None  # the ref's file lies in the shared history: both sides begin with it
    upstream = windows.side(holder)[: size - windows.cut]
    begins = by_beginning(windows.ours, windows.theirs, upstream, name, windows.cut)
    if begins == "neither":  # the ref's window holds no entry: the whole files decide
        return UNKNOWN
    return None if begins == "both" else begins
