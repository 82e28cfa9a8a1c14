"""The changelog as bytes: where entries begin (:data:`ENTRY_START`), a :class:`Ledger` of its
entries, and the one :class:`Entry`: its span, separator and line, read alone once. See
docs/design.md, "Why append-only, byte for byte"."""

from __future__ import annotations

import os
import re
import stat
from bisect import bisect_right
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from changelog_tool.errors import UsageError, check_size, relative
from changelog_tool.findings import Finding
from changelog_tool.settings import DEFAULT_MAX_BYTES
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items

ENTRY_START = re.compile(rb"^-(?=[ \n]|$)", re.MULTILINE)
"""A line that begins an entry: ``-``, then a space, a line break or the end of the file."""
# the same starts after the first line: a literal line break first lets the regex
# engine skip from one to the next in C (``^`` in multiline mode tries every byte)
_LATER_ENTRY_START = re.compile(rb"\n-(?=[ \n]|\Z)")
ENTRY_HEAD = b"- config-keys:"
"""How an entry's first line begins (what the repository's CI counts)."""


def begins_entry(data: bytes, at: int) -> bool:
    return data[at : at + 1] == b"-" and data[at + 1 : at + 2] in (b" ", b"\n", b"")


def entry_starts(data: bytes) -> list[int]:
    starts = [0] if ENTRY_START.match(data) else []
    starts += [m.start() + 1 for m in _LATER_ENTRY_START.finditer(data)]
    return starts


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
    """Where the first entry after a line break at or after ``pos`` begins, else ``len(data)``."""
    while True:
        index = data.find(b"\n-", pos)
        if index < 0:
            return len(data)
        if begins_entry(data, index + 1):
            return index + 1
        pos = index + 2


UNPARSED: object = object()
"""The value of an entry that does not read alone."""


@dataclass(eq=False)
class Entry:
    """One entry of the changelog bytes ``data``: ``data[start:end]`` its lines, from file line
    ``line``, ``data[end:sep_end]`` the separator lines after it; read alone on first use."""

    data: bytes = field(repr=False)
    index: int
    start: int
    end: int
    sep_end: int
    line: int

    @property
    def text(self) -> bytes:
        return self.data[self.start : self.end]

    @property
    def raw(self) -> bytes:
        """Its lines without the final newline (a file lacking one compares equal)."""
        text = self.text
        return text[:-1] if text.endswith(b"\n") else text

    @cached_property
    def item(self) -> Item | YamlProblem:
        return read_item(self.text, self.line)

    @cached_property
    def parsed(self) -> Item | YamlProblem:
        """:attr:`raw` and one final newline read alone: what two versions of it compare."""
        return self.item if self.text.endswith(b"\n") else read_item(self.raw + b"\n", self.line)

    @property
    def value(self) -> object:
        parsed = self.parsed
        return parsed.value if isinstance(parsed, Item) else UNPARSED

    @property
    def fields(self) -> dict[str, object]:
        """Its mapping as read where it stands (:attr:`item`); empty when it is none."""
        item = self.item
        return item.value if isinstance(item, Item) and isinstance(item.value, dict) else {}

    def field_line(self, name: str) -> int:
        """The line of its field ``name`` as read where it stands (else its first line)."""
        item = self.item
        return item.key_lines.get(name, self.line) if isinstance(item, Item) else self.line

    def line_of_text(self, text: str) -> int:
        """Its first line that contains ``text`` (else its first line)."""
        raw = text.encode("utf-8")
        for offset, line in enumerate(self.text.split(b"\n")):
            if raw in line:
                return self.line + offset
        return self.line

    def name(self, where: str = "") -> str:
        """``entry 3 (config-keys a, b)``; with ``where``, ``(..., line 12 of WHERE)``."""
        at = f", line {self.line} of {where}" if where else ""
        return f"entry {self.index + 1} ({label(self.value, self.raw)}{at})"


def regular_file(path: Path, *, missing_ok: bool = False) -> Path | None:
    """The real path of the regular file ``path`` names; ``None`` when missing and
    ``missing_ok``; anything else refused before opening (a FIFO would block)."""
    real = Path(os.path.realpath(path))
    try:
        mode = os.stat(real).st_mode
    except FileNotFoundError:
        if missing_ok:
            return None
        raise UsageError(f"{relative(path)} does not exist") from None
    if stat.S_ISDIR(mode):
        raise UsageError(f"{relative(path)} is a directory, not a file; name the file itself")
    if not stat.S_ISREG(mode):
        raise UsageError(
            f"{relative(path)} is not a regular file (a FIFO, socket or device); refusing to read or "
            "write it: point the setting or --file at the changelog file itself"
        )
    return real


def read_file(path: Path, hint: str = "", limit: int = DEFAULT_MAX_BYTES) -> bytes:
    """A changelog's bytes, or why not (missing, not a regular file, over ``limit``)."""
    real = regular_file(path, missing_ok=True)
    if real is None:
        raise UsageError(f"{relative(path)} does not exist{hint}")
    check_size(str(path), real.stat().st_size, limit)
    try:
        return real.read_bytes()
    except PermissionError:
        raise UsageError(f"{path} cannot be read (permission denied); check its mode") from None


def separator_before_append(data: bytes) -> bytes:
    """What goes between ``data`` and an appended entry so that one empty line precedes it."""
    if not data or data.endswith(b"\n\n"):
        return b""
    return b"\n" if data.endswith(b"\n") else b"\n\n"


def first_appended_line(lines: int, end: bytes) -> int:
    """The line an entry appended after ``end`` begins on, ``lines`` line breaks into the file."""
    return lines + separator_before_append(end).count(b"\n") + 1


def read_item(text: bytes, line: int) -> Item | YamlProblem:
    """One entry's bytes from file line ``line`` read alone: its item, or why it is not one."""
    try:
        items = load_items(text, line_offset=line - 1)
    except YamlProblem as problem:
        return problem
    if not isinstance(items, list) or len(items) != 1 or not isinstance(items[0], Item):
        return YamlProblem("entry-count", "this block is not exactly one list item", line)
    return items[0]


BOM = b"\xef\xbb\xbf"


def readable(text: bytes) -> bool:
    """Could a YAML parser read these bytes at all (no NUL, valid UTF-8)?"""
    if b"\x00" in text:
        return False
    try:
        text.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


_MARKED = (
    (b"\r", "a carriage return (CRLF line ending)", "convert line endings to LF"),
    (b"\t", "a tab", "use spaces"),
    (b"\x00", "a NUL byte", "remove it"),
)


class Ledger:
    """A changelog's bytes (or its part from file line ``first_line`` on) and its entries."""

    def __init__(self, data: bytes, first_line: int = 1) -> None:
        self.data = data
        self.first_line = first_line

    @cached_property
    def _newlines(self) -> list[int]:
        return [m.start() for m in re.finditer(b"\n", self.data)]

    def line_of(self, offset: int) -> int:
        return bisect_right(self._newlines, offset - 1) + self.first_line

    def line_start(self, line: int) -> int:
        line -= self.first_line
        return self._newlines[line - 1] + 1 if line > 0 else 0

    @cached_property
    def blocks(self) -> list[Entry]:
        data = self.data
        starts = entry_starts(data)
        blocks = []
        line, counted = self.first_line, 0  # lines counted from one start to the next, in C
        for i, start in enumerate(starts):
            line += data.count(b"\n", counted, start)
            counted = start
            stop = starts[i + 1] if i + 1 < len(starts) else len(data)
            blocks.append(self._block(i, start, stop, line))
        return blocks

    def _block(self, index: int, start: int, stop: int, line: int) -> Entry:
        # the entry (which begins with "-") ends with the line of its last character that is
        # not a space or a line break; the separator lines after it hold only those
        last = start + len(self.data[start:stop].rstrip(b" \n")) - 1
        newline = self.data.find(b"\n", last, stop)
        return Entry(self.data, index, start, stop if newline < 0 else newline + 1, stop, line)

    @cached_property
    def preamble_end(self) -> int:
        match = ENTRY_START.search(self.data)
        return match.start() if match else len(self.data)

    def last_block(self) -> Entry | None:
        """``blocks[-1]``, without building the others."""
        starts = entry_starts(self.data)
        if not starts:
            return None
        line = self.data.count(b"\n", 0, starts[-1]) + self.first_line
        return self._block(len(starts) - 1, starts[-1], len(self.data), line)

    def byte_problems(self, path: str = "") -> list[Finding]:
        """Encoding and whitespace problems over the whole file, as findings in ``path``."""
        data, problems = self.data, []
        if data.startswith(BOM):
            message = "the file starts with a UTF-8 byte-order mark; remove the first 3 bytes"
            problems.append(Finding("encoding", message, path, 1))
        try:
            if not data.isascii():  # (ASCII is UTF-8: a fast check)
                data.decode("utf-8")
        except UnicodeDecodeError as exc:
            message = (
                f"not UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start} "
                "cannot be decoded; re-save the file as UTF-8"
            )
            line = data.count(b"\n", 0, exc.start) + 1
            problems.append(Finding("encoding", message, path, line))
        for byte, name, fix in _MARKED:
            pos = data.find(byte)  # a fast search; counting takes longer, so only if found
            if pos >= 0:
                message = f"{name} ({data.count(byte)} in the file); {fix}"
                line = data.count(b"\n", 0, pos) + 1
                problems.append(Finding("encoding", message, path, line))
        if data and not data.endswith(b"\n"):
            message = "the file does not end with a newline; add one"
            problems.append(Finding("final-newline", message, path, data.count(b"\n") + 1))
        return problems


def parse(raw: bytes, line: int) -> object:
    """The value of an entry's lines read alone, or :data:`UNPARSED`."""
    item = read_item(raw + b"\n", line)
    return item.value if isinstance(item, Item) else UNPARSED


def label(value: object, fallback: bytes = b"") -> str:
    """An entry's config-keys, else its first line."""
    if isinstance(value, dict) and isinstance(value.get("config-keys"), list):
        keys = [str(k) for k in value["config-keys"]]
        more = f" (+{len(keys) - 2} more)" if len(keys) > 2 else ""
        return "config-keys " + ", ".join(keys[:2]) + more
    first = fallback.split(b"\n", 1)[0].decode("utf-8", "replace")
    return repr(first[:60])


def first_line_difference(old: bytes, new: bytes) -> int:
    """0-based line (within an entry) where two versions of it first differ."""
    pairs = zip(old.split(b"\n"), new.split(b"\n"), strict=False)
    return next((n for n, (a, b) in enumerate(pairs) if a != b), 0)
