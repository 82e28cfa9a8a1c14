"""The mappings of a YAML file as the lints see them (pure).

A file is composed (not constructed) with ruamel's C parser, so every mapping
keeps its line, its keys keep theirs, and a merge key (``<<``) stays visible.
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


def mappings(data: bytes, line_offset: int = 0, *, leaves: bool = True) -> list[Mapping]:
    """Every mapping in ``data`` (a single document), outermost first; ``leaves``:
    also flatten each mapping's leaves (only the repeated-block lint needs them)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError

    from changelog_tool.diff.limits import LimitExceeded, scan

    try:
        scan(data)  # depth and alias expansion bounded before the C composer recurses
        root = YAML(typ="safe", pure=False).compose(data)
    except LimitExceeded as exc:
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


def _walk(
    node: Any,
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
    kind = type(node).__name__
    if kind == "MappingNode":
        found = Mapping(path, at if at is not None else node.start_mark.line + 1 + offset)
        out.append(found)
        for key, value in node.value:
            if key.tag.endswith(":merge"):
                found.merges = True
                continue
            name = str(key.value) if type(key).__name__ == "ScalarNode" else "?"
            key_line = key.start_mark.line + 1 + offset
            found.keys.append(Key(name, key_line))
            if flatten:
                for leaf, leaf_value in _leaves(value, name, depth, budget):
                    found.leaves[leaf] = leaf_value
            _walk(value, (*path, name), out, seen, budget, offset, depth + 1, key_line, flatten)
    elif kind == "SequenceNode":
        for index, item in enumerate(node.value):
            _walk(item, (*path, f"[{index}]"), out, seen, budget, offset, depth + 1, None, flatten)


def _leaves(node: Any, prefix: str, depth: int, budget: list[int]) -> Iterator[tuple[str, Any]]:
    """Scalar leaves under ``node`` as ``prefix.sub.key`` -> value text (counted
    against the same node budget: shared aliases cannot multiply the work)."""
    budget[0] -= 1
    if budget[0] < 0:
        raise Unreadable(f"more than {MAX_NODES} YAML nodes")
    if depth > MAX_DEPTH:
        return
    kind = type(node).__name__
    if kind == "ScalarNode":
        yield prefix, node.value
    elif kind == "MappingNode":
        for key, value in node.value:
            name = "<<" if key.tag.endswith(":merge") else str(getattr(key, "value", "?"))
            yield from _leaves(value, f"{prefix}.{name}", depth + 1, budget)
    elif kind == "SequenceNode":
        for index, item in enumerate(node.value):
            yield from _leaves(item, f"{prefix}[{index}]", depth + 1, budget)
