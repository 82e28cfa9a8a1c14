"""The writer's locks: the folder a file lives in, then the file itself.

Every write takes an exclusive ``flock`` on the folder of the file it writes (its
real folder, after links), then on the file. The file's lock alone cannot keep a
command's read and its write together when something else replaces the file in
between: ``git merge`` writes the changelog as a new file, whose lock nobody
holds, so an ``add`` started meanwhile would append to it and the command's
write would then erase that entry. The folder stays the same object across such
a replacement, so a command that must hold the changelog from its read to its
write (``sync --commit``, ``finalize --commit``: across ``git merge``) takes
:func:`hold` first; the writes it makes inside take it again at no cost.

A held folder is told to the processes started meanwhile (the
:data:`HELD_VARIABLE` environment variable: its device and inode): the merge
driver git runs inside ``sync``'s merge writes git's temp file in that folder,
and waits on no lock its own ancestor holds.
"""

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
    """``flock(fd)`` exclusively, waiting up to ``timeout`` seconds from ``started``;
    says what it waits for after a second."""
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
    """The exclusive lock on the folder ``path`` lives in (after links), for the
    block: every write of this thread inside it goes on at once, every other
    writer waits (up to ``timeout`` seconds each). ``export``: told to the
    processes started inside the block (:data:`HELD_VARIABLE`)."""
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
            if not export:
                pass
            elif told is None:
                os.environ.pop(HELD_VARIABLE, None)
            else:
                os.environ[HELD_VARIABLE] = told
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked(path: Path, timeout: float) -> Iterator[int]:
    """The folder's lock (:func:`hold`), then an exclusive lock on the file that
    ``path`` names *now* (retried after a rename): its descriptor."""
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
