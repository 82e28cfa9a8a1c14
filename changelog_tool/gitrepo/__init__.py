"""Every git call of the tool: objects through one ``git cat-file --batch``, other questions as
plain ``git``; failures become :class:`EnvironmentProblem` saying what to run. See
docs/design.md, "Git is run, not re-implemented"."""

from changelog_tool.gitrepo.objects import protected_blob
from changelog_tool.gitrepo.process import git, git_dir, remote_url_reader, run_git, try_git
from changelog_tool.gitrepo.repository import WORKTREE, Repo
from changelog_tool.gitrepo.state import GitDirectory, HeadState, head_state

__all__ = [
    "WORKTREE",
    "GitDirectory",
    "HeadState",
    "Repo",
    "git",
    "git_dir",
    "head_state",
    "protected_blob",
    "remote_url_reader",
    "run_git",
    "try_git",
]
