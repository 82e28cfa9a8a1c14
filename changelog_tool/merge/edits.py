"""What the other side of a merge did to history, as merge problems.

Used only when the other side is not "the base's bytes, then new entries": the
ledger's describer (:func:`changelog_tool.ledger.edits.history_edits`) names each
changed, removed or inserted historical entry, so a human can fix it.
"""

from __future__ import annotations

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import content, history_edits
from changelog_tool.records import record

MAX_LISTED = 5


def possessive(name: str) -> str:
    """``ours'``, ``theirs'``, ``base's``: the possessive of a side's name."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


@record(frozen=True)
class Problem:
    """Why a merge is refused. ``side`` names the input the ``line`` refers to."""

    code: str
    side: str
    line: int | None
    message: str


def _extends(base: Ledger, other: Ledger) -> bool:
    """``other`` holds the base's entries byte for byte (separators between them
    included), possibly followed by more."""
    n = len(base.blocks)
    if len(other.blocks) < n:
        return False
    if n == 0:
        return other.data[: other.preamble_end].rstrip(b" \n") == base.data.rstrip(b" \n")
    last = base.blocks[-1]
    # the base's last entry must also start where it did: one more blank line
    # before it is a change to a historical separator, not an append
    return (
        other.blocks[n - 1].start == last.start
        and other.data[: last.start] == base.data[: last.start]
        and content(other, other.blocks[n - 1]) == content(base, last)
    )


def history_problems(base: Ledger, other: Ledger, side: str) -> list[Problem]:
    """Each historical entry ``other`` changed, removed or inserted (none when it
    only appended)."""
    if _extends(base, other):
        return []
    edits = history_edits(base, other)
    problems = [
        Problem(
            "history-modified",
            side,
            edit.line,
            f"{side} {edit.what}; only appending is allowed when merging",
        )
        for edit in edits[:MAX_LISTED]
    ]
    if len(edits) > MAX_LISTED:
        problems.append(
            Problem(
                "history-modified", side, None, f"... and {len(edits) - MAX_LISTED} more change(s)"
            )
        )
    return problems
