"""Plain ``git`` commands run as subprocesses, for paths that must start fast (the
merge driver, ``add``, drafts, the demo sandbox) and need no GitPython."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem


def remote_slug(root: Path, remote: str = "origin") -> str | None:
    """``owner/name`` of a GitHub remote, without starting GitPython."""
    try:
        url = subprocess.run(
            ["git", "config", "--get", f"remote.{remote}.url"],
            cwd=root, capture_output=True, text=True, check=False,
        ).stdout.strip()
    except OSError:
        return None
    match = re.search(r"github\.com[:/]([^/]+/[^/]+?)(?:\.git)?/?$", url)
    return match.group(1) if match else None


def git_dir(start: Path) -> Path | None:
    """The absolute git directory of the repository holding ``start`` (no GitPython),
    or ``None`` outside a repository."""
    try:
        result = subprocess.run(["git", "rev-parse", "--absolute-git-dir"], cwd=start,
                                capture_output=True, text=True, check=False)
    except OSError:
        return None
    return Path(result.stdout.strip()) if result.returncode == 0 else None


def run_git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Plain ``git`` in ``root`` (no GitPython), for building repositories such as the
    demo sandbox; a failure becomes :class:`EnvironmentProblem` with git's message."""
    try:
        result = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                                env=env, check=False)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot run git: {exc}; install git") from None
    if result.returncode != 0:
        raise EnvironmentProblem(f"git {' '.join(args)} failed: {result.stderr.strip()}")
    return result.stdout.strip()


def try_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Plain ``git`` in ``root`` whose exit code the caller reads (a merge that
    stops on conflicts exits 1); only a missing git is an error."""
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True,
                              check=False)
    except OSError as exc:
        raise EnvironmentProblem(f"cannot run git: {exc}; install git") from None


def read_first_blob(root: Path, specs: Iterable[str]) -> tuple[str, bytes] | None:
    """The first ``rev:path`` of ``specs`` that exists, with its bytes, read through
    one ``git cat-file --batch`` (no GitPython: the merge driver must start fast)."""
    wanted = list(specs)
    try:
        result = subprocess.run(["git", "cat-file", "--batch"], cwd=root, check=False,
                                input="".join(f"{s}\n" for s in wanted).encode(),
                                capture_output=True)
    except OSError:
        return None
    out, pos = result.stdout, 0
    for spec in wanted:
        end = out.find(b"\n", pos)
        if result.returncode != 0 or end < 0:
            return None
        header = out[pos:end]
        if header.endswith((b" missing", b" ambiguous")):
            pos = end + 1
            continue
        _, kind, size = header.rsplit(b" ", 2)
        pos = end + 1 + int(size) + 1
        if kind == b"blob":
            return spec, out[end + 1 : end + 1 + int(size)]
    return None


def merge_file(root: Path, ours: Path, base: Path, theirs: Path) -> tuple[bytes, int] | None:
    """``git merge-file -p`` of three files: git's own textual merge, with conflict
    markers where it conflicts (in the configured ``merge.conflictStyle``), and
    the number of conflicts; ``None`` when git fails."""
    style = try_git(root, "config", "--get", "merge.conflictStyle").stdout.strip()
    args = ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs"]
    if style in ("diff3", "zdiff3"):
        args.insert(3, f"--{style}")
    try:
        done = subprocess.run([*args, str(ours), str(base), str(theirs)], cwd=root,
                              capture_output=True, check=False)
    except OSError:
        return None
    return (done.stdout, done.returncode) if 0 <= done.returncode < 128 else None


def operation_in_progress(git_directory: Path) -> str | None:
    """``rebase``, ``merge``, ``cherry-pick`` or ``revert`` when one has stopped (or is
    running) in this git directory, read from its state files."""
    if (git_directory / "rebase-merge").is_dir() or (git_directory / "rebase-apply").is_dir():
        return "rebase"
    for name, operation in (("MERGE_HEAD", "merge"), ("CHERRY_PICK_HEAD", "cherry-pick"),
                            ("REVERT_HEAD", "revert")):
        if (git_directory / name).is_file():
            return operation
    return None
