"""Changelog files read in pieces: the end of a file, and the bytes several files
share, proven by comparing them chunk by chunk. Memory stays a few chunks however
long the history is (the merge driver's files hold the whole history three times).
"""

from __future__ import annotations

import io
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

CHUNK = 1 << 20
"""Bytes read from each file at a time."""


class FileSource:
    """A file read a range at a time (:class:`~changelog_tool.ledger.boundaries.Source`):
    its size as found when made."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.size = os.path.getsize(path)

    def read(self, start: int, end: int) -> bytes:
        with open(self.path, "rb") as file:
            file.seek(start)
            return file.read(end - start)


class MemorySource:
    """Bytes in memory, read a range at a time (the same algorithms as a file)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.size = len(data)

    def read(self, start: int, end: int) -> bytes:
        return self.data[start:end]


def first_difference(a: bytes, b: bytes) -> int:
    """The offset of the first byte where ``a`` and ``b`` differ (the shorter one's
    length when it begins the other), found by halves: each step one ``memcmp``, not
    a loop over bytes."""
    low, high = 0, min(len(a), len(b))
    if a[:high] == b[:high]:
        return high
    while high - low > 1:  # a[:low] == b[:low], a[:high] != b[:high]
        middle = (low + high) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle
    return low


def read_from(path: Path, offset: int) -> bytes:
    """The bytes of ``path`` from ``offset`` to its end."""
    source = FileSource(path)
    return source.read(offset, source.size)


def share_prefix(
    reference: Path,
    others: Sequence[Path],
    length: int,
    *,
    feed: Mapping[int, Callable[[bytes | bytearray], None]] | None = None,
    chunk: int = CHUNK,
) -> bool:
    """Whether each of ``others`` begins with the first ``length`` bytes of
    ``reference``, compared ``chunk`` bytes at a time (it stops at the first
    difference). ``feed`` maps a file's index (0: the reference, then ``others``
    in order) to a function given each of its chunks in turn, up to ``length`` (a
    buffer that is reused: read it, do not keep it)."""
    paths = [reference, *others]
    feed = feed or {}
    files = [open(path, "rb", buffering=0) for path in paths]  # noqa: SIM115 (closed below)
    try:
        chunk = max(1, min(chunk, length))  # a short prefix needs no full-size buffers
        buffers = [bytearray(chunk) for _ in paths]
        done = 0
        while done < length:
            want = min(chunk, length - done)
            views: list[bytearray] = []
            for index, (file, buffer) in enumerate(zip(files, buffers, strict=True)):
                got = _read_exactly(file, memoryview(buffer)[:want])
                if got < want:
                    return False
                piece = buffer if want == chunk else buffer[:want]
                views.append(piece)
                if index in feed:
                    feed[index](piece)
            if any(view != views[0] for view in views[1:]):
                return False
            done += want
        return True
    finally:
        for file in files:
            file.close()


def _read_exactly(file: io.FileIO, view: memoryview) -> int:
    """Fill ``view`` from ``file`` (short reads retried); how many bytes it got."""
    got = 0
    while got < len(view):
        n = file.readinto(view[got:])
        if not n:
            break
        got += n
    return got
