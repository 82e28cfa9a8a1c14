"""Master configs as data: a file's top-level keys by a byte scan (a key begins at column 0),
values parsed per key and only when asked (a file with anchors, or one the scan cannot split,
is parsed whole); :class:`MasterSet`, all master configs of one tree. See docs/design.md."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from functools import cached_property

from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import AliasEvent, CollectionEndEvent, CollectionStartEvent, ScalarEvent

from changelog_tool.diff.fields import scenarios_of
from changelog_tool.diff.masterparse import (
    duplicate_key,
    last_line,
    not_a_name,
    not_a_name_1_1,
    parse,
    parse_1_1,
    reads_as_no_name,
)
from changelog_tool.ledger.document import BOM
from changelog_tool.yaml import yaml11
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.limits import OTHER_BREAKS, events, line_at

# A top-level key, matched at a line's start: not a comment, sequence item, directive or
# document marker. A plain key runs to the first colon that ends it (one before a space, a
# tab or the line's end); its trailing blanks are dropped by ``_unquote``. Each part is
# possessive and no two parts can match the same byte, so a line that never reaches such a
# colon is read in one pass.
_TOP_KEY = re.compile(
    rb"""(?:"((?:[^"\\\n]|\\.)*+)"|'((?:[^'\n]|'')*+)'"""
    rb"""|([^\s#\-?:%!&*\[\]{},|>@`"'](?:[^:\n]|:(?![ \t]|\r?$))*+))"""
    rb"""[ \t]*+:(?=[ \t]|\r?$)""",
    re.MULTILINE,
)
# A line with text at column 0: a top-level key, a sequence item (``- x`` under the
# key before it), or something the scan cannot split by (a tag, an anchor, ``?``,
# ``-key:``, ``:key:``, a document marker, a directive, a flow collection).
_COLUMN_ZERO = re.compile(rb"\n[^\s#]")
# ``&name`` or ``*name`` where YAML would read an anchor or alias: at the start or after a
# blank, a line break or a flow indicator (comments may give false positives, which only
# cost a whole-file parse).
_ANCHOR_OR_ALIAS = re.compile(rb"[&*](?<![^ \t\n\[{,][&*])[^ \t\r\n\[\]{},]")


BATCH = 256
"""Keys of one file whose values a run reads one by one before it reads them all in
one parse of the file (a real change touches a few keys of a few hundred)."""


@dataclass(frozen=True)
class Span:
    start: int
    end: int
    line: int


def _unquote(raw: re.Match[bytes]) -> str | None:
    """The key a key line names; ``None`` for a double-quoted key that does not read
    (a bad escape): the line is then left to the whole-file parse, which says why."""
    double, single, plain = raw.groups()
    if plain is not None:
        return plain.rstrip(b" \t").decode("utf-8", "replace")
    if single is not None:
        return single.decode("utf-8", "replace").replace("''", "'")
    try:
        parsed = parse(b'"' + double + b'": 0\n')
    except YamlProblem:
        return None
    return str(next(iter(parsed))) if isinstance(parsed, dict) else double.decode()


@dataclass
class MasterFile:
    """One master config file's bytes, its keys, and their values on demand."""

    path: str
    data: bytes
    problems: list[YamlProblem] = field(default_factory=list)
    broken: bool = False
    """The file must be parsed whole and does not parse: its keys' values are unknown."""
    _values: dict[str, object] = field(default_factory=dict, init=False, repr=False)
    """The values read so far, or why a key's value cannot be read (the cache of
    :func:`parse` keeps no refusal)."""
    _batched: bool = field(default=False, init=False, repr=False)

    @cached_property
    def _first(self) -> int:
        """Where the first line begins: after a byte-order mark (YAML drops it)."""
        return len(BOM) if self.data.startswith(BOM) else 0

    @cached_property
    def _scan(self) -> tuple[list[tuple[str, int]], bool]:
        """Every top-level key line the scan reads (its key and where it starts), and
        whether a line at column 0 is neither such a key, nor a sequence item (``- ``),
        nor blank or a comment: only a whole-file parse knows what it is (``!!str key:``
        is a key; the scan would miss it)."""
        data, first = self.data, self._first
        found: list[tuple[str, int]] = []
        unsplittable = False
        lead = data[first : first + 1]
        starts = [first] if lead and lead not in b" \t\r\n\f\v#" else []
        starts += [m.start() + 1 for m in _COLUMN_ZERO.finditer(data, first)]
        for start in starts:
            match = _TOP_KEY.match(data, start)
            key = _unquote(match) if match is not None else None
            if key is not None:
                found.append((key, start))
            elif not (data[start : start + 1] == b"-" and data[start + 1 : start + 2] in b" \r\n"):
                unsplittable = True
        return found, unsplittable

    @property
    def _found(self) -> list[tuple[str, int]]:
        return self._scan[0]

    @cached_property
    def spans(self) -> dict[str, Span]:
        data, found = self.data, self._found
        spans: dict[str, Span] = {}
        line, last = 1, 0
        for index, (key, start) in enumerate(found):
            line += data.count(b"\n", last, start)
            last = start
            end = found[index + 1][1] if index + 1 < len(found) else len(data)
            if key in spans:  # the last definition is the key: what PyYAML keeps
                self.problems.append(duplicate_key(key, spans[key].line, line))
            spans[key] = Span(start, end, line)
        return spans

    @cached_property
    def whole(self) -> bool:
        """True when values must come from one parse of the whole file."""
        data = self.data
        first = self._found[0][1] if self._found else len(data)
        preamble = data[self._first : first]
        return bool(
            _ANCHOR_OR_ALIAS.search(data)
            # a line break but \n and \r\n: a key after one begins a line the scan misses
            or any(mark in data for mark in OTHER_BREAKS)
            or data.count(b"\r") != data.count(b"\r\n")
            or any(key == "<<" for key, _ in self._found)  # a merge key: not a key of its own
            or self._scan[1]
            or any(
                line.strip() and not line.lstrip().startswith(b"#")
                for line in preamble.splitlines()
            )
        )

    @cached_property
    def _whole_values(self) -> dict[object, object]:
        data, shadowed = self._last_definitions()
        try:
            value = parse(data)
        except YamlProblem as problem:
            self.problems.append(replace(problem, line=last_line(self.data, problem.line)))
            self.broken = True
            return {}
        if value is None:
            return {}
        if not isinstance(value, dict):
            self.problems.append(
                YamlProblem("yaml-syntax", "a master config must be a mapping of keys")
            )
            self.broken = True
            return {}
        for name in shadowed:
            value.pop(name, None)
        return value

    def _last_definitions(self) -> tuple[bytes, list[str]]:
        """The file with each earlier definition of a top-level key the scan found
        twice renamed to a key no file uses (its anchors kept: a later alias may name
        them), and those names: so the whole-file parse, which refuses a repeated
        key, reads each key's last definition, as PyYAML does."""
        seen = Counter(key for key, _ in self._found)
        if len(seen) == len(self._found):
            return self.data, []
        out: list[bytes] = []
        names: list[str] = []
        last = 0
        for key, start in self._found:
            seen[key] -= 1
            if seen[key] == 0:
                continue  # the last definition: kept
            match = _TOP_KEY.match(self.data, start)
            assert match is not None  # the scan found a key line here
            out += [self.data[last:start], b'"\\0shadowed %d"' % len(names)]
            names.append(f"\x00shadowed {len(names)}")
            last = match.end() - 1  # the colon
        out.append(self.data[last:])
        return b"".join(out), names

    def key_names(self) -> list[str]:
        spans = list(self.spans)  # (a key defined twice is a problem of the file, read whole too)
        values = self._whole_values if self.whole else None
        return spans if values is None or self.broken else [str(k) for k in values]

    def line(self, key: str) -> int | None:
        span = self.spans.get(key)
        if span is not None:
            return span.line
        return self._key_lines.get(key) if self.whole else None

    @cached_property
    def _key_lines(self) -> dict[str, int]:
        """The lines of the top-level keys of a file parsed whole, from libyaml's
        events (a key the scan cannot read: ``!!str key:``, ``? key``); a key whose
        text is not its name (``0x10:`` is 16) has none."""
        lines: dict[str, int] = {}
        depth, nodes = 0, 0  # nodes of the root mapping so far: keys and values in turn
        try:
            for event in events(self.data):
                if isinstance(event, CollectionEndEvent):
                    depth -= 1
                    continue
                if depth == 1 and isinstance(
                    event, ScalarEvent | AliasEvent | CollectionStartEvent
                ):
                    if nodes % 2 == 0 and isinstance(event, ScalarEvent):
                        # the last definition: what PyYAML keeps
                        lines[event.value] = line_at(self.data, event.start_mark.index)
                    nodes += 1
                if isinstance(event, CollectionStartEvent):
                    depth += 1
        except (YAMLError, YamlProblem):
            pass  # a file that does not read: the lines known so far
        return lines

    def chunk(self, key: str) -> bytes:
        span = self.spans.get(key)
        return self.data[span.start : span.end] if span is not None else b""

    def yaml_1_1_name_problem(self, key: str) -> str | None:
        """Why a YAML 1.1 reader (PyYAML) reads this plain top-level key as no name
        (``on`` is true, ``1_000`` is 1000, ``010`` is 8), or ``None``."""
        span = self.spans.get(key)
        if span is None or self.data[span.start : span.start + 1] in (b'"', b"'"):
            return None
        try:
            read = yaml11.plain(key)
        except YamlProblem:
            read = None
        if isinstance(read, str):
            return None
        return not_a_name_1_1(key, read)

    def value_yaml_1_1(self, key: str) -> object:
        """The key's value as PyYAML's safe loader (the benchmark jobs') builds it, or the
        :class:`YamlProblem` that says why it refuses the bytes (returned, not raised)."""
        parsed = parse_1_1(self.data if self.whole else self.chunk(key))
        if isinstance(parsed, YamlProblem):
            return replace(parsed, line=self.line(key), key=key)
        if not isinstance(parsed, dict) or key not in parsed:
            found = next(iter(parsed), key) if isinstance(parsed, dict) else key
            return YamlProblem("key-name", not_a_name_1_1(key, found), self.line(key), key)
        return parsed[key]

    def value(self, key: str) -> object:
        """The key's value; raises :class:`YamlProblem` when it does not parse."""
        if self.whole:
            if key not in self._whole_values:
                odd = next((k for k in self._whole_values if reads_as_no_name(k, key)), None)
                if odd is not None:
                    raise not_a_name(odd, key, self.line(key))
                why = "; the file does not parse" if self.broken else ""
                raise YamlProblem("yaml-syntax", f"{key!r} could not be read{why}", self.line(key))
            return self._whole_values[key]
        if len(self._values) == BATCH and not self._batched:
            self._batched = True
            self._read_all()
        if key in self._values:
            known = self._values[key]
            if isinstance(known, YamlProblem):
                raise known
            return known
        span = self.spans[key]
        chunk = self.chunk(key)
        try:
            parsed = parse(chunk)
        except YamlProblem as problem:  # kept: the parse cache keeps no refusal
            line = span.line + last_line(chunk, problem.line) - 1
            refused = self._values[key] = replace(problem, line=line)
            raise refused from None
        if (
            isinstance(parsed, dict)
            and len(parsed) == 1
            and reads_as_no_name(next(iter(parsed)), key)
        ):
            raise not_a_name(next(iter(parsed)), key, span.line)
        if not isinstance(parsed, dict) or list(parsed) != [key]:
            # The byte scan split something it should not have: parse the file whole.
            self.__dict__["whole"] = True
            return self.value(key)
        self._values[key] = parsed[key]
        return parsed[key]

    def _read_all(self) -> None:
        """Every key's value from one parse of the whole file, when it parses to the
        keys the scan found (else each key is still parsed alone): past :data:`BATCH`
        keys, one parse of the file costs less than one per key."""
        try:
            values = parse(self.data)
        except YamlProblem:
            return
        if isinstance(values, dict) and list(values) == list(self.spans):
            for key, value in values.items():
                self._values.setdefault(key, value)


class MasterSet:
    """All master configs of one tree: key -> the file that defines it."""

    def __init__(self, files: Iterable[MasterFile]) -> None:
        self.files = sorted(files, key=lambda f: f.path)
        self.owner: dict[str, MasterFile] = {}
        self.defined: dict[str, list[MasterFile]] = {}
        for file in self.files:  # a key in two files: the later path wins (configs/ over .github/)
            for key in file.key_names():
                self.owner[key] = file
                self.defined.setdefault(key, []).append(file)

    def value(self, key: str) -> object:
        return self.owner[key].value(key)

    def value_yaml_1_1(self, key: str) -> object:
        return self.owner[key].value_yaml_1_1(key)

    def chunk(self, key: str) -> bytes | None:
        file = self.owner[key]
        return None if file.whole else file.chunk(key)

    def locate(self, key: str) -> tuple[str | None, int | None]:
        file = self.owner.get(key)
        return (file.path, file.line(key)) if file is not None else (None, None)

    def unknown(self, key: str) -> bool:
        """The key's file does not parse as a whole: its value cannot be known."""
        file = self.owner.get(key)
        return file is not None and file.whole and file.broken

    def problems(self) -> list[tuple[str, YamlProblem]]:
        return [(f.path, p) for f in self.files for p in f.problems]

    def has_scenario(self, key: str, kind: str) -> bool:
        """Does ``key`` define scenario type ``kind``? (A key that does not parse counts as yes.)"""
        chunk = self.chunk(key)
        if (
            chunk is not None
            and kind.encode() not in chunk
            and not (kind == "fixed-seq-len" and b"seq-len-configs" in chunk)
        ):
            return False
        try:
            value = self.value(key)
        except YamlProblem:
            return True
        if not isinstance(value, dict):
            return False
        if kind in (scenarios_of(value) or {}):
            return True
        return kind == "fixed-seq-len" and "seq-len-configs" in value

    def mentions(self, needle: str) -> list[str]:
        """Keys whose bytes may hold ``needle`` (a pre-filter): they contain it, or a backslash
        escape."""
        raw = needle.encode("utf-8", "surrogateescape")  # a file name git gave as bytes
        out = []
        for key, file in self.owner.items():
            text = file.data if file.whole else file.chunk(key)
            if raw in text or b"\\" in text:
                out.append(key)
        return sorted(out)
