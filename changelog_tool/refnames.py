"""The remote and the branch a git ref names: the one split of a ref, for the
protected branch's name (the gate, the merge, ``init``) and for the fetch that makes
a missing remote ref (the refusals of :mod:`changelog_tool.gitrepo.refhints`)."""

from __future__ import annotations

from collections.abc import Callable, Collection

USUAL_REMOTES = ("origin", "upstream")
"""Remote names taken as remotes without asking the clone."""


def remote_and_branch(
    ref: str, remotes: Callable[[], Collection[str]] = tuple
) -> tuple[str | None, str]:
    """``(remote, branch)``: ``refs/heads/B`` is the local ``B``; ``refs/remotes/R/B``
    and ``R/B`` are ``R``'s ``B`` when ``R`` is a remote (``origin``, ``upstream``, or
    one of ``remotes()``, the clone's remotes, asked only for another first part:
    :func:`~changelog_tool.gitrepo.process.remote_names`); any other ref is a local
    branch's name, slashes and all (``release/2.x``)."""
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
    """The branch a protected ref names (``origin/release/2.x``: ``release/2.x``), by
    :func:`remote_and_branch`: the gate's "is this the protected branch?", the merge's
    protected side, ``init``'s workflow."""
    return remote_and_branch(ref, remotes)[1]
