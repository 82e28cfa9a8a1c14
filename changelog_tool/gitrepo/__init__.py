"""Git at the edge: every git call of the tool goes through this module.

Two mechanisms, each for what it does best. Objects (refs, trees, blobs) are read
through ``git cat-file --batch`` (:mod:`objects`, the one batch reader, persistent
for a :class:`Repo` that reads dozens of blobs, and for the merge driver's one
question of the protected ref); GitPython reads what it does well beyond that
(the index's conflict stages, ref names for "did you mean"). Short one-off
questions (config, the state of the git directory, ``merge-file``, building the
demo repository) are one plain ``git`` subprocess (:func:`git`). Everything else in the tool works on bytes and plain values;
git failures become :class:`EnvironmentProblem` messages that say what to run.
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
