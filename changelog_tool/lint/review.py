"""The lints over what a branch changed, as findings (pure over the files given).

:func:`review` takes, for each changed recipe file and master config, its bytes at
head and at the base (``None`` when absent), the master keys the branch added or
modified, and the paths that exist at head; it returns ``key-style``,
``repeated-block`` and ``recipe-reference`` findings at their lines, each with
the severity the settings give its code (``off`` drops it).
"""

from __future__ import annotations

from collections.abc import Callable
from collections.abc import Mapping as MappingType
from typing import Any

from changelog_tool.findings import Finding
from changelog_tool.lint import keystyle, repeated
from changelog_tool.lint.tree import Mapping, Unreadable, mappings
from changelog_tool.records import field, record

DEFAULT_SEVERITY = {
    "key-style": "warning",
    "repeated-block": "notice",
    "recipe-reference": "warning",
}
CODES = tuple(DEFAULT_SEVERITY)


@record(frozen=True)
class MasterKey:
    """One changed master key: its file, its bytes at head and base (``None`` when
    added), the line it starts on, and its whole file's key convention."""

    path: str
    head: bytes
    base: bytes | None
    line: int
    style: Callable[[], str | None]
    """The whole file's key convention (computed when a key goes against its siblings)."""


@record
class Changed:
    """What the lints look at: changed YAML files (head and base bytes), the master
    keys added or modified with their reference strings, and a test for a path."""

    recipes: dict[str, tuple[bytes, bytes | None]] = field(default_factory=dict)
    masters: dict[str, tuple[bytes, bytes | None]] = field(default_factory=dict)
    """Whole master files; or, cheaper, ``master_keys``: the changed keys' own bytes."""
    master_keys: list[MasterKey] = field(default_factory=list)
    references: list[tuple[str, str, str, int]] = field(default_factory=list)
    """``(master file, key, reference, line)`` for each reference of a changed key."""


def review(
    changed: Changed,
    exists: Callable[[str], bool],
    target: Callable[[str], str | None],
    severity: MappingType[str, str] | None = None,
) -> list[Finding]:
    levels = {**DEFAULT_SEVERITY, **(severity or {})}
    out: list[Finding] = []
    for path, (head, base) in sorted(changed.recipes.items()):
        out += _file_lints(path, head, base, repeats=True)
    for path, (head, base) in sorted(changed.masters.items()):
        out += _file_lints(path, head, base, repeats=False)
    for part in changed.master_keys:
        out += _file_lints(
            part.path, part.head, part.base, repeats=False, line=part.line, style=part.style
        )
    for path, key, ref, line in changed.references:
        where = target(ref)
        if where is not None and not exists(where):
            out.append(
                Finding(
                    "recipe-reference",
                    f"{key} references {ref!r}, but {where} is not in this "
                    "repository; fix the path, add the recipe, or (for a recipe from another "
                    "collection) ignore this",
                    path,
                    line,
                    key=key,
                )
            )
    return [
        Finding(f.code, f.message, f.path, f.line, levels[f.code], f.key)
        for f in out
        if levels.get(f.code, "warning") != "off"
    ]


def _file_lints(
    path: str,
    head: bytes,
    base: bytes | None,
    *,
    repeats: bool,
    line: int = 1,
    style: Callable[[], str | None] | None = None,
) -> list[Finding]:
    """The lints of one file (or one key's part of it). The base's bytes are parsed
    only when a lint needs them; either side unreadable gives no lint (the YAML
    checks of verify say why)."""
    try:
        now = mappings(head, line - 1, leaves=repeats)
    except Unreadable:
        return []
    found: dict[str, Any] = {}

    def before() -> list[Mapping]:
        if "before" not in found:
            found["before"] = mappings(base, leaves=repeats) if base is not None else []
        result: list[Mapping] = found["before"]
        return result

    def new_paths() -> set[tuple[str, ...]]:
        if "new" not in found:
            found["new"] = keystyle.key_paths(now) - keystyle.key_paths(before())
        result: set[tuple[str, ...]] = found["new"]
        return result

    out = []
    try:
        for slip in keystyle.slips(now, new_paths, style):
            out.append(
                Finding(
                    "key-style",
                    f"{slip.key!r} is {slip.style} among {slip.expected} keys (and a "
                    f"{slip.expected} file); write {slip.fix!r}, or the loader may not honour it",
                    path,
                    slip.line,
                    key=slip.key,
                )
            )
        if repeats:
            changed = repeated.changed_blocks(now, before())
            for repeat in repeated.repeats(now, changed):
                out.append(Finding("repeated-block", repeat.message(), path, repeat.first.line))
    except Unreadable:
        return []
    return out
