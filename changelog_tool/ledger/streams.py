"""Changelog bytes read a range at a time (a file's end, without reading it whole),
and where two byte strings first differ."""

from __future__ import annotations

import os
from pathlib import Path

CHUNK = 1 << 20
"""Bytes read from a file at a time."""


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
