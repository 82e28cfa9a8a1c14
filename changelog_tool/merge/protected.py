"""Which side of a merge is the protected branch (its bytes lead): the operation first, the
protected ref only as a hint. See docs/design.md, "Which side leads"."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass

from changelog_tool.ledger.document import Ledger
from changelog_tool.merge.replay import Mainline, Upstream, entry_counts
from changelog_tool.merge.threeway import Side
from changelog_tool.refnames import branch_name
from changelog_tool.settings import DEFAULT_PLACEHOLDERS

OURS_OPERATIONS = ("rebase", "cherry-pick", "revert", "am")
MERGES = ("merge", "pull")
DEFAULT_BRANCHES = frozenset({"main"})
NOT_NAMED = "a cherry-pick, a revert or a stash: git names none of them to a merge driver"


@dataclass(frozen=True)
class Decision:
    """``certain``: the operation said so."""

    side: Side
    reason: str
    certain: bool = True


def history_end(data: bytes) -> int | None:
    last = Ledger(data).last_block()
    return last.end if last is not None else None


def begins_with_history(data: bytes, of: bytes) -> bool | None:
    """The one rule for "this side keeps that file's history": ``data`` begins with ``of``'s
    bytes up to the end of its last entry (``None`` when ``of`` holds no entry)."""
    end = history_end(of)
    return None if end is None else data[:end] == of[:end]


def by_upstream(ours: bytes, theirs: bytes, upstream: bytes, name: str) -> Decision | None:
    """The side that alone begins with the protected ref's file, else the side holding more
    of its entries; ``None`` on a tie."""
    ours_begins, theirs_begins = (begins_with_history(side, upstream) for side in (ours, theirs))
    if ours_begins and theirs_begins:
        return None
    if ours_begins is not None and ours_begins != theirs_begins:
        side: Side = "ours" if ours_begins else "theirs"
        return Decision(
            side,
            f"{side} begins with {name}'s file (every entry: its first "
            f"{history_end(upstream) or 0:,} bytes)",
        )
    entries = entry_counts(upstream)
    total = sum(entries.values())
    in_ours, in_theirs = (sum((entries & entry_counts(side)).values()) for side in (ours, theirs))
    if in_ours == in_theirs:
        return None
    side = "ours" if in_ours > in_theirs else "theirs"
    return Decision(
        side,
        f"{side} holds more of {name}'s entries "
        f"({max(in_ours, in_theirs)} of {total}, the other side {min(in_ours, in_theirs)})",
    )


Remotes = Callable[[], Collection[str]]  # the clone's remote names, asked for only if needed


def branch_names(refs: Collection[str], remotes: Remotes = tuple) -> frozenset[str]:
    """``main`` for ``origin/main`` and ``main``."""
    return frozenset(branch_name(ref, remotes) for ref in refs)


def side_from_action(
    action: str | None, branches: Collection[str] = DEFAULT_BRANCHES, remotes: Remotes = tuple
) -> Side | None:
    """What ``GIT_REFLOG_ACTION`` (or an operation in progress) implies."""
    words = (action or "").split()
    if not words:
        return None
    verb, names = words[0], [w for w in words[1:] if not w.startswith("-")]
    rebasing = verb == "pull" and any(
        w in ("--rebase", "-r") or (w.startswith("--rebase=") and w != "--rebase=false")
        for w in words
    )
    if verb in OURS_OPERATIONS or verb.startswith("rebase") or rebasing:
        return "ours"
    if verb in MERGES and (
        len(words) == 1 or any(branch_name(name, remotes) in branches for name in names)
    ):
        return "theirs"  # no name: the current branch's upstream is merged in
    return None


@dataclass(frozen=True)
class Context:
    """What a merge reads besides the three sides: ``decision``, else what :func:`decide`
    reads (``upstream`` its hint); ``mainline`` defaults to ``upstream``."""

    upstream: Upstream | Callable[[], Upstream | None] | None = None
    action: str | None = None
    operation: Callable[[], str | None] | None = None
    decision: Decision | None = None
    branches: Collection[str] = DEFAULT_BRANCHES
    placeholders: Sequence[str] = DEFAULT_PLACEHOLDERS
    current_branch: Callable[[], str | None] | None = None
    mainline: Mainline | Callable[[], Mainline] | None = None
    slug: str | Callable[[], str | None] | None = None
    remotes: Remotes = tuple


def decide(
    context: Context = Context(), hint: Callable[[], Decision | None] | None = None
) -> Decision:
    """The action decides, then the ``operation`` in progress (asked only then, or for a
    ``pull``, which may rebase), then in a merge ``current_branch`` (on a protected branch,
    ours); only then ``hint``, the protected ref's side (:func:`by_upstream`)."""
    action, branches, remotes = context.action, context.branches, context.remotes
    verb = (action or "").split()[:1]
    by_action = side_from_action(action, branches, remotes)
    if verb != ["pull"] and by_action is not None:
        return Decision(by_action, f"GIT_REFLOG_ACTION is {action!r}")
    merging = verb in (["merge"], ["pull"])
    current = context.operation() if context.operation is not None and verb != ["merge"] else None
    # an operation in progress is read as an action, but a bare ``merge`` names no branch
    alone = (current or "").split() == ["merge"]
    by_operation = None if alone else side_from_action(current, branches, remotes)
    if verb == ["pull"] and by_operation == "ours":
        why = f"GIT_REFLOG_ACTION is {action!r} and a {current} is in progress"
        return Decision("ours", why)
    if verb == ["pull"] and by_action is not None:
        return Decision(by_action, f"GIT_REFLOG_ACTION is {action!r}")
    if verb != ["pull"] and by_operation is not None:
        return Decision(by_operation, f"a {current} is in progress")
    merging = merging or (current or "").startswith("merge")
    if merging and context.current_branch is not None:
        branch = context.current_branch()
        if branch is not None and branch in context.branches:
            why = f"the merge writes {branch}, a protected branch (HEAD is on it)"
            return Decision("ours", why)
    found = hint() if hint is not None else None
    if merging:
        unsure = "a hint only: the merge did not say which side is protected"
        if found is not None:
            return Decision(found.side, f"{found.reason} ({unsure})", certain=False)
        why = "the merge did not say which side is protected: theirs, the branch merged in, first"
        return Decision("theirs", why, certain=False)
    if found is not None and found.side == "theirs":
        unsure = "a hint only: no operation said which side is protected"
        return Decision("theirs", f"{found.reason} ({unsure})", certain=False)
    if found is not None:
        return Decision("ours", f"{found.reason}, and no operation said otherwise")
    return Decision("ours", f"not a merge: ours is HEAD, the branch being written ({NOT_NAMED})")
