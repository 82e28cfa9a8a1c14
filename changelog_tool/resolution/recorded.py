"""A merge of the changelog's three sides in a repository, as git records the
operation: the merge driver and ``resolve`` alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from changelog_tool.gate.prlinks import repository_slug
from changelog_tool.gitrepo.objects import protected_blob, read_first_blob
from changelog_tool.gitrepo.process import GitDirectory, remote_names, replay_start
from changelog_tool.merge.outcome import Context, Upstream
from changelog_tool.merge.protected import Decision, branch_names
from changelog_tool.merge.replay import Mainline
from changelog_tool.settings import Settings


def recorded_context(
    path: str,
    base: bytes,
    settings: Settings,
    directory: GitDirectory,
    *,
    decision: Decision | None = None,
    operation: Callable[[], str | None] | None = None,
    upstream: Upstream | None = None,
) -> Context:
    """The merge context the repository gives: the protected side from ``decision``,
    else from the operation in progress (``operation``, else the git directory's) and
    the branch HEAD is on, ``upstream`` only a hint; main's bytes from git's record
    (:func:`recorded_mainline`); the settings' protected branches and placeholders;
    pr-links judged against the base's repository."""
    remotes = remote_names(directory.root)
    return Context(
        upstream=upstream,
        operation=operation or directory.operation,
        decision=decision,
        branches=branch_names(settings.protected_ref, remotes),
        remotes=remotes,
        placeholders=settings.placeholders,
        current_branch=directory.branch,
        mainline=lambda: recorded_mainline(
            directory.root, directory.folder(), path, settings.protected_ref
        ),
        slug=lambda: repository_slug(settings, base),
    )


def recorded_mainline(root: Path, folder: Path | None, path: str, refs: Sequence[str]) -> Mainline:
    """What git records of main's bytes on the protected side: the file of the
    commit a rebase (either backend), ``git am`` or a series of picks builds on
    (:func:`~changelog_tool.gitrepo.process.replay_start`; one git process); that no
    replay runs (a merge, one pick: the protected side is main's, all of it); only
    when a replay runs whose record cannot be read, the protected ref's file
    (``refs``) as a hint, and the guess after it."""
    start = replay_start(folder) if folder is not None else None
    if start is None:
        return Mainline(replaying=False)
    if isinstance(start, tuple):
        rev, name = start
        found = read_first_blob(root, [f"{rev}:{path}"])
        if found is not None:
            short = rev if len(rev) < 40 else rev[:12] + rev[40:]
            return Mainline(found[1], f"{short}'s file (git's {name})")
    ref = protected_blob(root, refs, path)
    return Mainline(ref=ref[1], ref_name=ref[0]) if ref is not None else Mainline()
