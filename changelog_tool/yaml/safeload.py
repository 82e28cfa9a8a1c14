"""The value of a master config or recipe, as ruamel's safe loader builds it, read
within the limits (:func:`changelog_tool.yaml.limits.events`).

One pass over the bounded events builds the value itself; what that pass leaves
to the loader (anchors and aliases, explicit tags, directives, a second document,
a collection as a key, scalars of other tags) goes to ruamel's C-backed safe
loader after the same bounded pass, so both ways agree on every document.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import StreamMark
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    DocumentStartEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceStartEvent,
)

from changelog_tool.yaml.items import BUILT_TAGS, STR_TAG, Unbuildable, plain_tag, plain_value
from changelog_tool.yaml.limits import (
    YamlRefused,
    events,
    line_at,
)

_DEFER = object()
"""What :func:`_build` returns for a document it leaves to ruamel's loader."""
_NO_KEY = object()
_REPEATED = object()
"""What :meth:`_Into.add` returns for a key its mapping already holds."""

_local = threading.local()


def load(data: bytes) -> object:
    """The document's value, as ruamel's safe loader builds it (one loader per
    thread: the TUI diffs in a worker thread). Raises
    :class:`~changelog_tool.yaml.limits.YamlRefused` or ruamel's ``YAMLError``."""
    value = _build(data)
    if value is not _DEFER:
        return value
    return _loader().load(data)


def _loader() -> YAML:
    loader: YAML | None = getattr(_local, "loader", None)
    if loader is None:
        loader = _local.loader = YAML(typ="safe", pure=False)
    return loader


def _plain(data: bytes, event: ScalarEvent) -> object:
    """A plain scalar's value, as ruamel's safe loader builds it
    (:func:`~changelog_tool.yaml.items.plain_value`); :data:`_DEFER` for a tag beyond
    null, bool, int, float and timestamp (``<<``, ``=``); :class:`YamlRefused` at the
    scalar's line for one no reader can build (``2025-13-01``)."""
    text: str = event.value
    if plain_tag(text) not in BUILT_TAGS | {STR_TAG}:
        return _DEFER
    try:
        return plain_value(text)
    except Unbuildable as exc:
        raise YamlRefused("yaml-syntax", str(exc), line_at(data, event.start_mark.index)) from None


@dataclass
class _Into:
    """A collection being filled: where its next node goes, its depth, its place
    in document order and where it starts."""

    collection: dict[object, object] | list[object]
    depth: int
    order: int
    mark: StreamMark
    key: object = _NO_KEY
    """The key that waits for its value (a mapping's)."""

    def add(self, value: object) -> object:
        """Put ``value`` where the collection takes its next node; False where the
        safe loader would do more than this pass does (a collection as a key, which
        it turns into a tuple or refuses); :data:`_REPEATED` for a key the mapping
        already holds (the next value replaces its value: the document is refused
        anyway)."""
        if isinstance(self.collection, list):
            self.collection.append(value)
        elif self.key is _NO_KEY:
            if isinstance(value, dict | list):
                return False
            self.key = value
            if value in self.collection:
                return _REPEATED
        else:
            self.collection[self.key] = value
            self.key = _NO_KEY
        return True


@dataclass
class _Repeat:
    """The first key repeated in one mapping, as the safe loader reports it."""

    into: _Into
    """The mapping (kept: its id must not be reused by another when a later value
    replaces the one that held it)."""
    key_mark: StreamMark
    key: object
    original: str
    value: str | None = None

    def error(self) -> DuplicateKeyError:
        return DuplicateKeyError(
            "while constructing a mapping",
            self.into.mark,
            f'found duplicate key "{self.key}" with value "{self.value}" '
            f'(original value: "{self.original}")',
            self.key_mark,
        )


def _as_constructing(value: object) -> str:
    """A value as the safe loader shows it in a duplicate-key error: a mapping or
    sequence is still empty there (it is filled a level later)."""
    return "{}" if isinstance(value, dict) else "[]" if isinstance(value, list) else str(value)


def _build(data: bytes) -> object:
    """Read the bounded :func:`events` once and build the value as ruamel's safe
    loader would; :data:`_DEFER` (the events still read to the end, so the limits
    hold) for what this pass leaves to that loader.

    A key repeated in one mapping is the loader's ``DuplicateKeyError``, raised here
    for the mapping it would report: it fills mappings level by level (a document's
    top level first), each in document order."""
    building = True
    result: object = None
    documents = opened = 0
    open_: list[_Into] = []
    repeated: dict[int, _Repeat] = {}  # id(mapping) -> its first repeated key
    for event in events(data):
        if not building:
            continue
        value: object = _DEFER
        if type(event) is ScalarEvent:  # most events (libyaml's parser makes no subclass)
            if not (event.anchor or event.tag):
                value = _plain(data, event) if event.implicit[0] else event.value
            if value is not _DEFER and open_ and open_[-1].key is not _NO_KEY:
                open_[-1].add(value)  # a scalar value of a key: no check to make
                _value_of_repeated(repeated, open_[-1], value)
                continue
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            if not (event.anchor or event.tag):
                value = {} if isinstance(event, MappingStartEvent) else []
        elif isinstance(event, CollectionEndEvent):
            open_.pop()
            continue
        elif isinstance(event, DocumentStartEvent):
            documents += 1
            if documents == 1 and event.version is None and not event.tags:
                continue
        elif not isinstance(event, AliasEvent):
            continue  # the stream's start and end, a document's end
        if value is _DEFER:
            building = False
            continue
        added = open_[-1].add(value) if open_ else True
        if added is _REPEATED:
            into = open_[-1]
            if id(into.collection) not in repeated:
                assert isinstance(into.collection, dict)
                original = _as_constructing(into.collection[value])
                repeated[id(into.collection)] = _Repeat(into, event.start_mark, value, original)
        elif not added:
            building = False
            continue
        elif open_ and open_[-1].key is _NO_KEY:
            _value_of_repeated(repeated, open_[-1], value)
        if not open_:
            result = value
        if isinstance(value, dict | list):
            opened += 1
            open_.append(_Into(value, len(open_) + 1, opened, event.start_mark))
    if building and repeated:
        raise min(repeated.values(), key=lambda r: (r.into.depth, r.into.order)).error()
    return result if building else _DEFER


def _value_of_repeated(repeated: dict[int, _Repeat], into: _Into, value: object) -> None:
    """``value`` was just given to ``into``: the repeated key's value, when that key
    waited for it."""
    found = repeated.get(id(into.collection))
    if found is not None and found.value is None:
        found.value = _as_constructing(value)
