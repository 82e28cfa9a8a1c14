"""Bounded work on master-config and recipe YAML: the limits, the event scan that
enforces them before any value is built, and the one loader that runs after it.

The branch under review supplies these files, so they may be hostile. Two shapes
cost far more than their bytes:

- **Alias expansion** (billion laughs): ``&a0 [x]``, ``&a1 [*a0, *a0, ...]``, ...
  A 437-byte file stands for hundreds of millions of nodes. The loader shares
  aliased values, but every walk over them (comparing two versions, looking for
  recipe references) visits each copy, for minutes. The scan adds up, for each
  alias, the size of the node it repeats (aliases inside that node included) and
  refuses the document once aliases have added more than :data:`MAX_ALIAS_NODES`
  nodes to what is written out: a ``yaml-alias`` problem at the alias's line.
- **Nesting**: 1,000 nested ``[`` overflow Python's recursion in any recursive
  walk (``==`` included); 100,000 crash the C loader outright. The scan refuses a
  node deeper than :data:`MAX_DEPTH` collections, counting what an alias repeats
  at the depth where it is used: a ``yaml-syntax`` problem at that line.

The scan reads libyaml's events one at a time and stops at the first excess, so
its own work is bounded too (libyaml's cost on deep nesting grows with the depth
it reaches).

Why these numbers: over the InferenceX history (580 versions of its master
configs, 442 of its recipes, November 2025 to June 2026) the deepest node is 9
collections down (amd-master.yaml), the largest document has 29,934 nodes
(nvidia-master.yaml, 435 KB) and no file uses a single anchor or alias. A depth of
100 is 11 times the real maximum; 100,000 nodes added by aliases is more than three
times the largest real file written out in full, for a feature no real file uses.
The limit counts only what aliases add, so an honest file that grows large is never
refused for its size; the nodes it writes out cost no more than its bytes.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruamel.yaml.constructor import SafeConstructor
    from ruamel.yaml.events import Event, ScalarEvent
    from ruamel.yaml.main import YAML
    from ruamel.yaml.resolver import VersionedResolver

MAX_DEPTH = 100
"""Nested collections (mappings and sequences) in one document, the root counting 1."""
MAX_ALIAS_NODES = 100_000
"""Nodes that aliases may add to a document beyond the nodes it writes out."""


class YamlRefused(Exception):
    """A document refused before its value is built: it breaks one of the limits, or
    holds a plain scalar no reader can build (``2025-13-01`` reads as a date and is
    none). ``line`` is 1-based (LF-separated lines)."""

    def __init__(self, code: str, message: str, line: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line


@dataclass
class _Open:
    """A collection the scan is inside: its anchor, where its count began, its depth
    and the deepest level reached below it."""

    anchor: str | None
    start: int
    depth: int
    deepest: int = field(default=0)


_local = threading.local()


def load(data: bytes) -> object:
    """The document's value: one pass over libyaml's events that enforces the limits
    and builds the value, or, for a document that pass leaves to it (see
    :func:`_build`), the limits' pass and then ruamel's C-backed safe loader (one per
    thread: the TUI diffs in a worker thread). Either way the value is the one
    ruamel's safe loader builds. Raises :class:`YamlRefused` or ruamel's
    ``YAMLError``."""
    value = _build(data)
    if value is not _DEFER:
        return value
    return _tools().loader.load(data)


def line_at(data: bytes | str, index: int) -> int:
    """The 1-based line of a parser mark's character ``index``, counting LF only (as git,
    editors' line numbers on LF files and the byte scan do; libyaml's own line also
    counts a lone CR, U+0085, U+2028 and U+2029)."""
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    return text.removeprefix("\ufeff").count("\n", 0, max(index, 0)) + 1


def scan(data: bytes) -> None:
    """Raise :class:`YamlRefused` at the first node past a limit. Syntax errors are
    raised as ruamel's own ``YAMLError`` (the loader would raise the same)."""
    for _ in events(data):
        pass


MASTER_NEEDS = "a master config needs about 10: flatten it"


def events(data: bytes | str, needs: str = MASTER_NEEDS) -> Iterator[Event]:
    """libyaml's events for ``data``, raising :class:`YamlRefused` at the first node
    past a limit (before any event of that node is given), and ruamel's own
    ``YAMLError`` at a syntax error. ``needs``: what a document of this kind needs,
    said when one is too deep. The one event source of every YAML reader here."""
    # deferred (and below): ruamel.yaml costs ~11 ms of `log`, which imports this without parsing
    from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]  # libyaml's, untyped
    from ruamel.yaml.events import (
        AliasEvent,
        CollectionEndEvent,
        CollectionStartEvent,
        ScalarEvent,
    )

    parser = CParser(data)
    sizes: dict[str, tuple[int, int]] = {}  # anchor -> (expanded nodes, height)
    unclosed: set[str] = set()  # anchors whose newest node is a collection still open
    stack: list[_Open] = []
    written = expanded = 0
    try:
        while parser.check_event():
            event = parser.get_event()
            if type(event) is ScalarEvent and event.anchor is None:
                # most events: one node, one level below an open collection (whose
                # depth was checked and whose deepest level is at least this one)
                written += 1
                expanded += 1
                yield event
                continue
            if isinstance(event, ScalarEvent | AliasEvent):
                size, height = (1, 0)
                if isinstance(event, AliasEvent):
                    if event.anchor in unclosed:
                        raise YamlRefused(
                            "yaml-alias",
                            f"the alias *{event.anchor} is inside the collection it names "
                            f"(&{event.anchor}): a value that holds itself, which no "
                            "config can mean; write the values out",
                            line_at(data, event.start_mark.index),
                        )
                    size, height = sizes.get(event.anchor, (1, 0))
                elif event.anchor is not None:
                    sizes[event.anchor] = (1, 0)
                    unclosed.discard(event.anchor)
                written += 1
                expanded += size
                reach = len(stack) + height
                if stack:
                    stack[-1].deepest = max(stack[-1].deepest, reach)
                if expanded - written > MAX_ALIAS_NODES:
                    raise YamlRefused(
                        "yaml-alias",
                        f"aliases expand this document by more than {MAX_ALIAS_NODES:,} "
                        f"nodes (alias *{event.anchor}); a master config needs no such "
                        "repetition: write the values out or repeat less",
                        line_at(data, event.start_mark.index),
                    )
                if reach > MAX_DEPTH:
                    raise _too_deep(data, event, needs)
            elif isinstance(event, CollectionStartEvent):
                depth = len(stack) + 1
                if depth > MAX_DEPTH:
                    raise _too_deep(data, event, needs)
                stack.append(_Open(event.anchor, expanded, depth, depth))
                if event.anchor is not None:
                    unclosed.add(event.anchor)
                written += 1
                expanded += 1
            elif isinstance(event, CollectionEndEvent):
                done = stack.pop()
                if stack:
                    stack[-1].deepest = max(stack[-1].deepest, done.deepest)
                if done.anchor is not None:
                    sizes[done.anchor] = (expanded - done.start, done.deepest - done.depth + 1)
                    unclosed.discard(done.anchor)
            yield event
    finally:
        parser.dispose()


BUILD_ERRORS: tuple[type[Exception], ...] = (ValueError, LookupError, TypeError, ArithmeticError)
"""What ruamel's constructors raise, besides its own errors, on a value its tag says
it is and it is not (``2025-13-01``, ``!!bool "abc"``, ``!!int ""``)."""


def build_error(exc: Exception) -> str:
    """What a constructor's error says, in the terms of a config (not Python's advice
    on ``sys.set_int_max_str_digits``)."""
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        return f"a number of more than {sys.get_int_max_str_digits():,} digits"
    return str(exc)


def clipped(text: str, width: int = 60) -> str:
    """``repr(text)``, cut to about ``width`` characters with its length said."""
    shown = repr(text)
    return shown if len(shown) <= width else f"{shown[: width - 20]}... ({len(text):,} characters)"


_DEFER = object()
"""What :func:`_build` returns for a document it leaves to ruamel's loader."""
_NO_KEY = object()
_STR_TAG = "tag:yaml.org,2002:str"
_SCALAR_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "timestamp")
)
_PLAIN_CACHE_SIZE = 4096


@dataclass
class _Tools:
    """ruamel's safe loader, and its resolver and constructor for single scalars."""

    loader: YAML
    resolver: VersionedResolver
    constructor: SafeConstructor
    first_chars: frozenset[str]
    """The first characters of a plain scalar that the resolver may read as other
    than a string (all others are strings, by the resolver's own index)."""
    resolved: dict[str, object]


def _tools() -> _Tools:
    tools: _Tools | None = getattr(_local, "tools", None)
    if tools is None:
        from ruamel.yaml import YAML  # deferred: see events

        loader = YAML(typ="safe", pure=False)
        resolver = loader.resolver
        index = resolver.versioned_resolver
        if None in index:  # pragma: no cover - no resolver of ruamel's 1.2 set matches any start
            raise RuntimeError("ruamel.yaml's resolver has a catch-all implicit resolver")
        tools = _local.tools = _Tools(loader, resolver, loader.constructor, frozenset(index), {})
    return tools


def _plain(data: bytes, event: ScalarEvent, tools: _Tools) -> object:
    """A plain scalar's value, as ruamel's safe loader builds it: its own resolver
    names the tag and its own constructor builds the value (cached: ``8`` and
    ``true`` recur). :data:`_DEFER` for a tag beyond null, bool, int, float and
    timestamp (``<<``, ``=``). Where the constructor raises one of
    :data:`BUILD_ERRORS` (``2025-13-01``), :class:`YamlRefused` at the scalar's line."""
    text: str = event.value
    if text[:1] not in tools.first_chars and text:
        return text
    if text.isdigit() and text.isascii() and text[0] != "0" and len(text) < 19:
        return int(text)  # a plain decimal: what the resolver and constructor make of it
    found = tools.resolved.get(text, _NO_KEY)
    if found is not _NO_KEY:
        return found
    from ruamel.yaml.nodes import ScalarNode  # deferred: see events

    tag = str(tools.resolver.resolve(ScalarNode, text, (True, False)))
    if tag == _STR_TAG:
        value: object = text
    elif tag in _SCALAR_TAGS:
        try:
            value = tools.constructor.construct_non_recursive_object(ScalarNode(tag, text))
        except BUILD_ERRORS as exc:
            kind = tag.rsplit(":", 1)[1]
            raise YamlRefused(
                "yaml-syntax",
                f"{clipped(text)} reads as a YAML {kind} but is not a valid one "
                f"({build_error(exc)}); quote it to keep it as text",
                line_at(data, event.start_mark.index),
            ) from None
    else:
        return _DEFER
    if len(tools.resolved) < _PLAIN_CACHE_SIZE and value == value:  # a NaN is built anew
        tools.resolved[text] = value
    return value


def _build(data: bytes) -> object:
    """Read the bounded :func:`events` once and build the value as ruamel's safe
    loader would. :data:`_DEFER` (the events still read to the end, so the limits
    hold) for what this pass leaves to that loader: anchors and aliases (merge keys
    come with them), explicit tags, ``%YAML``/``%TAG`` directives, a second document,
    a collection as a mapping key, and plain scalars of other tags. The loader then
    builds the value or raises its own error, so both ways agree on every document.

    A key repeated in one mapping is the loader's ``DuplicateKeyError``, raised here
    for the mapping it would report: it fills mappings level by level (a document's
    top level first), each in document order (the loader's own search for it is slow
    on a large mapping: docs/performance.md)."""
    from ruamel.yaml.events import (  # deferred: see events
        AliasEvent,
        CollectionEndEvent,
        DocumentStartEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceStartEvent,
    )

    tools: _Tools | None = _tools()
    result: object = None
    documents = 0
    opened = 0  # collections so far, in document order
    # [collection, the key that waits for its value, depth, order, start mark]
    open_: list[list[Any]] = []
    repeated: dict[int, list[Any]] = {}  # id(mapping) -> its first repeated key
    for event in events(data):
        if tools is None:
            continue
        value: object = _DEFER
        if type(event) is ScalarEvent:  # most events (libyaml's parser makes no subclass)
            if not (event.anchor or event.tag):
                value = _plain(data, event, tools) if event.implicit[0] else event.value
            if value is not _DEFER and open_ and open_[-1][1] is not _NO_KEY:
                into = open_[-1]  # a scalar value of a key: no check to make
                into[0][into[1]] = value
                into[1] = _NO_KEY
                if id(into[0]) in repeated and repeated[id(into[0])][-1] is None:
                    repeated[id(into[0])][-1] = _as_constructing(value)
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
            tools = None
            continue
        added = _add(open_, value)
        if added is _REPEATED:
            into = open_[-1]
            if id(into[0]) not in repeated:
                original = _as_constructing(into[0][value])
                # (the mapping itself is kept too: its id must not be reused by another
                # when a later value replaces the one that held it)
                found = [*into[2:5], event.start_mark, value, original, into[0], None]
                repeated[id(into[0])] = found
        elif not added:
            tools = None
            continue
        elif open_ and open_[-1][1] is _NO_KEY and id(open_[-1][0]) in repeated:
            found = repeated[id(open_[-1][0])]
            if found[-1] is None:  # the value of the repeated key
                found[-1] = _as_constructing(value)
        if not open_:
            result = value
        if isinstance(value, dict | list):
            opened += 1
            open_.append([value, _NO_KEY, len(open_) + 1, opened, event.start_mark])
    if tools is not None and repeated:
        raise _repeated_key(min(repeated.values(), key=lambda found: found[:2]))
    return result if tools is not None else _DEFER


_REPEATED = object()
"""What :func:`_add` returns for a key its mapping already holds."""


def _as_constructing(value: object) -> str:
    """A value as the safe loader shows it in a duplicate-key error: a mapping or
    sequence is still empty there (it is filled a level later)."""
    return "{}" if isinstance(value, dict) else "[]" if isinstance(value, list) else str(value)


def _repeated_key(found: list[Any]) -> Exception:
    """The safe loader's error for a key repeated in one mapping."""
    from ruamel.yaml.constructor import DuplicateKeyError  # deferred: see events

    _depth, _order, mapping_mark, key_mark, key, original, _mapping, value = found
    return DuplicateKeyError(
        "while constructing a mapping",
        mapping_mark,
        f'found duplicate key "{key}" with value "{value}" (original value: "{original}")',
        key_mark,
    )


def _add(open_: list[list[Any]], value: object) -> object:
    """Put ``value`` where the open collection takes its next node; False where the
    safe loader would do more than this pass does (a collection as a key, which it
    turns into a tuple or refuses); :data:`_REPEATED` for a key the mapping already
    holds (the next value replaces its value: the document is refused anyway)."""
    if not open_:
        return True
    into = open_[-1]
    collection, key = into[0], into[1]
    if isinstance(collection, list):
        collection.append(value)
    elif key is _NO_KEY:
        if isinstance(value, dict | list):
            return False
        into[1] = value
        if value in collection:
            return _REPEATED
    else:
        collection[key] = value
        into[1] = _NO_KEY
    return True


def _too_deep(data: bytes | str, event: object, needs: str) -> YamlRefused:
    mark = getattr(event, "start_mark", None)
    return YamlRefused(
        "yaml-syntax",
        f"nested deeper than {MAX_DEPTH} levels of mappings and lists (aliases included); {needs}",
        line_at(data, mark.index if mark is not None else 0),
    )
