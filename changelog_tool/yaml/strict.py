"""A strict YAML loader built on ruamel.yaml's (C) event parser.

It builds plain Python values itself so that it can refuse, with positions,
what the changelog must never contain: anchors, aliases, explicit tags and
duplicate mapping keys. Plain scalars are read as ruamel.yaml's safe loader reads
them (:func:`~changelog_tool.yaml.items.plain_value`), as the master configs are.

Bounded work: the events come from the one bounded event source
(:func:`changelog_tool.yaml.limits.events`), so a document nested deeper than
:data:`~changelog_tool.yaml.limits.MAX_DEPTH` mappings and lists is refused at the
line where it gets too deep, before the rest is read (1,000 nested ``[`` would
overflow Python's recursion here and in every later walk). The changelog needs 3
levels (the list of entries, an entry, a list field). ``add --json`` holds its
input to the same limit. Aliases need no limit: the changelog refuses them.

Lines are counted as the :class:`~changelog_tool.ledger.document.Ledger` counts
them, by LF: libyaml also breaks lines at a lone CR, U+0085, U+2028 and U+2029, and
its line numbers would not point into the file's bytes.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from ruamel.yaml.error import MarkedYAMLError, StreamMark, YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    DocumentEndEvent,
    DocumentStartEvent,
    Event,
    MappingEndEvent,
    MappingStartEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
    StreamStartEvent,
)

from changelog_tool.yaml.items import Item, Unbuildable, YamlProblem, plain_value
from changelog_tool.yaml.limits import YamlRefused, events


class _Builder:
    def __init__(self, data: bytes | str, events: Iterator[Event], line_offset: int) -> None:
        self.events = events
        self.offset = line_offset
        text = data if isinstance(data, str) else data.decode("utf-8", "replace")
        self.breaks = [m.start() for m in re.finditer("\n", text.removeprefix("\ufeff"))]

    def mark_line(self, mark: StreamMark | None) -> int:
        """The 1-based line (LF-separated, shifted by the offset) of a parser mark."""
        index = mark.index if mark is not None else 0
        return bisect_right(self.breaks, index - 1) + 1 + self.offset

    def line(self, event: Event) -> int:
        return self.mark_line(event.start_mark)

    def check(self, event: Event) -> None:
        anchor = getattr(event, "anchor", None)
        if anchor is not None:
            raise YamlProblem(
                "yaml-alias",
                f"YAML anchor &{anchor} is not allowed in the changelog; write the value out",
                self.line(event),
            )
        tag = getattr(event, "tag", None)
        if tag is not None and not (isinstance(event, ScalarEvent) and tag == "!"):
            raise YamlProblem(
                "yaml-tag",
                f"YAML tag {tag} is not allowed in the changelog; remove it",
                self.line(event),
            )

    def value(self, event: Event) -> object:
        if isinstance(event, AliasEvent):
            raise YamlProblem(
                "yaml-alias",
                f"YAML alias *{event.anchor} is not allowed in the changelog; write the value out",
                self.line(event),
            )
        self.check(event)
        if isinstance(event, ScalarEvent):
            plain = event.style in (None, "") and event.implicit[0]
            if not plain:
                return event.value
            try:
                return plain_value(event.value)
            except Unbuildable as exc:
                raise YamlProblem("yaml-syntax", str(exc), self.line(event)) from None
        if isinstance(event, SequenceStartEvent):
            items: list[object] = []
            for child in self.events:
                if isinstance(child, SequenceEndEvent):
                    return items
                items.append(self.value(child))
        if isinstance(event, MappingStartEvent):
            return self.mapping(event)[0]
        raise YamlProblem("yaml-syntax", f"unexpected YAML event {event!r}", self.line(event))

    def mapping(self, start: Event) -> tuple[dict[object, object], dict[str, int]]:
        result: dict[object, object] = {}
        lines: dict[str, int] = {}
        for key_event in self.events:
            if isinstance(key_event, MappingEndEvent):
                return result, lines
            key = self.value(key_event)
            if isinstance(key, list | dict):
                raise YamlProblem(
                    "yaml-syntax", "a mapping key must be a scalar", self.line(key_event)
                )
            if key in result:
                raise YamlProblem(
                    "duplicate-yaml-key",
                    f"duplicate key {key!r} (first on line {lines[str(key)]}); keep only one",
                    self.line(key_event),
                )
            lines[str(key)] = self.line(key_event)
            value_event = next(self.events)
            if isinstance(value_event, SequenceStartEvent):
                self.check(value_event)
                items: list[object] = []
                for child in self.events:
                    if isinstance(child, SequenceEndEvent):
                        break
                    lines[f"{key}/{len(items)}"] = self.line(child)
                    items.append(self.value(child))
                result[key] = items
            else:
                result[key] = self.value(value_event)
        raise YamlProblem("yaml-syntax", "unterminated mapping", self.line(start))


def load_items(data: bytes | str, line_offset: int = 0) -> list[Item] | object:
    """Parse one YAML document.

    Returns a list of :class:`Item` when the root is a sequence, else the root
    value itself. ``line_offset`` shifts every reported line (for parsing a
    slice of a larger file). Raises :class:`YamlProblem`.
    """
    builder = _Builder(data, events(data, needs="an entry needs 3"), line_offset)
    root: object = None
    try:
        for event in builder.events:
            if isinstance(event, StreamStartEvent | DocumentStartEvent):
                if isinstance(event, DocumentStartEvent) and root is not None:
                    raise YamlProblem(
                        "yaml-syntax", "more than one YAML document", builder.line(event)
                    )
                continue
            if isinstance(event, DocumentEndEvent | StreamEndEvent):
                continue
            if isinstance(event, SequenceStartEvent):
                builder.check(event)
                items: list[Item] = []
                root = items
                for child in builder.events:
                    if isinstance(child, SequenceEndEvent):
                        break
                    line = builder.line(child)
                    if isinstance(child, MappingStartEvent):
                        builder.check(child)
                        value, key_lines = builder.mapping(child)
                        items.append(Item(value, line, key_lines))
                    else:
                        items.append(Item(builder.value(child), line, {}))
            else:
                root = builder.value(event)
    except YamlRefused as exc:
        raise YamlProblem(exc.code, exc.message, exc.line + line_offset) from None
    except MarkedYAMLError as exc:
        line = builder.mark_line(exc.problem_mark or exc.context_mark)
        problem = exc.problem or exc.context or "invalid YAML"
        raise YamlProblem("yaml-syntax", f"{problem}", line) from None
    except YAMLError as exc:
        raise YamlProblem("yaml-syntax", str(exc).strip(), 1 + line_offset) from None
    return root


def load_value(data: bytes | str) -> object:
    """Parse a document into plain values (sequence items unwrapped)."""
    root = load_items(data)
    if isinstance(root, list):
        return [item.value if isinstance(item, Item) else item for item in root]
    return root
