"""Git at the edge: every git call of the tool goes through this module.

Objects (refs, trees, blobs) are read through one persistent ``git cat-file
--batch`` (:mod:`objects`); every other question is one plain ``git`` process
(:func:`git`). Git failures become :class:`EnvironmentProblem` messages that say
what to run. Why not GitPython: docs/design.md.
"""

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
from changelog_tool.gitrepo.repository import WORKTREE, Repo

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
