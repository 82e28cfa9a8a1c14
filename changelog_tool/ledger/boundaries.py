"""Where entries begin, and every finder built on that rule: a line whose first byte is ``-``
followed by a space, a line break or the end of the file."""

from __future__ import annotations

import re

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
    return len(entry_starts(data))


def entry_before(data: bytes, pos: int) -> int:
    """Where the entry holding offset ``pos`` begins, else 0."""
    while True:
        index = data.rfind(b"\n-", 0, pos)
        if index < 0:
            return 0
        if begins_entry(data, index + 1):
            return index + 1
        pos = index


def entry_after(data: bytes, pos: int) -> int:
    """Where the first entry beginning after a line break at or after ``pos`` begins, else the
    end of ``data``."""
    while True:
        index = data.find(b"\n-", pos)
        if index < 0:
            return len(data)
        if begins_entry(data, index + 1):
            return index + 1
        pos = index + 2
