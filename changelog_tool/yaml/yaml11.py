"""Values as a YAML 1.1 reader builds them: PyYAML's safe loader, which benchmark jobs
read the master configs with (pure).

YAML 1.1 reads plain scalars otherwise than YAML 1.2 (ruamel's reading): ``on``,
``yes`` and ``off`` are booleans, ``010`` is 8, ``1:20`` is 80 and ``1_000`` is
1000, while ``1e3`` and ``1.0e3`` (an exponent without a sign) stay strings and
``y`` is a string. In a mapping, a repeated key keeps its last value and ``<<``
merges mappings in order (a later one, then the mapping's own keys, win). This
module builds those values from libyaml's bounded events
(:func:`changelog_tool.yaml.limits.events`), so the gate can also compare what
the benchmark jobs see. What such a reader refuses (a tag it does not know, a
collection as a key, a merge of a non-mapping) raises :class:`Unreadable`.
"""

from __future__ import annotations

import base64
import binascii
import datetime
import re
from functools import cache
from typing import Any

from changelog_tool.yaml.limits import YamlRefused, build_error, clipped, events
from changelog_tool.yaml.values import same

_BOOL = {
    **dict.fromkeys(("yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"), True),
    **dict.fromkeys(("no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"), False),
}
_NULL = frozenset({"~", "null", "Null", "NULL", ""})
_NUMERIC_FIRST = frozenset("-+.0123456789")
"""The first characters of the plain scalars PyYAML's number and timestamp
resolvers read (it picks its implicit resolvers by a scalar's first character):
any other plain scalar is a boolean, null, ``=`` or a string."""


@cache
def _numbers() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """PyYAML's float, int, timestamp and date patterns, compiled on first use (a
    cost of every gate run's start otherwise, which plain names never need)."""
    number = re.compile(
        r"""[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?
        |\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?
        |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
        |[-+]?\.(?:inf|Inf|INF)
        |\.(?:nan|NaN|NAN)""",
        re.VERBOSE,
    )
    integer = re.compile(
        r"""[-+]?0b[0-1_]+
        |[-+]?0[0-7_]+
        |[-+]?(?:0|[1-9][0-9_]*)
        |[-+]?0x[0-9a-fA-F_]+
        |[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+""",
        re.VERBOSE,
    )
    stamp = re.compile(
        r"""(?P<year>[0-9][0-9][0-9][0-9])-(?P<month>[0-9][0-9]?)-(?P<day>[0-9][0-9]?)
        (?:(?:[Tt]|[ \t]+)(?P<hour>[0-9][0-9]?):(?P<minute>[0-9][0-9]):(?P<second>[0-9][0-9])
        (?:\.(?P<fraction>[0-9]*))?
        (?:[ \t]*(?P<tz>Z|(?P<tz_sign>[-+])(?P<tz_hour>[0-9][0-9]?)(?::(?P<tz_minute>[0-9][0-9]))?))?)?""",
        re.VERBOSE,
    )
    return number, integer, stamp, re.compile(r"[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]")


_TAG = "tag:yaml.org,2002:"


class Unreadable(Exception):
    """What a YAML 1.1 safe reader refuses to build."""


def _sexagesimal(text: str) -> float:
    value = 0.0
    for part in text.split(":"):
        value = value * 60 + float(part)
    return value


MAX_SEXAGESIMAL_PARTS = 1000
"""The most ``:``-separated parts of a base-60 integer this reader builds. Each part
multiplies a number that grows with every part, so the work grows with the square of
the length; 1,000 parts cost next to nothing, and a value past them has over 1,700
digits, no benchmark setting."""


def _sexagesimal_int(text: str) -> int:
    parts = text.count(":") + 1
    if parts > MAX_SEXAGESIMAL_PARTS:
        raise ValueError(
            f"a base-60 integer of {parts} parts (over {MAX_SEXAGESIMAL_PARTS}), whose "
            "value costs time growing with the square of its length; quote it"
        )
    value = 0
    for part in text.split(":"):
        value = value * 60 + int(part)
    return value


def _int(text: str) -> int:
    text = text.replace("_", "")
    sign = -1 if text[:1] == "-" else 1
    text = text.lstrip("+-")
    if text == "0":
        return 0
    if text.startswith("0b"):
        return sign * int(text[2:], 2)
    if text.startswith("0x"):
        return sign * int(text[2:], 16)
    if text.startswith("0"):
        return sign * int(text, 8)
    if ":" in text:
        return sign * _sexagesimal_int(text)
    return sign * int(text)


def _float(text: str) -> float:
    text = text.replace("_", "").lower()
    sign = -1.0 if text[:1] == "-" else 1.0
    text = text.lstrip("+-")
    if text == ".inf":
        return sign * float("inf")
    if text == ".nan":
        return float("nan")
    if ":" in text:
        return sign * _sexagesimal(text)
    return sign * float(text)


def _timestamp(text: str) -> datetime.date:
    found = _numbers()[2].fullmatch(text)
    if found is None:
        raise Unreadable(f"{clipped(text)} is not a timestamp")
    year, month, day = (int(found[name]) for name in ("year", "month", "day"))
    if found["hour"] is None:
        return datetime.date(year, month, day)
    fraction = (found["fraction"] or "")[:6].ljust(6, "0")
    zone = None
    if found["tz_sign"]:
        delta = datetime.timedelta(
            hours=int(found["tz_hour"]), minutes=int(found["tz_minute"] or 0)
        )
        zone = datetime.timezone(-delta if found["tz_sign"] == "-" else delta)
    elif found["tz"]:
        zone = datetime.UTC
    return datetime.datetime(
        year,
        month,
        day,
        int(found["hour"]),
        int(found["minute"]),
        int(found["second"]),
        int(fraction),
        tzinfo=zone,
    )


def plain(text: str) -> object:
    """A plain scalar's value as YAML 1.1 resolves and builds it (``on`` -> True,
    ``010`` -> 8, ``1e3`` -> ``'1e3'``); :class:`Unreadable` for ``=`` (1.1's value
    tag, which no safe reader builds) and for what its type cannot build."""
    try:
        if text in _BOOL:
            return _BOOL[text]
        if text in _NULL:
            return None
        if text[:1] in _NUMERIC_FIRST:
            number, integer, stamp, date_only = _numbers()
            if number.fullmatch(text):
                return _float(text)
            if integer.fullmatch(text):
                return _int(text)
            found = stamp.fullmatch(text)
            if found is not None and (date_only.fullmatch(text) or found["hour"] is not None):
                return _timestamp(text)
    except (ValueError, OverflowError) as exc:
        raise Unreadable(f"{clipped(text)}: {build_error(exc)}") from None
    if text == "=":
        raise Unreadable("'=' is YAML 1.1's value tag, which a safe reader cannot build")
    return text


def _tagged(tag: str, text: str) -> object:
    """A scalar with an explicit tag, as a safe 1.1 reader builds it."""
    kind = tag.removeprefix(_TAG) if tag.startswith(_TAG) else None
    try:
        if kind == "str":
            return text
        if kind == "int":
            return _int(text)
        if kind == "float":
            return _float(text)
        if kind == "bool":
            return _BOOL[text]
        if kind == "null":
            return None
        if kind == "timestamp":
            return _timestamp(text)
        if kind == "binary":
            return base64.decodebytes(text.encode("ascii"))
    except (ValueError, KeyError, OverflowError, binascii.Error, UnicodeEncodeError) as exc:
        raise Unreadable(f"{clipped(text)} is not a {kind}: {build_error(exc)}") from None
    raise Unreadable(f"the tag {tag!r} is not one a safe YAML 1.1 reader builds")


class _Mapping:
    """A mapping being read: the pairs merged into it (``<<``), then its own pairs.

    PyYAML merges pairs in order, skipping a pair whose key is the very object of a
    key already merged: the same node (through an alias), or a key of one
    character, which Python keeps as one shared object (so ``a`` merged twice keeps
    its first value, ``tp`` its last). Each pair carries that identity."""

    def __init__(self, pairs_of: dict[int, tuple[dict[object, object], list[_Pair]]]):
        self.pairs_of = pairs_of
        self.merged: list[_Pair] = []
        self.own: list[_Pair] = []
        self.key: _Pair | None = None
        self.merging = False

    def value(self) -> dict[object, object]:
        pairs = self.merged + self.own
        built = {key: value for key, _, value in pairs}  # in order: the later pair wins
        self.pairs_of[id(built)] = (built, pairs)
        return built

    def add(self, node: Any, identity: object = None, merge_key: bool = False) -> None:
        if self.key is None and not self.merging:
            if merge_key:
                self.merging = True
                return
            if isinstance(node, dict | list):
                raise Unreadable("a mapping or sequence as a mapping key")
            self.key = (node, identity, None)
            return
        if self.merging:
            sources = node if isinstance(node, list) else [node]
            if not all(isinstance(source, dict) for source in sources):
                raise Unreadable("'<<' merges mappings only")
            seen = {pair[1] for pair in self.merged}
            for source in sources:
                found = self.pairs_of.get(id(source))
                pairs = (
                    found[1] if found is not None else [(k, object(), v) for k, v in source.items()]
                )
                for pair in pairs:
                    if pair[1] not in seen:
                        seen.add(pair[1])
                        self.merged.append(pair)
            self.merging = False
        else:
            assert self.key is not None
            self.own.append((self.key[0], self.key[1], node))
            self.key = None

    @property
    def wants_key(self) -> bool:
        return self.key is None and not self.merging


_Pair = tuple[object, object, object]
"""A mapping pair: the key, the key's identity (see :class:`_Mapping`), the value."""
_QUOTED_OR_BLOCK = frozenset("\"'|>")


def _identity(text: str) -> object:
    """What PyYAML's merge compares a key by: the key's text object, which Python
    shares for the empty text and one character below U+0100, and makes anew for
    any other."""
    return text if len(text) == 0 or (len(text) == 1 and ord(text) < 256) else object()


def load(data: bytes) -> object:
    """The document's value as a YAML 1.1 safe reader (PyYAML's) builds it, within the
    limits of :func:`~changelog_tool.yaml.limits.events` (which raises their
    errors, and ruamel's ``YAMLError`` for what libyaml cannot parse);
    :class:`Unreadable` for what such a reader refuses, a tab outside quoted text
    included."""
    # deferred (and below): ruamel.yaml costs ~11 ms of `log`, which imports this through masters
    from ruamel.yaml.events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
    )

    anchors: dict[str, tuple[object, object]] = {}
    pairs_of: dict[int, tuple[dict[object, object], list[_Pair]]] = {}
    stack: list[tuple[_Mapping | list[object], str | None]] = []  # and its anchor
    result: object = None
    documents = 0
    quoted: list[tuple[int, int]] = []  # where quoted and block scalars lie (characters)

    def put(node: object, identity: object = None, merge_key: bool = False) -> None:
        nonlocal result
        if not stack:
            result = node
            return
        into = stack[-1][0]
        if isinstance(into, list):
            into.append(node)
        else:
            into.add(node, identity, merge_key)

    for event in events(data):
        if isinstance(event, DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise Unreadable("more than one YAML document")
        elif isinstance(event, ScalarEvent):
            tag = event.tag
            merge_key = False
            if event.style in _QUOTED_OR_BLOCK:
                quoted.append((event.start_mark.index, event.end_mark.index))
            if event.implicit[0] and tag in (None, "!") and event.value == "<<":
                top = stack[-1][0] if stack else None
                if not (isinstance(top, _Mapping) and top.wants_key):
                    raise Unreadable("'<<' (YAML 1.1's merge key) where no key is")
                value, merge_key = event.value, True
            elif event.implicit[0] and tag in (None, "!"):
                value = plain(event.value)
            elif tag in (None, "!", _TAG + "str"):
                value = event.value
            else:
                value = _tagged(tag, event.value)
            identity = _identity(event.value)
            if event.anchor is not None:
                anchors[event.anchor] = (value, identity)
            put(value, identity, merge_key)
        elif isinstance(event, AliasEvent):
            if event.anchor not in anchors:
                raise Unreadable(f"the alias *{event.anchor} names no anchor before it")
            put(*anchors[event.anchor])
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            tag = event.tag
            mapping = isinstance(event, MappingStartEvent)
            if tag not in (None, "!", _TAG + ("map" if mapping else "seq")):
                raise Unreadable(f"the tag {tag!r} is not one this reader builds here")
            stack.append((_Mapping(pairs_of) if mapping else [], event.anchor))
        elif isinstance(event, MappingEndEvent | SequenceEndEvent):
            open_, anchor = stack.pop()
            if isinstance(open_, _Mapping):
                if not open_.wants_key:
                    raise Unreadable("a mapping ends after a key with no value")
                built: object = open_.value()
            else:
                built = open_
            if anchor is not None:
                anchors[anchor] = (built, object())
            put(built, object())
    if b"\t" in data:
        _no_bare_tab(data.decode("utf-8", "replace"), quoted)
    return result


_COMMENT = re.compile(r"(?<![^ \t\n])#")
_TEXT = re.compile(r"[^ \t]")


def _no_bare_tab(text: str, quoted: list[tuple[int, int]]) -> None:
    """PyYAML's scanner skips spaces, not tabs, between tokens and refuses a tab in a
    plain scalar: a tab outside quoted or block scalars and comments is
    :class:`Unreadable` (libyaml, which built the events, allows more).

    One pass: the tabs, the quoted spans (in order, as the events found them) and
    each line's first comment and first text are visited once (a search per tab over
    the text before it grew with the square of the line)."""
    spans = iter(quoted)
    span = next(spans, None)
    line_end = -1  # the line of the last tab seen outside quotes: where it ends,
    comment_at = first_text = 0  # where its comment's ``#`` and its first text are
    at = text.find("\t")
    while at >= 0:
        while span is not None and span[1] <= at:
            span = next(spans, None)
        if span is None or at < span[0]:  # not inside a quoted or block scalar
            if at > line_end:
                start = text.rfind("\n", 0, at) + 1
                line_end = text.find("\n", at)
                line_end = len(text) if line_end < 0 else line_end
                found = _COMMENT.search(text, start, line_end)
                comment_at = found.start() if found is not None else line_end
                found = _TEXT.search(text, start, line_end)
                first_text = found.start() if found is not None else line_end
            if first_text < at < comment_at:
                line = text.count("\n", 0, at) + 1
                raise Unreadable(
                    f"a tab at line {line}: YAML 1.1 readers (PyYAML) take a tab only inside "
                    "quoted text or a comment; use spaces"
                )
        at = text.find("\t", at + 1)


READER = "PyYAML (YAML 1.1, which benchmark CI reads the changelog with)"


def disagreements(block: bytes, read: object) -> list[tuple[str, str]]:
    """Where a YAML 1.1 reader (PyYAML) reads ``block`` otherwise than ``read``, its
    YAML 1.2 reading: ``(field path, message)`` naming both readings (``010`` is 10
    to YAML 1.2 and 8 to PyYAML; ``0o10`` is 8 and a string; ``yes`` a string and
    True). ``block`` is one changelog entry (a list of one mapping) or several."""
    from ruamel.yaml.error import YAMLError  # deferred: see load

    try:
        other = load(block)
    except (Unreadable, YAMLError, YamlRefused) as exc:
        why = exc.message if isinstance(exc, YamlRefused) else str(exc).strip().splitlines()[0]
        return [("(entry)", f"{READER} cannot read this entry: {why}")]
    if isinstance(read, list) and isinstance(other, list) and len(read) == len(other) == 1:
        read, other = read[0], other[0]
    out: list[tuple[str, str]] = []

    def walk(path: str, mine: object, theirs: object) -> None:
        if same(mine, theirs):
            return
        if isinstance(mine, dict) and isinstance(theirs, dict) and mine.keys() == theirs.keys():
            for key, value in mine.items():
                walk(f"{path}/{key}" if path else str(key), value, theirs[key])
        elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
            for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
                walk(f"{path}/{index}" if path else str(index), a, b)
        else:
            out.append(
                (
                    path or "(entry)",
                    f"reads as {_shown(mine)} here (YAML 1.2) but as {_shown(theirs)} to "
                    f"{READER}; {_advice(mine)}",
                )
            )

    walk("", read, other)
    return out


def _advice(value: object) -> str:
    """How to write ``value`` so that both readings agree."""
    if isinstance(value, str):
        return 'quote it ("...") so that both read text'
    if isinstance(value, int) and not isinstance(value, bool):
        return "write it in plain decimal digits, without a leading zero"
    return "write it so that both read the same value"


def _shown(value: object) -> str:
    kind = "null" if value is None else type(value).__name__
    text = clipped(value) if isinstance(value, str) else clipped(repr(value))[1:-1]
    return f"{text} ({kind})"
