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

import threading
from typing import Any

from changelog_tool.records import field, record

MAX_DEPTH = 100
"""Nested collections (mappings and sequences) in one document, the root counting 1."""
MAX_ALIAS_NODES = 100_000
"""Nodes that aliases may add to a document beyond the nodes it writes out."""


class LimitExceeded(Exception):
    """A document breaks one of the limits; ``line`` is 1-based (LF-separated lines)."""

    def __init__(self, code: str, message: str, line: int) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.line = line


@record
class _Open:
    """A collection the scan is inside: its anchor, where its count began, its depth
    and the deepest level reached below it."""

    anchor: str | None
    start: int
    depth: int
    deepest: int = field(default=0)


_local = threading.local()


def load(data: bytes) -> Any:
    """The document's value: :func:`scan`, then ruamel's C-backed safe loader (one per
    thread: the TUI diffs in a worker thread). Raises :class:`LimitExceeded` or
    ruamel's ``YAMLError``."""
    scan(data)
    loader = getattr(_local, "loader", None)
    if loader is None:
        from ruamel.yaml import YAML

        loader = _local.loader = YAML(typ="safe", pure=False)
    return loader.load(data)


def line_at(data: bytes | str, index: int) -> int:
    """The 1-based line of a parser mark's character ``index``, counting LF only (as git,
    editors' line numbers on LF files and the byte scan do; libyaml's own line also
    counts a lone CR, U+0085, U+2028 and U+2029)."""
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    return text.removeprefix("\ufeff").count("\n", 0, max(index, 0)) + 1


def scan(data: bytes) -> None:
    """Raise :class:`LimitExceeded` at the first node past a limit. Syntax errors are
    raised as ruamel's own ``YAMLError`` (the loader would raise the same)."""
    from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]  # libyaml's, untyped
    from ruamel.yaml.events import (
        AliasEvent,
        CollectionEndEvent,
        CollectionStartEvent,
        ScalarEvent,
    )

    parser = CParser(data)
    sizes: dict[str, tuple[int, int]] = {}  # anchor -> (expanded nodes, height)
    stack: list[_Open] = []
    written = expanded = 0
    try:
        while parser.check_event():
            event = parser.get_event()
            if isinstance(event, ScalarEvent | AliasEvent):
                size, height = (1, 0)
                if isinstance(event, AliasEvent):
                    size, height = sizes.get(event.anchor, (1, 0))
                elif event.anchor is not None:
                    sizes[event.anchor] = (1, 0)
                written += 1
                expanded += size
                reach = len(stack) + height
                if stack:
                    stack[-1].deepest = max(stack[-1].deepest, reach)
                if expanded - written > MAX_ALIAS_NODES:
                    raise LimitExceeded(
                        "yaml-alias",
                        f"aliases expand this document by more than {MAX_ALIAS_NODES:,} "
                        f"nodes (alias *{event.anchor}); a master config needs no such "
                        "repetition: write the values out or repeat less",
                        line_at(data, event.start_mark.index),
                    )
                if reach > MAX_DEPTH:
                    raise _too_deep(data, event)
            elif isinstance(event, CollectionStartEvent):
                depth = len(stack) + 1
                if depth > MAX_DEPTH:
                    raise _too_deep(data, event)
                stack.append(_Open(event.anchor, expanded, depth, depth))
                written += 1
                expanded += 1
            elif isinstance(event, CollectionEndEvent):
                done = stack.pop()
                if stack:
                    stack[-1].deepest = max(stack[-1].deepest, done.deepest)
                if done.anchor is not None:
                    sizes[done.anchor] = (expanded - done.start, done.deepest - done.depth + 1)
    finally:
        parser.dispose()


def _too_deep(data: bytes, event: object) -> LimitExceeded:
    mark = getattr(event, "start_mark", None)
    return LimitExceeded(
        "yaml-syntax",
        f"nested deeper than {MAX_DEPTH} levels of mappings and lists (aliases "
        "included); a master config needs about 10: flatten it",
        line_at(data, mark.index if mark is not None else 0),
    )
