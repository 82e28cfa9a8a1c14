"""Suggestions: the one suggested entry for changed keys (verify's output, the
TUI's starting point, the demo)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, UNREAD, KeyChange
from changelog_tool.diff.scenarios import changed_kinds


def scenario_types(
    changes: Iterable[KeyChange],
    known: Sequence[str],
    missing: Mapping[str, Sequence[str]] | None = None,
) -> list[str]:
    """The scenario types to name for ``changes`` in schema order (``missing`` narrows them);
    none when that would be every type, or a type is unknown."""
    wanted: set[str] = set()
    everything = True
    for change in changes:
        needed = tuple(changed_kinds(change))
        if missing is not None and change.key in missing:
            needed = tuple(missing[change.key]) or needed
        if not needed:
            return []
        wanted.update(needed)
        everything = everything and set(needed) >= set(change.kinds)
    if everything or not wanted <= set(known):
        return []
    return [k for k in known if k in wanted]


def _short(keys: list[str]) -> str:
    return ", ".join(keys[:4]) + (f" and {len(keys) - 4} more" if len(keys) > 4 else "")


def description(changes: Sequence[KeyChange]) -> list[str]:
    """A starting point for the description: one bullet per kind of change."""
    lines = []
    added = sorted(c.key for c in changes if c.kind == ADDED)
    if added:
        lines.append(f"Add {_short(added)}")
    groups: dict[tuple[str, ...], list[str]] = {}
    for change in changes:
        if change.kind == MODIFIED:  # a key that could not be read: its fields are unknown
            known = tuple(f for f in change.fields if f not in UNREAD)
            groups.setdefault(known, []).append(change.key)
    for fields, keys in sorted(groups.items()):
        lines.append(f"Update {', '.join(fields) or 'config'} of {_short(sorted(keys))}")
    recipes = sorted(c.key for c in changes if c.kind == RECIPE)
    if recipes:
        lines.append(f"Update recipes of {_short(recipes)}")
    return lines


def suggested_entry(
    changes: Sequence[KeyChange],
    pr_link: str,
    known_scenarios: Sequence[str],
    missing: Mapping[str, Sequence[str]] | None = None,
) -> dict[str, object]:
    """The entry covering ``changes``, in the changelog's field order: keys, scenario types (of
    ``missing``), a drafted description and ``pr_link``."""
    entry: dict[str, object] = {"config-keys": sorted({c.key for c in changes})}
    kinds = scenario_types(changes, known_scenarios, missing)
    if kinds:
        entry["scenario-type"] = kinds
    entry["description"] = description(changes)
    entry["pr-link"] = pr_link
    return entry
