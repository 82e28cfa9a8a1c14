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


def write_over(
    path: Path,
    real: Path,
    mode: int,
    tail: bytes,
    *,
    src: int = -1,
    length: int = 0,
    sync: bool = True,
) -> None:
    """Make ``real`` (``path`` after links) hold the first ``length`` bytes of the open
    file ``src``, copied by the kernel, then ``tail``: through a temp file, locked,
    fsynced (with its folder) unless ``sync`` is off, given ``mode`` and renamed over
    ``real``. The new file stays locked until it is read back (its size, and
    ``tail`` after the copied bytes), so a writer that opens it after the rename
    waits; a read-back that differs refuses."""
    tmp = real.parent / f".{real.name}.{os.getpid()}.{time.monotonic_ns()}{TEMP_SUFFIX}"
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _copy(src, fd, length)
        _write_all(fd, tail)
        if sync:
            os.fsync(fd)
        os.fchmod(fd, mode)
        os.replace(tmp, real)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    try:
        if sync:
            _sync_folder(real.parent)
        size = os.fstat(fd).st_size
        written = os.pread(fd, len(tail) + 1, length) if tail else b""
    finally:
        os.close(fd)
    if size != length + len(tail) or written != tail:
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


def _copy(src: int, out: int, length: int) -> None:
    """``length`` bytes from the start of ``src`` into ``out``, in the kernel
    (``copy_file_range``), else through a buffer."""
    done = 0
    try:
        while done < length:
            n = os.copy_file_range(src, out, length - done, done)
            if n == 0:
                break
            done += n
    except OSError:
        pass
    while done < length:
        os.lseek(out, done, os.SEEK_SET)
        chunk = os.pread(src, min(1 << 20, length - done), done)
        if not chunk:
            raise ChangelogError("the file being copied became shorter; nothing was written")
        _write_all(out, chunk)
        done += len(chunk)
    os.lseek(out, length, os.SEEK_SET)
