"""The file steps of every write: a temp file in the target's folder, filled, fsynced,
given the target's mode and renamed over it, then read back.

Temp files are named ``.<name>.<pid>.<ns>.perf-changelog.tmp``; a crash leaves one
behind, and the next write removes those whose process is gone.
"""

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
    """Make ``real`` (``path`` after links) hold ``data``: through a temp file, locked,
    fsynced (with its folder), given ``mode`` and renamed over ``real``. The new file
    stays locked until it is read back, so a writer that opens it after the rename
    waits; a read-back that differs refuses."""
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
