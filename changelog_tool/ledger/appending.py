"""The one append rule: what an append may do to the file it extends. See docs/design.md, "One
append rule"."""

from __future__ import annotations

import re
from dataclasses import dataclass

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import UNPARSED, content, parse
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items
from changelog_tool.yaml.values import same

_MARKER = re.compile(rb"^(?:---|\.\.\.)(?=[ \t\n]|$)|^%", re.MULTILINE)
_KEEP = re.compile(rb"(?:^|[ :-])[|>](?:[1-9]?\+|\+[1-9])[ \t]*(?:#[^\n]*)?$", re.MULTILINE)


@dataclass(frozen=True)
class Break:
    """Why an append breaks the file: finding code, file line, what goes wrong (no final stop)
    and what to do instead."""

    code: str
    line: int
    what: str
    fix: str

    @property
    def message(self) -> str:
        return f"{self.what}; {self.fix}"


def append_break(
    old: bytes, appended: bytes, line: int = 1, whose: str = "the existing file's"
) -> Break | None:
    """Why appending ``appended`` (separator and entries) after ``old`` breaks the file, or
    ``None``.

    ``old`` is the file or its end from file line ``line``; only its end from the last entry
    on is read. ``whose`` names the file in messages. An appended entry or an end that does
    not parse alone is not the append's doing: ``None`` (other checks name it).
    """
    if not appended.strip(b" \n"):
        return None
    last = Ledger(old).last_block()
    start = last.start if last is not None else 0
    end, line = old[start:], line + old.count(b"\n", 0, start)
    whole = end + appended
    first = line + end.count(b"\n")  # the line the appended bytes begin on
    tail = Ledger(appended)
    own = [parse(content(tail, block), first + block.line - 1) for block in tail.blocks]
    if any(value is UNPARSED for value in own):
        return None  # the appended entry's own check says why
    entry_line = first + (tail.blocks[0].line - 1 if tail.blocks else 0)
    try:
        alone = _as_list(load_items(end, line_offset=line - 1)) if end.strip(b" \n") else []
    except YamlProblem:
        return None  # the existing file's own problem, whatever follows it

    def broken(code: str, at: int, what: str) -> Break:
        return Break(code, at, what + _cause(end, line), _fix(end))

    try:
        together = _as_list(load_items(whole, line_offset=line - 1))
    except YamlProblem as problem:
        return broken(
            "yaml-syntax",
            problem.line,
            f"entries appended after {whose} end would not parse: {problem.message} "
            f"(line {problem.line})",
        )
    if alone is None or together is None or len(together) != len(alone) + len(own):
        found = "no list" if together is None else f"a list of {len(together)} items"
        return broken(
            "entry-count",
            entry_line,
            f"the appended entries would not join {whose} list of entries (the end "
            f"from line {line} on would read as {found})",
        )
    if alone and not same(alone[0].value, together[0].value):
        return broken(
            "entry-count",
            line,
            f"{whose} last entry (line {line}) reads differently once entries follow it",
        )
    for item, value in zip(together[len(alone) :], own, strict=True):
        if not same(item.value, value):
            return broken(
                "entry-count",
                item.line,
                f"the appended entry at line {item.line} would not read as it does on its "
                f"own after {whose} end",
            )
    return None


def _as_list(root: object) -> list[Item] | None:
    """The items of a document that is a list (empty or comments only: ``[]``), else ``None``."""
    if root is None:
        return []
    if isinstance(root, list) and all(isinstance(item, Item) for item in root):
        return root
    return None


def _cause(end: bytes, line: int) -> str:
    """What in ``end`` takes in the appended bytes, when it is a known ending."""
    marker = _MARKER.search(end)
    if marker is not None:
        at = line + end.count(b"\n", 0, marker.start())
        mark = end[marker.start() : marker.end()].decode("utf-8", "replace")
        return (
            f": it holds the YAML document marker {mark!r} at line {at}, and what "
            "follows a marker is another document, outside the list"
        )
    keep = _KEEP.search(end)
    if keep is not None:
        at = line + end.count(b"\n", 0, keep.start())
        return (
            f": its block scalar at line {at} keeps its trailing line breaks ('|+' or "
            "'>+'), so it takes in the empty line that separates entries"
        )
    if not end.startswith(b"-"):
        return ": no line of it begins a block list item ('- ' at column 0)"
    return ""


def _fix(end: bytes) -> str:
    if _MARKER.search(end) is not None:
        remove = "remove that marker line"
    elif _KEEP.search(end) is not None:
        remove = "change that indicator to '|' or '>' (the value then ends in one line break)"
    elif not end.startswith(b"-"):
        remove = "rewrite the file as a block list (one '- config-keys:' entry after another)"
    else:
        remove = "fix the end of the file"
    return (
        "nothing can be appended until that is fixed in a change of its own (an edit "
        f"of history, which a maintainer lands on purpose): {remove}"
    )
