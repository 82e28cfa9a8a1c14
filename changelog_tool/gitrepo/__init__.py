"""Git at the edge: every git call of the tool goes through this module.

Two mechanisms, each for what it does best. Objects (refs, trees, blobs) are read
through ``git cat-file --batch`` (:mod:`objects`, the one batch reader, persistent
for a :class:`Repo` that reads dozens of blobs, and for the merge driver's one
question of the protected ref); GitPython is
imported only for what it does well beyond that (the index's conflict stages,
ref names for "did you mean"). Short one-off questions (config, the state of
the git directory, ``merge-file``, building the demo repository) are one plain
``git`` subprocess (:func:`git`), so the merge driver and ``add`` never pay for
GitPython's import. Everything else in the tool works on bytes and plain values;
git failures become :class:`EnvironmentProblem` messages that say what to run.
"""

from typing import TYPE_CHECKING

from changelog_tool.gitrepo.objects import (
    protected_blob,
    read_first_blob,
)
from changelog_tool.gitrepo.process import (
    GitDirectory,
    HeadState,
    git,
    git_dir,
    head_state,
    merge_file,
    operation_in_progress,
    remote_url_reader,
    run_git,
    try_git,
)

if TYPE_CHECKING:
    from changelog_tool.gitrepo.repository import WORKTREE, Repo


def __getattr__(name: str) -> object:
    """``Repo`` and ``WORKTREE`` load :mod:`.repository` on first use: the merge
    driver's questions of git (:mod:`.process`) never need it (docs/performance.md)."""
    if name in ("Repo", "WORKTREE"):
        from changelog_tool.gitrepo import repository

        return getattr(repository, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "WORKTREE",
    "GitDirectory",
    "HeadState",
    "Repo",
    "git",
    "git_dir",
    "head_state",
    "merge_file",
    "operation_in_progress",
    "protected_blob",
    "read_first_blob",
    "remote_url_reader",
    "run_git",
    "try_git",
]
