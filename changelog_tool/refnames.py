"""The remote and branch a git ref names: the one split of a ref."""

from __future__ import annotations

from collections.abc import Callable, Collection

USUAL_REMOTES = ("origin", "upstream")
"""Remote names taken as remotes without asking the clone."""


def remote_and_branch(
    ref: str, remotes: Callable[[], Collection[str]] = tuple
) -> tuple[str | None, str]:
    """``(remote, branch)``: ``refs/heads/B`` is local; ``refs/remotes/R/B`` and ``R/B`` are
    ``R``'s when ``R`` is a remote (``remotes()`` is asked only when needed); else a local
    branch name."""
    if ref.startswith("refs/heads/"):
        return None, ref.removeprefix("refs/heads/")
    if ref.startswith("refs/remotes/"):
        remote, _, branch = ref.removeprefix("refs/remotes/").partition("/")
        return (remote, branch) if branch else (None, ref)
    first, slash, rest = ref.partition("/")
    if slash and rest and (first in USUAL_REMOTES or first in remotes()):
        return first, rest
    return None, ref


def branch_name(ref: str, remotes: Callable[[], Collection[str]] = tuple) -> str:
    """The branch a protected ref names (``origin/release/2.x``: ``release/2.x``)."""
    return remote_and_branch(ref, remotes)[1]
