"""The mappings of a YAML file as the lints see them: nodes from the bounded events, unresolved,
with lines, merge keys and anchors; each numbered once from its children, so equal numbers are
equal values across files read with one :class:`Values`."""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field

from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    MappingStartEvent,
    ScalarEvent,
)

from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.limits import events

MAX_NODES = 200_000


@dataclass(frozen=True)
class Key:
    name: str
    line: int  # 1-based


@dataclass
class Mapping:
    """One YAML mapping: each field's value number, its own, its scalars' lengths."""

    path: tuple[str, ...]
    line: int
    keys: list[Key] = field(default_factory=list)
    merges: bool = False
    merged: list[str] = field(default_factory=list)
    anchor: str | None = None
    merged_from: list[str] = field(default_factory=list)
    fields: dict[str, int] = field(default_factory=dict)
    lengths: dict[str, int] = field(default_factory=dict)
    value: int = -1


class Values:
    """Numbers for values, equal for equal values across every file read with one instance."""

    def __init__(self) -> None:
        self._known: dict[Hashable, int] = {}
        self._shapes: list[Hashable] = []

    def number(self, shape: Hashable) -> int:
        """``shape``: ``("s", text)``, ``("q", item numbers)`` or ``("m", frozenset of (key,
        number))``."""
        found = self._known.get(shape)
        if found is None:
            found = self._known[shape] = len(self._shapes)
            self._shapes.append(shape)
        return found

    def shape(self, number: int) -> Hashable:
        return self._shapes[number]


_MERGE = "tag:yaml.org,2002:merge"


@dataclass(slots=True)
class _Node:
    """A node: a scalar's ``text`` or a collection's ``nodes``, its 0-based line."""

    kind: str
    line: int
    text: str = ""
    merge: bool = False
    anchor: str | None = None
    nodes: list[_Node] = field(default_factory=list)

    def pairs(self) -> Iterator[tuple[_Node, _Node]]:
        return zip(self.nodes[::2], self.nodes[1::2], strict=True)


def mappings(data: bytes, line_offset: int = 0, *, values: Values | None = None) -> list[Mapping]:
    """Every mapping in ``data``, outermost first, numbered in ``values`` (comparable across
    files read with one). Raises :class:`YamlProblem` for a file the lints cannot read (the
    other checks say why)."""
    try:
        root = _compose(data)
    except (YAMLError, ValueError) as exc:
        raise YamlProblem("yaml-syntax", str(exc)) from None
    if root is None:
        return []
    walk = _Walk(line_offset, values or Values())
    walk.node(root, (), None)
    return walk.out


def _compose(data: bytes) -> _Node | None:
    """The root node; aliases share the node they name."""
    anchors: dict[str, _Node] = {}
    open_: list[_Node] = []
    root: _Node | None = None
    documents = 0
    for event in events(data):
        if isinstance(event, ScalarEvent):
            value, tag = event.value, event.tag
            merge = tag == _MERGE if tag is not None else value == "<<" and event.implicit[0]
            node = _Node("scalar", event.start_mark.line, value, merge, event.anchor)
        elif isinstance(event, CollectionStartEvent):
            kind = "mapping" if isinstance(event, MappingStartEvent) else "sequence"
            node = _Node(kind, event.start_mark.line, anchor=event.anchor)
        elif isinstance(event, AliasEvent):
            if event.anchor not in anchors:
                raise YamlProblem("yaml-syntax", f"found undefined alias {event.anchor!r}")
            node = anchors[event.anchor]  # shared, not opened again
        elif isinstance(event, CollectionEndEvent):
            open_.pop()
            continue
        elif isinstance(event, DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise YamlProblem("yaml-syntax", "expected a single document in the stream")
            continue
        else:
            continue
        if node.anchor is not None:
            anchors[node.anchor] = node
        if open_:
            open_[-1].nodes.append(node)
        else:
            root = node
        if node.kind != "scalar" and not isinstance(event, AliasEvent):
            open_.append(node)
    return root


class _Walk:
    """One pass over the tree: each node once, mappings in start order, within the budget."""

    def __init__(self, offset: int, values: Values) -> None:
        self.offset = offset
        self.values = values
        self.out: list[Mapping] = []
        self.numbers: dict[int, int] = {}
        self.budget = MAX_NODES

    def node(self, node: _Node, path: tuple[str, ...], at: int | None) -> int:
        """The value number; ``at``: the line of the key naming it."""
        known = self.numbers.get(id(node))
        if known is not None:
            return known
        self.numbers[id(node)] = -1  # visited: an alias met again gives no second walk
        self._spend(1)
        if node.kind == "mapping":
            number = self._mapping(node, path, at)
        elif node.kind == "sequence":
            items = tuple(
                self.node(item, (*path, f"[{index}]"), None)
                for index, item in enumerate(node.nodes)
            )
            number = self.values.number(("q", items))
        else:
            number = self.values.number(("s", node.text))
        self.numbers[id(node)] = number
        return number

    def _spend(self, nodes: int) -> None:
        self.budget -= nodes
        if self.budget < 0:
            raise YamlProblem("yaml-syntax", f"more than {MAX_NODES} YAML nodes")

    def _mapping(self, node: _Node, path: tuple[str, ...], at: int | None) -> int:
        found = Mapping(path, at if at is not None else node.line + 1 + self.offset)
        found.anchor = node.anchor
        self.out.append(found)
        numbers = self.numbers
        for key, value in node.pairs():
            if key.merge:
                found.merges = True
                for source in value.nodes if value.kind == "sequence" else [value]:
                    if source.anchor is not None:
                        found.merged_from.append(source.anchor)
                    if source.kind == "mapping":  # its names are counted against the budget
                        found.merged += [_name(k) for k, _ in source.pairs() if not k.merge]
                        self._spend(len(source.nodes) // 2)
                found.fields["<<"] = self.node(value, (*path, "<<"), None)
                continue
            name = _name(key)
            key_line = key.line + 1 + self.offset
            found.keys.append(Key(name, key_line))
            if value.kind != "scalar":
                found.fields[name] = self.node(value, (*path, name), key_line)
            elif id(value) in numbers:  # an alias of a scalar met before
                found.fields[name] = numbers[id(value)]
            else:  # the common case, without a call
                self._spend(1)
                found.fields[name] = numbers[id(value)] = self.values.number(("s", value.text))
                found.lengths[name] = len(value.text)
        found.value = self.values.number(("m", frozenset(found.fields.items())))
        return found.value


def _name(key: _Node) -> str:
    return key.text if key.kind == "scalar" else "?"
