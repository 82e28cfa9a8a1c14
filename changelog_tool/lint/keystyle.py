"""``key-style`` (pure): an added key spelled snake_case while a strict majority of its styled
siblings are kebab-case, or the reverse; with no styled sibling, or evenly split ones, its file
decides (:data:`FILE_SHARE`). Names without lower case or separators never vote."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Callable

from changelog_tool.findings import Finding
from changelog_tool.yaml.tree import Mapping

SNAKE, KEBAB = "snake_case", "kebab-case"
FILE_SHARE = 0.9
Votes = Counter[str | None]
"""How many keys use each style (``None``: no style)."""


def style(name: str) -> str | None:
    """``snake_case`` or ``kebab-case``; ``None`` for a name that does not vote."""
    if "_" in name:
        return None if "-" in name or name.upper() == name else SNAKE
    return KEBAB if "-" in name and name.upper() != name else None


# A key line's name, led by a literal line break, which the regex engine finds fast (``^`` it
# does not); no backtracking: the name's class and what may follow it do not overlap.
_KEY_LINE = re.compile(rb"\n[ \t]*(?:- +)?([A-Za-z][A-Za-z0-9_-]*)[ \t]*:(?=[ \t\n])")


def file_votes(data: bytes) -> Votes:
    """The styled keys of a whole file by one byte scan of its key lines (flow mappings missed)."""
    names = _KEY_LINE.findall(b"\n" + data + b"\n")
    return Counter(style(name.decode("ascii")) for name in names)


def slips(
    path: str,
    maps: list[Mapping],
    new_paths: Callable[[], set[tuple[str, ...]]],
    whole_file: Callable[[], Votes] | None = None,
) -> list[Finding]:
    """``new_paths`` and ``whole_file`` are asked only when a key goes against its siblings."""

    @functools.cache
    def file() -> Votes:
        if whole_file is not None:
            return whole_file()
        return Counter(style(k.name) for m in maps for k in m.keys)

    out = []
    for mapping in maps:
        names = [k.name for k in mapping.keys]
        styles = list(map(style, names))
        counts = Counter(styles)
        if mapping.merged:
            own = set(names)
            counts.update(style(name) for name in mapping.merged if name not in own)
        if (not counts[SNAKE] or not counts[KEBAB]) and counts[SNAKE] + counts[KEBAB] != 1:
            continue  # none, or all agree: no key goes against its siblings or has none
        for key, mine in zip(mapping.keys, styles, strict=True):
            if mine is None:
                continue
            expected = KEBAB if mine == SNAKE else SNAKE
            same, against = counts[mine] - 1, counts[expected]
            split = same + against > 0
            # no styled sibling, or a mapping split evenly (each side would call the other
            # the slip): the file decides, if it is nearly all one style
            by_file = not split or against == same + 1
            if not by_file and against <= same:
                continue
            # only a key the branch added (the whole file is read for no other)
            if normal((*mapping.path, key.name)) not in new_paths():
                continue
            if by_file:
                whole = file()
                backing, voters = whole[expected], whole[SNAKE] + whole[KEBAB]
                if not voters or backing < FILE_SHARE * voters:
                    continue
                siblings = (
                    "its sibling keys are split evenly between the styles"
                    if split
                    else "it has no sibling key with a style to go by"
                )
                why = f"in a file whose keys are {100 * backing // voters}% {expected} ({siblings})"
            else:
                why = (
                    f"among {expected} keys ({against} of its {same + against} sibling keys "
                    "with a style)"
                )
            fix = key.name.replace("_", "-") if expected == KEBAB else key.name.replace("-", "_")
            said = f"{key.name!r} is {mine} {why}; write {fix!r}, as they are written"
            out.append(Finding("key-style", said, path, key.line, key=key.name))
    return out


def normal(path: tuple[str, ...]) -> tuple[str, ...]:
    """A key path with list positions erased: an item moved is not a new key."""
    return tuple("[]" if part.startswith("[") else part for part in path)


def key_paths(maps: list[Mapping]) -> set[tuple[str, ...]]:
    return {normal((*m.path, k.name)) for m in maps for k in m.keys}
