"""Suggestions: the one suggested entry for changed keys (verify's output, the
TUI's starting point, the demo)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NotRequired, TypedDict

from changelog_tool.diff.fields import SCENARIOS
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, UNREAD, KeyChange


def _affected(change: KeyChange) -> set[str] | None:
    """The scenario types a change can affect; ``None`` when it can affect all of
    the key's (a field outside ``scenarios`` changed, or a recipe it uses did)."""
    if change.kind == MODIFIED and (
        change.recipes or any(not f.startswith(SCENARIOS + ".") for f in change.fields)
    ):
        return None
    return set(change.scenarios) or None


def scenario_types(changes: Iterable[KeyChange], known: Sequence[str]) -> list[str]:
    """The scenario types to name in an entry for ``changes``, in ``known`` (schema)
    order; none (every scenario runs) when some change may affect every scenario
    of its key or names a type the schema does not know."""
    kinds: set[str] = set()
    for change in changes:
        affected = _affected(change)
        if affected is None:
            return []
        kinds |= affected
    if not kinds <= set(known):
        return []
    return [k for k in known if k in kinds]


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


Suggested = TypedDict(
    "Suggested",
    {
        "config-keys": list[str],
        "scenario-type": NotRequired[list[str]],
        "description": list[str],
        "pr-link": str,
    },
)
"""A suggested entry, in the changelog's field order."""


def suggested_entry(
    changes: Sequence[KeyChange], pr_link: str, known_scenarios: Sequence[str]
) -> Suggested:
    """The entry that covers ``changes``: their keys, the scenario types they
    affect, a drafted description and ``pr_link``."""
    kinds = scenario_types(changes, known_scenarios)
    keys = sorted({c.key for c in changes})
    lines = description(changes)
    if kinds:
        return {
            "config-keys": keys,
            "scenario-type": kinds,
            "description": lines,
            "pr-link": pr_link,
        }
    return {"config-keys": keys, "description": lines, "pr-link": pr_link}
