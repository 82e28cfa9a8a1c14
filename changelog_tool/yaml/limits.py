"""The bounded event scan every YAML reader starts from: libyaml's events, refused past
:data:`MAX_DEPTH` (``yaml-syntax``) or once aliases add more than :data:`MAX_ALIAS_NODES` nodes
(``yaml-alias``), before any value is built; an honest large file is never refused."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]  # libyaml's, untyped
from ruamel.yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    Event,
    ScalarEvent,
)

from changelog_tool.yaml.items import YamlProblem

MAX_DEPTH = 100
"""Nested collections (mappings and sequences) in one document, the root counting 1."""
MAX_ALIAS_NODES = 100_000
"""Nodes that aliases may add to a document beyond the nodes it writes out."""


@dataclass
class _Open:
    """A collection the scan is inside: its count start, depth and deepest level below it."""

    anchor: str | None
    start: int
    depth: int
    deepest: int = 0


OTHER_BREAKS = (b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
"""NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR (UTF-8): line breaks to libyaml (and
to the YAML 1.1 readers benchmark CI uses), not to a scan by ``\\n``."""


def line_at(data: bytes | str, index: int) -> int:
    """The 1-based line of a mark's character ``index``, counting LF only (as git does)."""
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    return text.removeprefix("\ufeff").count("\n", 0, max(index, 0)) + 1


MASTER_NEEDS = "a master config needs about 10: flatten it"


def events(data: bytes | str, needs: str = MASTER_NEEDS) -> Iterator[Event]:
    """libyaml's events: :class:`YamlProblem` at the first node past a limit, ``YAMLError`` at a
    syntax error; ``needs`` is said when too deep."""
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
                        raise YamlProblem(
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
                    raise YamlProblem(
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


def _too_deep(data: bytes | str, event: Event, needs: str) -> YamlProblem:
    return YamlProblem(
        "yaml-syntax",
        f"nested deeper than {MAX_DEPTH} levels of mappings and lists (aliases included); {needs}",
        line_at(data, event.start_mark.index),
    )


def deeper_than(value: object, limit: int = MAX_DEPTH) -> bool:
    """Whether a JSON value nests more than ``limit`` levels (the root is 1)."""
    level, pending = 0, [value]
    while pending := [node for node in pending if isinstance(node, dict | list)]:
        level += 1
        if level > limit:
            return True
        pending = [
            c for node in pending for c in (node.values() if isinstance(node, dict) else node)
        ]
    return False
