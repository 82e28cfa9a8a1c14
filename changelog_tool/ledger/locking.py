"""The writer's locks: an exclusive ``flock`` on the file's folder, then on the file; a held
folder is told to child processes (:data:`HELD_VARIABLE`). See docs/design.md, "A read and its
write under one lock"."""

from __future__ import annotations

import contextlib
import fcntl
import os
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

from changelog_tool.errors import ConcurrentChange

HELD_VARIABLE = "PERF_CHANGELOG_HELD_FOLDER"
"""``<device>:<inode>`` of the folder a parent process holds locked."""

_held = threading.local()


def _identity(found: os.stat_result) -> str:
    return f"{found.st_dev}:{found.st_ino}"


def _wait_for(fd: int, what: Path, started: float, timeout: float, told: list[bool]) -> None:
    """``flock(fd)`` exclusively, waiting up to ``timeout`` seconds from ``started``."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            waited = time.monotonic() - started
            if waited > timeout:
                raise ConcurrentChange(
                    f"{what} is locked by another process writing it (waited "
                    f"{waited:.0f} s); nothing was written: try again when it is done"
                ) from None
            if waited > 1 and not told[0]:
                print(f"changelog: waiting for another process writing {what} ...", file=sys.stderr)
                told[0] = True
            time.sleep(0.05)


@contextlib.contextmanager
def hold(path: Path, timeout: float, *, export: bool = True) -> Iterator[None]:
    """The exclusive lock on ``path``'s folder for the block: this thread's writes go on, other
    writers wait (``timeout`` each); ``export`` tells child processes."""
    folder = Path(os.path.realpath(path)).parent
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        identity = _identity(os.fstat(fd))
        held: dict[str, int] = getattr(_held, "folders", None) or {}
        _held.folders = held
        if held.get(identity) or os.environ.get(HELD_VARIABLE) == identity:
            held[identity] = held.get(identity, 0) + 1
            try:
                yield
            finally:
                held[identity] -= 1
            return
        _wait_for(fd, path, time.monotonic(), timeout, [False])
        held[identity] = 1
        told = os.environ.get(HELD_VARIABLE)
        if export:
            os.environ[HELD_VARIABLE] = identity
        try:
            yield
        finally:
            held[identity] = 0
            if export and told is None:
                os.environ.pop(HELD_VARIABLE, None)
            elif told is not None and export:
                os.environ[HELD_VARIABLE] = told
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked(path: Path, timeout: float) -> Iterator[int]:
    """The folder's lock, then an exclusive lock on the file ``path`` names now: its descriptor."""
    started, told = time.monotonic(), [False]
    with hold(path, timeout, export=False):
        while True:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            try:
                _wait_for(fd, path, started, timeout, told)
                if os.fstat(fd).st_ino == os.stat(path).st_ino:
                    yield fd
                    return
            finally:
                os.close(fd)
