"""Which side of a merge is the protected branch (its bytes lead the result).

In ``git rebase main`` "ours" is main; in ``git merge main`` from a branch
"theirs" is main. Decided, in this order, from:

1. the protected ref's own changelog (``origin/main``, else ``main``): the side
   that already contains more of its entries is protected;
2. ``GIT_REFLOG_ACTION`` (``rebase``, ``pull --rebase``, ``cherry-pick``,
   ``revert`` -> ours; ``merge``, ``pull`` -> theirs);
3. the operation in progress in the git directory (a rebase, a cherry-pick or
   a revert -> ours; a merge -> theirs);
4. otherwise ours.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import content
from changelog_tool.merge.side_changes import count_entries, history_end
from changelog_tool.merge.threeway import Side

OURS_OPERATIONS = ("rebase", "cherry-pick", "revert")


@dataclass(frozen=True)
class Decision:
    side: Side
    reason: str


def _entries(data: bytes) -> Counter[bytes]:
    ledger = Ledger(data)
    return Counter(content(ledger, b) for b in ledger.blocks)


def contained(upstream: Counter[bytes], side: bytes) -> int:
    """How many of the upstream's entries ``side`` holds (as a multiset of bytes)."""
    return sum((upstream & _entries(side)).values())


def _by_upstream(ours: bytes, theirs: bytes, upstream: bytes, name: str) -> Decision | None:
    """The side holding more of the protected ref's entries; ``None`` on a tie.

    Usually one side begins with the protected ref's bytes and the other does
    not, which settles it without splitting the files into entries."""
    end = history_end(upstream)
    if end is not None:
        starts = {
            side: data[:end] == upstream[:end]
            for side, data in (("ours", ours), ("theirs", theirs))
        }
        if starts["ours"] != starts["theirs"]:
            side: Side = "ours" if starts["ours"] else "theirs"
            return Decision(
                side,
                f"{side} begins with {name}'s file (all {count_entries(upstream)} of its entries)",
            )
        if starts["ours"]:
            return None
    entries = _entries(upstream)
    total = sum(entries.values())
    in_ours, in_theirs = contained(entries, ours), contained(entries, theirs)
    if in_ours == in_theirs:
        return None
    side = "ours" if in_ours > in_theirs else "theirs"
    return Decision(
        side,
        f"{side} holds more of {name}'s entries "
        f"({max(in_ours, in_theirs)} of {total}, the other side {min(in_ours, in_theirs)})",
    )


def side_from_action(action: str | None) -> Side | None:
    """The protected side implied by ``GIT_REFLOG_ACTION``."""
    if not action:
        return None
    words = action.split()
    if words[0] in OURS_OPERATIONS or "--rebase" in words or words[0].startswith("rebase"):
        return "ours"
    if words[0] in ("merge", "pull"):
        return "theirs"
    return None


def side_from_operation(operation: str | None) -> Side | None:
    if operation in OURS_OPERATIONS:
        return "ours"
    if operation == "merge":
        return "theirs"
    return None


def decide(
    ours: bytes,
    theirs: bytes,
    *,
    upstream: bytes | None = None,
    upstream_name: str | None = None,
    action: str | None = None,
    operation: Callable[[], str | None] | None = None,
) -> Decision:
    """``operation`` is asked only when nothing before it decided (it reads the
    git directory)."""
    if upstream is not None:
        by_upstream = _by_upstream(ours, theirs, upstream, upstream_name or "the protected ref")
        if by_upstream is not None:
            return by_upstream
    by_action = side_from_action(action)
    if by_action is not None:
        return Decision(by_action, f"GIT_REFLOG_ACTION is {action!r}")
    current = operation() if operation is not None else None
    by_operation = side_from_operation(current)
    if by_operation is not None:
        return Decision(by_operation, f"a {current} is in progress")
    return Decision("ours", "no protected ref or operation told them apart: ours first")
