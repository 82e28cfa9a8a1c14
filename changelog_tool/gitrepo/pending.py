"""What a stopped rebase, merge or cherry-pick still has to do, from git's state
files: the commits left to replay, and which of them change a file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.gitrepo.process import git, operation_in_progress

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
        done = git(
            root,
            "diff-tree",
            "--stdin",
            "-r",
            "--name-only",
            "--",
            f":(top,literal){path}",
            stdin=shas,
        )
        changed = (
            set(done.stdout.decode("ascii", "replace").split()) if done.returncode == 0 else set()
        )
        return [sha for sha in self.remaining if sha in changed]

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


def _todo_commits(todo: bytes) -> list[str]:
    """The commits of a todo list's replaying commands (``merge -C <sha>`` too)."""
    out = []
    for line in todo.split(b"\n"):
        words = line.split()
        if not words or words[0] not in _REPLAYING:
            continue
        rest = words[1:]
        if rest[:1] in ([b"-C"], [b"-c"]):
            rest = rest[1:]
        if rest and _SHA.fullmatch(rest[0]):
            out.append(rest[0].decode("ascii"))
    return out


def _patches(folder: Path) -> list[str]:
    """``rebase --apply`` and ``am``: the commits of the patches from ``next`` on."""
    try:
        first = int((folder / "next").read_text().strip())
        last = int((folder / "last").read_text().strip())
    except (OSError, ValueError):
        return []
    out = []
    for number in range(first + 1, last + 1):  # ``next`` is the one stopped on
        try:
            head = (folder / f"{number:04d}").read_bytes()[:200].split()
        except OSError:
            continue
        if len(head) > 1 and head[0] == b"From" and _SHA.fullmatch(head[1]):
            out.append(head[1].decode("ascii"))
    return out
