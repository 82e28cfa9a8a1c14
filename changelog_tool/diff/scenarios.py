"""Scenario types (pure), and the one suggested entry for changed keys. The benchmark CI runs an
entry's matched keys for its ``scenario-type`` only, or all types when it names none: an entry
*selects* a key's scenario when a pattern matches the key and its type is absent or named."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from changelog_tool.diff.fields import SCENARIOS
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, UNREAD, KeyChange
from changelog_tool.ledger.entry import matches, texts


def named_types(entry: Mapping[str, object]) -> list[str] | None:
    """The scenario types ``entry`` names; ``None`` when none (every type runs)."""
    named = entry.get("scenario-type")
    return texts(named) if isinstance(named, list) and named else None


def runs(named: Sequence[str] | None, kinds: Sequence[str]) -> tuple[str, ...]:
    """The types of a key with ``kinds`` that an entry naming ``named`` runs (all when none)."""
    return tuple(kinds) if named is None else tuple(k for k in kinds if k in named)


def selected(entry: Mapping[str, object], key: str, kinds: Sequence[str]) -> tuple[str, ...] | None:
    """The types of ``key`` that ``entry`` runs; ``None`` when no pattern matches it."""
    if not any(matches(p, key) for p in texts(entry.get("config-keys"))):
        return None
    return runs(named_types(entry), kinds)


def config_wide(change: KeyChange) -> bool:
    """A change that can affect every scenario of its key: a field outside ``scenarios``, an
    unreadable side, or a recipe."""
    return bool(change.recipes) or any(
        f in UNREAD or not f.startswith(SCENARIOS + ".") for f in change.fields
    )


def changed_kinds(change: KeyChange) -> tuple[str, ...]:
    """The scenario types of a changed key that need an entry: all when new or config-wide, else
    those whose subtree changed; empty when none are known (the key as a whole)."""
    if change.kind == ADDED or (change.kind == MODIFIED and config_wide(change)):
        return change.kinds
    if change.kind in (MODIFIED, RECIPE):
        touched = tuple(k for k in change.kinds if k in change.scenarios)
        return touched or change.kinds
    return ()


@dataclass(frozen=True)
class Gap:
    """A changed key whose changed types ``kinds`` no new entry selects (``matched``: one names
    the key, not those types)."""

    change: KeyChange
    kinds: tuple[str, ...]
    matched: bool


def gap(change: KeyChange, entries: Iterable[Mapping[str, object]]) -> Gap | None:
    """What of ``change`` the ``entries`` leave unselected, or ``None``."""
    needed = changed_kinds(change)
    running: set[str] = set()
    matched = False
    for entry in entries:
        found = selected(entry, change.key, change.kinds)
        if found is not None:
            matched = True
            running.update(found)
    if not needed:
        return None if matched else Gap(change, (), False)
    left = tuple(k for k in needed if k not in running)
    return Gap(change, left, matched) if left else None


def gaps(changes: Iterable[KeyChange], entries: Sequence[Mapping[str, object]]) -> list[Gap]:
    return [g for g in (gap(c, entries) for c in changes) if g is not None]


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
