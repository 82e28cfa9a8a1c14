"""Values built in one pass over the bounded events, as ruamel's safe loader builds them: the
master configs' loader (:func:`load`, deferring anchors, tags and the like to ruamel) and the
changelog's strict pass (refusing them)."""

from __future__ import annotations

import re
from bisect import bisect_right
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

from changelog_tool.yaml.items import (
    BUILT_TAGS,
    STR_TAG,
    Item,
    YamlProblem,
    plain_tag,
    plain_value,
)
from changelog_tool.yaml.limits import MASTER_NEEDS, events

_DEFER = object()  # a document left to ruamel's loader
_NO_KEY = object()


def load(data: bytes) -> object:
    value = build(data)
    return YAML(typ="safe", pure=False).load(data) if value is _DEFER else value


@dataclass
class _Into:
    """A collection being filled: the key awaiting a value and (strict) key or item lines."""

    collection: dict[object, object] | list[object]
    depth: int
    order: int
    mark: StreamMark
    key: object = _NO_KEY
    lines: dict[str, int] | None = None
    prefix: str = ""
    as_key: bool = False  # a mapping's key (strict: refused once read)


def build(data: bytes | str, *, strict: bool = False, offset: int = 0) -> object:
    """The value of the bounded :func:`events` as ruamel's safe loader builds it. Not ``strict``:
    :data:`_DEFER` for what is left to that loader, or the ``DuplicateKeyError`` it would raise.
    ``strict``: the root (a sequence's as :class:`Item` s, lines shifted by ``offset``),
    refusing anchors, aliases, tags, complex or repeated keys and a second document
    (:class:`YamlProblem`)."""
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    breaks = [m.start() for m in re.finditer("\n", text.removeprefix("\ufeff"))]

    def line(mark: StreamMark) -> int:  # counting LF only, as ``limits.line_at``
        return bisect_right(breaks, mark.index - 1) + 1

    items: list[Item] = []
    result: object = None
    documents = opened = 0
    open_: list[_Into] = []
    # id(mapping) -> its first repeated key (the _Into kept, so that no other takes its id)
    repeated: dict[int, tuple[_Into, StreamMark, object]] = {}
    stream = events(data, needs="an entry needs 3" if strict else MASTER_NEEDS)
    for event in stream:
        value: object = _DEFER
        if type(event) is ScalarEvent:  # most events (libyaml's parser makes no subclass)
            if not (event.anchor or event.tag) or (
                strict and event.tag == "!" and not event.anchor
            ):
                scalar: str = event.value
                if not event.implicit[0]:
                    value = scalar
                elif strict or plain_tag(scalar) in BUILT_TAGS | {STR_TAG}:
                    try:
                        value = plain_value(scalar)
                    except YamlProblem as exc:
                        exc.line = line(event.start_mark)
                        raise
            into = open_[-1] if open_ else None
            if value is not _DEFER and into is not None and into.key is not _NO_KEY:
                into.collection[into.key] = value  # type: ignore[call-overload]
                into.key = _NO_KEY  # a scalar value of a key: no check to make
                continue
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            if not (event.anchor or event.tag):
                value = {} if isinstance(event, MappingStartEvent) else []
        elif isinstance(event, CollectionEndEvent):
            done = open_.pop()
            if done.as_key:
                raise YamlProblem("yaml-syntax", "a mapping key must be a scalar", line(done.mark))
            continue
        elif isinstance(event, DocumentStartEvent):
            documents += 1
            if strict and result is not None:
                where = line(event.start_mark)
                raise YamlProblem("yaml-syntax", "more than one YAML document", where)
            if strict or (documents == 1 and event.version is None and not event.tags):
                continue
        elif not isinstance(event, AliasEvent):
            continue  # the stream's start and end, a document's end
        if value is _DEFER:
            if not strict:
                break
            anchor, tag = getattr(event, "anchor", None), getattr(event, "tag", None)
            where = line(event.start_mark)
            if isinstance(event, AliasEvent) or anchor is not None:
                kind = "alias *" if isinstance(event, AliasEvent) else "anchor &"
                why = f"YAML {kind}{anchor} is not allowed in the changelog; write the value out"
                raise YamlProblem("yaml-alias", why, where)
            why = f"YAML tag {tag} is not allowed in the changelog; remove it"
            raise YamlProblem("yaml-tag", why, where)
        into, key, as_key = (open_[-1] if open_ else None), _NO_KEY, False
        if into is None:
            result = value
        elif isinstance(into.collection, list):
            if into.lines is not None:
                where = line(event.start_mark) + offset
                into.lines[f"{into.prefix}{len(into.collection)}"] = where
            into.collection.append(value)
        elif into.key is _NO_KEY:
            if isinstance(value, dict | list):
                if not strict:
                    break  # the safe loader makes a tuple of it, or refuses it
                as_key = True
            elif value in into.collection:
                if strict:
                    first = into.lines[str(value)] if into.lines is not None else 0
                    raise YamlProblem(
                        "duplicate-yaml-key",
                        f"duplicate key {value!r} (first on line {first}); keep only one",
                        line(event.start_mark),
                    )
                repeated.setdefault(id(into.collection), (into, event.start_mark, value))
            elif into.lines is not None:
                into.lines[str(value)] = line(event.start_mark) + offset
            into.key = value
        else:
            key, into.key = into.key, _NO_KEY
            into.collection[key] = value
        lines: dict[str, int] | None = {} if strict and isinstance(value, dict) else None
        if strict and into is not None and len(open_) == 1 and isinstance(into.collection, list):
            where = line(event.start_mark) + offset
            items.append(Item(value, where, {} if lines is None else lines))
        if isinstance(value, dict | list):
            opened += 1
            nested = _Into(value, len(open_) + 1, opened, event.start_mark, lines=lines)
            nested.as_key = as_key
            if strict and isinstance(value, list) and key is not _NO_KEY and into is not None:
                nested.lines, nested.prefix = into.lines, f"{key}/"
            open_.append(nested)
    else:
        if strict:
            return items if isinstance(result, list) else result
        if repeated:  # the key and line of the mapping ruamel's loader fills first
            mapping, mark, key = min(repeated.values(), key=lambda r: (r[0].depth, r[0].order))
            problem = f'found duplicate key "{key}"'
            raise DuplicateKeyError("while constructing a mapping", mapping.mark, problem, mark)
        return result
    for _ in stream:  # the rest is read: the limits hold to the end
        pass
    return _DEFER
