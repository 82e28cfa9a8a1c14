"""The error hierarchy (one place, ``cli.main``, maps it to exit codes) and the words a message
shares: the one "did you mean", the one way a path is shown, the troubleshooting pointer."""

from __future__ import annotations

import difflib
import errno
import os
from collections.abc import Iterable
from pathlib import Path

INTERRUPTED = 130
"""The exit code of a run that ctrl+c cut short (128 + SIGINT, as shells report it)."""


class ChangelogError(Exception):
    """Input refused or a check failed: exit 1."""

    exit_code = 1


class UsageError(ChangelogError):
    """The command line is wrong or an answer is missing: exit 2."""

    exit_code = 2


class EnvironmentProblem(ChangelogError):
    """The environment is unusable (not a git repo, unknown ref, shallow clone): exit 2."""

    exit_code = 2


class NotInRepository(EnvironmentProblem):
    def __init__(self, folder: Path) -> None:
        super().__init__(f"{folder} is not inside a git repository; run this in a clone")
        self.folder = folder

    def advice(self, command: str) -> str:
        said = f"{self.folder} is not inside a git repository; run `changelog {command}` in a clone"
        if command in FILE_COMMANDS:
            said += f" (or `changelog {command} --file PATH`, {FILE_COMMANDS[command]})"
        return said


FILE_COMMANDS = {
    "verify": "which checks a file without git",
    "add": "which appends to that file",
    "log": "which reads that file",
}
"""The commands that also work on a file named by ``--file``, outside a repository."""


class ConcurrentChange(ChangelogError):
    """The file changed between reading it and writing to it."""


def check_size(name: str, size: int, limit: int | None) -> None:
    """Raise the one refusal of a file over ``max-bytes``, before reading it."""
    if limit is not None and size > limit:
        raise EnvironmentProblem(
            f"{name!r} is {size} bytes, over the {limit}-byte limit for a file the tool "
            "reads (the `max-bytes` setting); it is not read: split or shrink the file, or "
            "raise `max-bytes` in the settings (the gate uses the base branch's, so that "
            "change lands first)"
        )


_OS_ADVICE = {
    errno.EACCES: "permission denied: check the file's and its folder's permissions",
    errno.EPERM: "operation not permitted: check the file's and its folder's permissions",
    errno.EROFS: "the file system is read-only",
    errno.ENOSPC: "no space left on the device: free some space and run again",
    errno.EDQUOT: "disk quota exceeded: free some space and run again",
    errno.EFBIG: "the file would be too large for this system's file size limit",
    errno.EISDIR: "it is a directory, not a file",
    errno.ENOTDIR: "a folder on the path is not a directory",
    errno.ENOENT: "no such file or directory",
    errno.ELOOP: "too many levels of symbolic links",
}


def os_error(exc: OSError) -> str:
    advice = _OS_ADVICE.get(exc.errno or 0, exc.strerror or str(exc))
    where = f" ({exc.filename})" if exc.filename else ""
    return f"cannot complete: {advice}{where}; nothing was changed"


TROUBLESHOOTING = "docs/troubleshooting.md"


def see(section: str) -> str:
    return f"see '{section}' in perf-changelog's {TROUBLESHOOTING}"


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    close = closest(word, candidates)
    return f" (did you mean {close}?)" if close else ""


def relative(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the current folder when they share one below the root, else absolute."""
    where = os.path.abspath(path)
    here = os.getcwd()
    try:
        if os.path.commonpath([where, here]) == os.path.abspath(os.sep):
            return where
        return os.path.relpath(where, here)
    except ValueError:  # another drive (Windows)
        return where
