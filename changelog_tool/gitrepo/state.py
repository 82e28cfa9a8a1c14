"""What the git directory says of the work tree, from git's own state files: the branch HEAD is
on, the operation stopped (rebase, am, merge, cherry-pick, revert) and what it still has to
replay (the todo, the sequencer, rebase-apply's patches)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem
from changelog_tool.gitrepo.process import git, git_dir


def operation_in_progress(git_directory: Path) -> str | None:
    """``rebase``, ``am``, ``merge``, ``cherry-pick`` or ``revert``, from git's state files."""
    if (git_directory / "rebase-apply" / "applying").is_file():
        return "am"
    if (git_directory / "rebase-merge").is_dir() or (git_directory / "rebase-apply").is_dir():
        # ``rebase -r`` recreating a merge (``merge``, the last of ``done``) is a merge
        try:
            done = (git_directory / "rebase-merge" / "done").read_bytes()[-65536:]
        except OSError:
            done = b""
        last = done.rstrip().rsplit(b"\n", 1)[-1].split()[:1]
        return "merge" if last in ([b"merge"], [b"m"]) else "rebase"
    heads = {"MERGE_HEAD": "merge", "CHERRY_PICK_HEAD": "cherry-pick", "REVERT_HEAD": "revert"}
    for name, operation in heads.items():
        if (git_directory / name).is_file():
            return operation
    for line in _head(git_directory / "sequencer" / "todo").split(b"\n"):
        words = line.split()  # the sequencer's first command: ``revert`` or ``pick``
        if words and not words[0].startswith(b"#"):
            return {b"revert": "revert", b"pick": "cherry-pick"}.get(words[0])
    return None


def replay_start(git_directory: Path) -> tuple[str, str] | bool:
    """The commit a replay in progress builds on and the state file that says so; ``True``
    when a replay runs and none can be read, ``False`` when none runs."""
    apply = git_directory / "rebase-apply"
    for name in ("rebase-merge/onto", "rebase-apply/onto"):
        if sha := _first_word(git_directory / name):
            return sha, name
    if (apply / "rebasing").is_file():
        if first := _first_word(apply / "rewritten", 1):
            return f"{first}^", "rebase-apply/rewritten (the parent of the first commit written)"
        if not (apply / "rewritten").exists():
            return "HEAD", "rebase-apply (no commit written yet: HEAD is where it began)"
    if (apply / "applying").is_file() and (sha := _first_word(git_directory / "ORIG_HEAD")):
        return sha, "ORIG_HEAD (where git am began)"
    if sha := _first_word(git_directory / "sequencer" / "head"):
        return sha, "sequencer/head"
    return (git_directory / "rebase-merge").is_dir() or apply.is_dir()


def _head(path: Path, size: int = 4096) -> bytes:
    """The first ``size`` bytes of a state file; none when it cannot be read."""
    try:
        with path.open("rb") as file:
            return file.read(size)
    except OSError:
        return b""


def _first_word(path: Path, index: int = 0) -> str | None:
    """The ``index``-th word of a state file's first line if it is a commit id."""
    words = _head(path).split(b"\n", 1)[0].split()
    word = words[index] if len(words) > index else b""
    return word.decode("ascii") if word and all(c in b"0123456789abcdef" for c in word) else None


def unmerged(path: Path, name: str) -> str | None:
    """What ``add`` and ``verify`` say of ``path`` (shown as ``name``) when it has conflict
    stages, naming the operation in progress (``a merge`` if unnamed)."""
    folder = path.parent
    if not folder.is_dir():
        return None
    try:
        done = git(folder, "ls-files", "-u", "-z", "--", f":(literal){path.name}")
    except EnvironmentProblem:
        return None
    if done.returncode != 0 or not done.stdout:
        return None
    operation = GitDirectory(folder).operation() or "a merge"
    return f"{name} is unmerged ({operation} in progress): run `changelog resolve`"


def current_branch(git_directory: Path) -> str | None:
    """The branch HEAD is on, read from ``HEAD`` (git is asked for a reftable)."""
    head = _head(git_directory / "HEAD", 1024)
    prefix = b"ref: refs/heads/"
    if not head.startswith(prefix):
        return None
    try:
        name = head[len(prefix) :].strip().decode("utf-8") or None
    except UnicodeDecodeError:
        return None
    if name != ".invalid":  # a reftable repository's HEAD file names no branch
        return name
    try:
        asked = git(
            git_directory, "--git-dir", str(git_directory), "symbolic-ref", "--short", "-q", "HEAD"
        )
    except EnvironmentProblem:
        return None
    out = asked.stdout.decode("utf-8", "replace").strip()
    return (out or None) if asked.returncode == 0 else None


@dataclass
class GitDirectory:
    """The git directory of the work tree at ``root``, found once, and what it says of HEAD."""

    root: Path

    @functools.cached_property
    def folder(self) -> Path | None:
        return git_dir(self.root)

    def operation(self) -> str | None:
        return operation_in_progress(self.folder) if self.folder else None

    def branch(self) -> str | None:
        return current_branch(self.folder) if self.folder else None


@dataclass(frozen=True)
class HeadState:
    """What is checked out: commit, branch (``None``: detached), the operation stopped, and the
    protected refs' commits (read only when detached)."""

    sha: str | None
    branch: str | None
    operation: str | None
    protected_commits: dict[str, str]


def head_state(root: Path, protected_refs: Iterable[str]) -> HeadState | None:
    """The work tree's :class:`HeadState`, ``None`` outside a repository."""
    directory = GitDirectory(root)
    if directory.folder is None:
        return None
    found = git(root, "rev-parse", "--verify", "-q", "HEAD")
    sha = found.stdout.decode("utf-8", "replace").strip() or None
    branch = directory.branch()
    commits: dict[str, str] = {}
    if branch is None:
        for ref in protected_refs:
            out = git(root, "rev-parse", "--verify", "-q", f"{ref}^{{commit}}")
            if out.returncode == 0:
                commits[ref] = out.stdout.decode().strip()
    return HeadState(sha, branch, directory.operation(), commits)


_REPLAYING = frozenset(
    b"pick p reword r edit e fixup f squash s merge m revert cherry-pick".split()
)
_SHA = re.compile(rb"[0-9a-f]{7,64}")


@dataclass(frozen=True)
class Pending:
    """An operation git has stopped in and the commits still to replay (``None`` for a merge)."""

    operation: str
    remaining: tuple[str, ...] | None

    def touching(self, root: Path, path: str) -> list[str]:
        """The remaining commits that change ``path`` (one ``git diff-tree --stdin``)."""
        if not self.remaining:
            return []
        shas = "".join(f"{sha}\n" for sha in self.remaining).encode("ascii")
        args = ["diff-tree", "--stdin", "-r", "--name-only", "--", f":(top,literal){path}"]
        done = git(root, *args, stdin=shas)
        changed = set(done.stdout.decode("ascii", "replace").split())
        return [sha for sha in self.remaining if sha in changed] if done.returncode == 0 else []

    def continue_command(self) -> str:
        return "git commit" if self.operation == "merge" else f"git {self.operation} --continue"


def pending(git_directory: Path) -> Pending | None:
    """The operation stopped (or running) in ``git_directory``; ``None`` when none."""
    operation = operation_in_progress(git_directory)
    if operation is None:
        return None
    if operation == "merge" and (git_directory / "MERGE_HEAD").is_file():
        return Pending(operation, None)
    todo = git_directory / "rebase-merge" / "git-rebase-todo"
    if not todo.is_file():
        todo = git_directory / "sequencer" / "todo"
    if todo.is_file():
        return Pending(operation, tuple(_todo_commits(todo.read_bytes())))
    return Pending(operation, tuple(_patches(git_directory / "rebase-apply")))


def _todo_commits(todo: bytes) -> Iterator[str]:
    """The commits of a todo list's replaying commands (``merge -C <sha>`` too)."""
    for line in todo.split(b"\n"):
        words = line.split()
        if not words or words[0] not in _REPLAYING:
            continue
        rest = words[1:]
        if rest[:1] in ([b"-C"], [b"-c"]):
            rest = rest[1:]
        if rest and _SHA.fullmatch(rest[0]):
            yield rest[0].decode("ascii")


def _patches(folder: Path) -> Iterator[str]:
    """``rebase --apply`` and ``am``: the commits of the patches from ``next`` on."""
    try:
        first = int((folder / "next").read_text().strip())
        last = int((folder / "last").read_text().strip())
    except (OSError, ValueError):
        return
    for number in range(first + 1, last + 1):  # ``next`` is the one stopped on
        head = _head(folder / f"{number:04d}", 200).split()
        if len(head) > 1 and head[0] == b"From" and _SHA.fullmatch(head[1]):
            yield head[1].decode("ascii")
