"""``key-style``: a mapping key spelled snake_case among kebab-case siblings (or the
reverse), in a file whose own convention agrees with the siblings (pure).

Only keys that carry a separator vote (``image`` is neither style). A key is
reported when its style differs from the majority of its sibling keys and from
the majority of the file's keys, so a file that is snake_case throughout is
never flagged. Only keys the branch added are reported: ``new_paths`` holds the
key paths that are not at the base.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable

from changelog_tool.lint.tree import Mapping
from changelog_tool.records import record

SNAKE, KEBAB = "snake_case", "kebab-case"


@record(frozen=True)
class StyleSlip:
    key: str
    line: int
    style: str
    expected: str
    fix: str


def style(name: str) -> str | None:
    has_snake, has_kebab = "_" in name, "-" in name
    if has_snake == has_kebab:
        return None
    return SNAKE if has_snake else KEBAB


def _majority(names: Iterable[str]) -> str | None:
    votes = Counter(s for s in map(style, names) if s is not None)
    if not votes or votes[SNAKE] == votes[KEBAB]:
        return None
    return SNAKE if votes[SNAKE] > votes[KEBAB] else KEBAB


def _key_line(name: bytes) -> re.Pattern[bytes]:
    # led by a literal line break, which the regex engine finds fast (``^`` it does not)
    return re.compile(rb"\n[ \t]*(?:- +)?" + name + rb"[ \t]*:(?=[ \t\n])")


# one way to match each name (no backtracking): the first separator ends the first run
_SNAKE_LINE = _key_line(rb"[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*")
_KEBAB_LINE = _key_line(rb"[A-Za-z][A-Za-z0-9]*-[A-Za-z0-9-]*")


def file_style(data: bytes) -> str | None:
    """The convention of a whole file's mapping keys, by a byte scan of its key lines
    that counts each style's votes in C (a 400 KB master config in about a
    millisecond; a key in a flow mapping is missed)."""
    lines = b"\n" + data + b"\n"
    snake, kebab = len(_SNAKE_LINE.findall(lines)), len(_KEBAB_LINE.findall(lines))
    if snake == kebab:
        return None
    return SNAKE if snake > kebab else KEBAB


def slips(
    maps: list[Mapping],
    new_paths: Callable[[], set[tuple[str, ...]]],
    whole_file: Callable[[], str | None] | None = None,
) -> list[StyleSlip]:
    """The added keys whose style goes against their siblings and their file
    (``whole_file``: the file's convention when ``maps`` are only a part of it).
    ``new_paths`` and ``whole_file`` are asked only for a key that goes against its
    siblings, the rare case: the base's keys and the whole file's are not read
    for a change that has none."""
    file_style: list[str | None] = []
    out = []
    for mapping in maps:
        for key in mapping.keys:
            mine = style(key.name)
            if mine is None:
                continue
            siblings = _majority(k.name for k in mapping.keys if k is not key)
            if siblings is None or siblings == mine:
                continue
            if normal((*mapping.path, key.name)) not in new_paths():
                continue
            if not file_style:  # the whole file's, else (a tie, none found) these maps'
                whole = whole_file() if whole_file is not None else None
                file_style.append(whole or _majority(k.name for m in maps for k in m.keys))
            if file_style[0] != siblings:
                continue
            fix = key.name.replace("_", "-") if siblings == KEBAB else key.name.replace("-", "_")
            out.append(StyleSlip(key.name, key.line, mine, siblings, fix))
    return out


def normal(path: tuple[str, ...]) -> tuple[str, ...]:
    """A key path with list positions erased: an item moved is not a new key."""
    return tuple("[]" if part.startswith("[") else part for part in path)


def key_paths(maps: list[Mapping]) -> set[tuple[str, ...]]:
    """Every key path of a file (to tell which keys a branch added)."""
    return {normal((*m.path, k.name)) for m in maps for k in m.keys}
