"""Where entries begin: the one rule, and every finder built on it.

An entry begins on a line whose first byte is ``-`` followed by a space, a line
break or the end of the file (``-x`` begins none, nor ``-`` then a tab or a carriage
return). Every reader of entry boundaries (the ledger's blocks, the last entry, the
next or previous entry around an offset, the count, the cutting of a file into
entry-sized pieces, the reading of a long file from its end) is in this module.
"""

from __future__ import annotations

import re
from typing import Protocol

ENTRY_START = re.compile(rb"^-(?=[ \n]|$)", re.MULTILINE)
"""A line that begins an entry (see the module's docstring)."""
# the same starts after the first line: a literal line break first lets the regex
# engine skip from one to the next in C (``^`` in multiline mode tries every byte)
_LATER_ENTRY_START = re.compile(rb"\n-(?=[ \n]|\Z)")
ENTRY_HEAD = b"- config-keys:"
"""How an entry's first line begins (what the repository's CI counts)."""


def begins_entry(data: bytes, at: int) -> bool:
    """Whether the line that begins at ``at`` begins an entry."""
    return data[at : at + 1] == b"-" and data[at + 1 : at + 2] in (b" ", b"\n", b"")


def entry_starts(data: bytes) -> list[int]:
    """The offset of every line of ``data`` that begins an entry, in order."""
    starts = [0] if ENTRY_START.match(data) else []
    starts += [m.start() + 1 for m in _LATER_ENTRY_START.finditer(data)]
    return starts


def count_entries(data: bytes) -> int:
    """How many lines of ``data`` begin an entry, counted with ``bytes.count``; lines
    holding only ``-`` overlap there, so the rare file with two in a row is counted by
    :func:`entry_starts`."""
    alone = data.count(b"\n-\n")
    if alone and b"-\n-" in data:
        return len(entry_starts(data))
    first = data.startswith((b"- ", b"-\n")) or data == b"-"
    return data.count(b"\n- ") + alone + data.endswith(b"\n-") + first


def next_entry(data: bytes, pos: int = 0) -> int | None:
    """The first entry that begins on a line after a line break at or after ``pos``;
    ``None`` when there is none."""
    while True:
        index = data.find(b"\n-", pos)
        if index < 0:
            return None
        if begins_entry(data, index + 1):
            return index + 1
        pos = index + 2


def entry_before(data: bytes, pos: int, lo: int = 0) -> int:
    """Where the entry that holds offset ``pos`` begins: the last line after a line
    break in ``data[lo:pos]`` that begins an entry, else ``lo``."""
    while True:
        index = data.rfind(b"\n-", lo, pos)
        if index < 0:
            return lo
        if begins_entry(data, index + 1):
            return index + 1
        pos = index


def entry_after(data: bytes, pos: int) -> int:
    """Where the entry after offset ``pos`` begins, else the end of ``data``."""
    found = next_entry(data, pos)
    return len(data) if found is None else found


def last_entry_offset(data: bytes, *, complete: bool = True) -> int | None:
    """Where the last entry in ``data`` begins (``data`` itself begins at a line
    start), found from the end without scanning the rest; ``None`` when no line
    begins an entry.

    ``complete=False``: ``data`` is a piece of a longer file and more bytes may
    follow it, so a ``-`` that is its very last byte is not known to begin an entry
    (the next byte decides: ``-x`` does not) and is passed over. In a whole file it
    does (a last line ``-`` is an empty entry)."""
    known = len(data) if complete else len(data) - 1  # the '-' must lie before this
    pos = len(data)
    while pos > 0:
        hit = data.rfind(b"\n-", 0, pos)
        start = hit + 1  # 0 when no line after the first begins with '-'
        if start < known and ENTRY_START.match(data, start):
            return start
        if hit < 0:
            return None
        pos = hit
    return None


class Source(Protocol):
    """Bytes that can be read a range at a time: a file's, or bytes in memory."""

    @property
    def size(self) -> int: ...

    def read(self, start: int, end: int) -> bytes: ...


TAIL = 1 << 16
"""The first window :func:`last_entry` reads from a source's end."""


def last_entry(source: Source, *, tail: int = TAIL) -> tuple[int | None, bytes]:
    """Where a source's last entry begins (:func:`last_entry_offset`), and its bytes
    from there to the end; ``(None, all of its bytes)`` when no line begins an entry.
    Read backwards from the end in windows of ``tail`` bytes, then four times more
    each time, until one holds an entry: a long history is never read whole. A window
    that begins mid-line is read from its first line start (the rule needs to know
    where lines begin)."""
    size = source.size
    want = max(1, tail)
    while True:
        start = max(0, size - want)
        data = source.read(start, size)
        skip = 0
        if start > 0:  # begin at a line start: after the first newline in the window
            skip = data.find(b"\n") + 1
        if start == 0 or skip > 0:
            found = last_entry_offset(data[skip:])
            if found is not None:
                return start + skip + found, data[skip + found :]
        if start == 0:
            return None, data
        want *= 4
