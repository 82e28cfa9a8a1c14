"""Scenario types: which of a changed key's an entry must select, and which an entry
runs (pure).

The benchmark CI (InferenceX ``utils/process_changelog.py``) expands each new entry's
config-keys against the master configs and runs every matched config for the entry's
``scenario-type`` only, or for every type when the entry names none. So a change is
benchmarked per (key, scenario type): an entry *selects* a key's scenario when one of
its patterns matches the key and its ``scenario-type`` is absent or names that type.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from changelog_tool.diff.fields import SCENARIOS
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, UNREAD, KeyChange
from changelog_tool.ledger.entry import matches


def named_types(entry: Mapping[str, object]) -> list[str] | None:
    """The scenario types ``entry`` names; ``None`` when it names none (every type
    runs, as the benchmark CI reads an absent or empty ``scenario-type``)."""
    named = entry.get("scenario-type")
    if not isinstance(named, list) or not named:
        return None
    return [k for k in named if isinstance(k, str)]


def runs(named: Sequence[str] | None, kinds: Sequence[str]) -> tuple[str, ...]:
    """The scenario types of a key that has ``kinds`` which an entry naming ``named``
    runs (all of them when it names none)."""
    return tuple(kinds) if named is None else tuple(k for k in kinds if k in named)


def selected(entry: Mapping[str, object], key: str, kinds: Sequence[str]) -> tuple[str, ...] | None:
    """The scenario types of ``key`` (which has ``kinds``) that ``entry`` runs; ``None``
    when none of its config-keys patterns matches the key."""
    patterns = entry.get("config-keys")
    if not isinstance(patterns, list) or not any(
        isinstance(p, str) and matches(p, key) for p in patterns
    ):
        return None
    return runs(named_types(entry), kinds)


def config_wide(change: KeyChange) -> bool:
    """A change that can affect every scenario of its key: a field outside ``scenarios``
    changed (or the key could not be read at one side), or a recipe it uses did."""
    return bool(change.recipes) or any(
        f in UNREAD or not f.startswith(SCENARIOS + ".") for f in change.fields
    )


def changed_kinds(change: KeyChange) -> tuple[str, ...]:
    """The scenario types of a changed key that need an entry: every type it has when
    the key is new or the change is config-wide; else the types whose
    ``scenarios.<type>`` subtree changed (for a changed recipe: the types that
    mention it). Empty when the key has no known scenario type (its value does not
    parse, or it has no scenarios): then the key as a whole."""
    if change.kind == ADDED or (change.kind == MODIFIED and config_wide(change)):
        return change.kinds
    if change.kind in (MODIFIED, RECIPE):
        touched = tuple(k for k in change.kinds if k in change.scenarios)
        return touched or change.kinds
    return ()


@dataclass(frozen=True)
class Gap:
    """A changed key whose changed scenario types ``kinds`` no new entry selects;
    ``matched``: some new entry names the key, but not those types."""

    change: KeyChange
    kinds: tuple[str, ...]
    matched: bool


def gap(change: KeyChange, entries: Iterable[Mapping[str, object]]) -> Gap | None:
    """What of ``change`` the ``entries`` leave unselected; ``None`` when they select
    each of its changed scenario types (a key without known types: when one matches)."""
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
    """The :func:`gap` of each change that has one."""
    return [g for g in (gap(c, entries) for c in changes) if g is not None]


def zero_point_types(named: Sequence[str] | None, kinds: Sequence[str]) -> bool:
    """Does an entry naming ``named`` run nothing of a key that has ``kinds``? (A key
    without known types is never said to run nothing.)"""
    return bool(kinds) and not runs(named, kinds)
