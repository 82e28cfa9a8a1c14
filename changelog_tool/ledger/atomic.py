"""The file steps of every write: a temp file in the target's folder
(``.<name>.<pid>.<ns>.perf-changelog.tmp``), fsynced, given the mode, renamed over the target
and read back; stale temps of dead processes are removed. See docs/design.md, "One writer"."""

from __future__ import annotations

import contextlib
import fcntl
import os
import time
from pathlib import Path

from changelog_tool.errors import ChangelogError

TEMP_SUFFIX = ".perf-changelog.tmp"


def read_fd(fd: int) -> bytes:
    """All the bytes of the open file ``fd``, from its start."""
    chunks = []
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def remove_stale_temps(path: Path) -> None:
    """Temp files a crashed writer left beside ``path`` (their process is gone)."""
    prefix = f".{path.name}."
    with contextlib.suppress(OSError):
        for leftover in path.parent.iterdir():
            name = leftover.name
            if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
                continue
            pid = name[len(prefix) : -len(TEMP_SUFFIX)].split(".")[0]
            if pid.isdigit() and not _alive(int(pid)):
                with contextlib.suppress(OSError):
                    leftover.unlink()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def write_over(path: Path, real: Path, mode: int, data: bytes) -> None:
    """Make ``real`` hold ``data`` through a locked, fsynced temp file renamed over it (with
    ``mode``), kept locked until read back; a differing read-back refuses."""
    tmp = real.parent / f".{real.name}.{os.getpid()}.{time.monotonic_ns()}{TEMP_SUFFIX}"
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _write_all(fd, data)
        os.fsync(fd)
        os.fchmod(fd, mode)
        os.replace(tmp, real)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    try:
        _sync_folder(real.parent)
        written = os.pread(fd, len(data) + 1, 0)
    finally:
        os.close(fd)
    if written != data:
        raise ChangelogError(
            f"read-back of {path} does not match what was written; check the disk and the file"
        )


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        dir_fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
