"""The mappings of a YAML file as the lints see them (pure).

A file is read as a tree of nodes from libyaml's events (bounded by the limits of
:mod:`changelog_tool.diff.limits`, and not constructed: no scalar is resolved), so
every mapping keeps its line, its keys keep theirs, and a merge key (``<<``) stays
visible.
Anchored nodes that aliases share are visited once, and nesting is bounded, so
a hostile file costs bounded work. Keys inside strings (a JSON blob, a
``KEY=value`` setting) are not mapping keys and never appear here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from changelog_tool.records import field, record

MAX_DEPTH = 100
MAX_NODES = 200_000


@record(frozen=True)
class Key:
    name: str
    line: int  # 1-based


@record
class Mapping:
    """One YAML mapping: where it is (its path of keys from the root), its line,
    its keys in order, whether it uses a merge key, and its leaves flattened
    (``a.b`` -> a comparable value) for comparing sibling blocks."""

    path: tuple[str, ...]
    line: int
    keys: list[Key] = field(default_factory=list)
    merges: bool = False
    leaves: dict[str, Any] = field(default_factory=dict)


class Unreadable(Exception):
    """The file is not YAML the lints can read; the other checks report why."""


_MERGE = "tag:yaml.org,2002:merge"


class _Node:
    """A node as the lints see it: ``kind`` scalar, mapping or sequence; a scalar's
    text, or a collection's nodes (a mapping's keys and values alternate); its
    0-based line; whether a key is a merge key."""

    __slots__ = ("kind", "line", "merge", "value")

    def __init__(self, kind: str, value: Any, line: int, merge: bool = False) -> None:
        self.kind = kind
        self.value = value
        self.line = line
        self.merge = merge

    def pairs(self) -> Iterator[tuple[_Node, _Node]]:
        return zip(self.value[::2], self.value[1::2], strict=True)


def mappings(data: bytes, line_offset: int = 0, *, leaves: bool = True) -> list[Mapping]:
    """Every mapping in ``data`` (a single document), outermost first; ``leaves``:
    also flatten each mapping's leaves (only the repeated-block lint needs them)."""
    from ruamel.yaml.error import YAMLError

    from changelog_tool.diff.limits import YamlRefused

    try:
        root = _compose(data)
    except YamlRefused as exc:
        raise Unreadable(str(exc)) from None
    except (YAMLError, RecursionError, ValueError) as exc:
        raise Unreadable(str(exc).splitlines()[0] if str(exc) else "invalid YAML") from None
    if root is None:
        return []
    out: list[Mapping] = []
    seen: set[int] = set()
    budget = [MAX_NODES]
    _walk(root, (), out, seen, budget, line_offset, 0, None, leaves)
    return out


def _compose(data: bytes) -> _Node | None:
    """The document's root node; aliases share the node they name."""
    from ruamel.yaml.events import (
        AliasEvent,
        CollectionEndEvent,
        DocumentStartEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceStartEvent,
    )

    from changelog_tool.diff.limits import events

    anchors: dict[str, _Node] = {}
    open_: list[_Node] = []
    root: _Node | None = None
    documents = 0
    for event in events(data):
        if isinstance(event, ScalarEvent):
            merge = event.tag == _MERGE or (
                event.tag is None and event.implicit[0] and event.value == "<<"
            )
            node = _Node("scalar", event.value, event.start_mark.line, merge)
        elif isinstance(event, MappingStartEvent | SequenceStartEvent):
            kind = "mapping" if isinstance(event, MappingStartEvent) else "sequence"
            node = _Node(kind, [], event.start_mark.line)
        elif isinstance(event, AliasEvent):
            found = anchors.get(event.anchor)
            if found is None:
                raise Unreadable(f"found undefined alias {event.anchor!r}")
            node = found
        elif isinstance(event, CollectionEndEvent):
            open_.pop()
            continue
        elif isinstance(event, DocumentStartEvent):
            documents += 1
            if documents > 1:
                raise Unreadable("expected a single document in the stream")
            continue
        else:
            continue
        if not isinstance(event, AliasEvent) and event.anchor is not None:
            anchors[event.anchor] = node
        if open_:
            open_[-1].value.append(node)
        else:
            root = node
        if node.kind != "scalar" and not isinstance(event, AliasEvent):
            open_.append(node)
    return root


def _walk(
    node: _Node,
    path: tuple[str, ...],
    out: list[Mapping],
    seen: set[int],
    budget: list[int],
    offset: int,
    depth: int,
    at: int | None = None,
    flatten: bool = True,
) -> None:
    """``at``: the line of the key that names this node (a block is where it is named)."""
    if id(node) in seen or depth > MAX_DEPTH:
        return
    seen.add(id(node))
    budget[0] -= 1
    if budget[0] < 0:
        raise Unreadable(f"more than {MAX_NODES} YAML nodes")
    if node.kind == "mapping":
        found = Mapping(path, at if at is not None else node.line + 1 + offset)
        out.append(found)
        for key, value in node.pairs():
            if key.merge:
                found.merges = True
                continue
            name = str(key.value) if key.kind == "scalar" else "?"
            key_line = key.line + 1 + offset
            found.keys.append(Key(name, key_line))
            if flatten:
                for leaf, leaf_value in _leaves(value, name, depth, budget):
                    found.leaves[leaf] = leaf_value
            _walk(value, (*path, name), out, seen, budget, offset, depth + 1, key_line, flatten)
    elif node.kind == "sequence":
        for index, item in enumerate(node.value):
            _walk(item, (*path, f"[{index}]"), out, seen, budget, offset, depth + 1, None, flatten)


def _leaves(node: _Node, prefix: str, depth: int, budget: list[int]) -> Iterator[tuple[str, Any]]:
    """Scalar leaves under ``node`` as ``prefix.sub.key`` -> value text (counted
    against the same node budget: shared aliases cannot multiply the work)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise Unreadable(f"more than {MAX_NODES} YAML nodes")
    if depth > MAX_DEPTH:
        return
    if node.kind == "scalar":
        yield prefix, node.value
    elif node.kind == "mapping":
        for key, value in node.pairs():
            name = "<<" if key.merge else str(key.value) if key.kind == "scalar" else "?"
            yield from _leaves(value, f"{prefix}.{name}", depth + 1, budget)
    elif node.kind == "sequence":
        for index, item in enumerate(node.value):
            yield from _leaves(item, f"{prefix}[{index}]", depth + 1, budget)
