"""What an entry will run: the master keys its patterns resolve to, each key's scenario types and
benchmark points (:func:`changelog_tool.diff.fields.points`), the total, and too-broad patterns."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from changelog_tool.diff.scenarios import runs
from changelog_tool.gate.acceptance import broad
from changelog_tool.ledger.entry import matching_keys
from changelog_tool.ledger.entry import scenario_types as schema_types


@dataclass(frozen=True)
class KeyReach:
    """One master key the entry names, and the points it runs per scenario type."""

    key: str
    points: dict[str, int]
    known: bool = True  # False: the key's value does not parse, its points are unknown
    counted: bool = True  # False: its points are still being counted (see PENDING)

    @property
    def total(self) -> int:
        return sum(self.points.values())


@dataclass(frozen=True)
class Reach:
    keys: list[KeyReach]
    warnings: list[str]

    @property
    def per_type(self) -> dict[str, int]:
        """Benchmark points per scenario type over every key (schema types first)."""
        out: dict[str, int] = {kind: 0 for kind in schema_types()}
        for key in self.keys:
            for kind, count in key.points.items():
                out[kind] = out.get(kind, 0) + count
        return {kind: count for kind, count in out.items() if count}

    @property
    def pending(self) -> list[str]:
        """The keys whose points are still being counted."""
        return [key.key for key in self.keys if not key.counted]

    def summary(self) -> str:
        """E.g. ``3 keys, 2 scenario types, 41 benchmark points`` (``at least`` while some are
        counted)."""
        keys, pending = len(self.keys), len(self.pending)
        kinds = len({kind for key in self.keys for kind, count in key.points.items() if count})
        total = sum(key.total for key in self.keys)
        least = "at least " if pending else ""
        text = (
            f"{keys:,} {plural(keys, 'key')}, "
            f"{least}{kinds} {plural(kinds, 'scenario type')}, "
            f"{least}{total:,} {plural(total, 'benchmark point')}"
        )
        if pending:
            text += f" (the points of {pending:,} {plural(pending, 'key')} still being counted)"
        return text


def plural(count: int, noun: str) -> str:
    """``noun``, or its plural (an ``s`` added) for any count but one."""
    return noun if count == 1 else noun + "s"


PENDING = "pending"
"""What ``points_of`` answers for a key whose points it has not counted yet (a pattern
can reach thousands of keys: the rest are counted in the background)."""


def reach(
    patterns: Sequence[str],
    scenario_types: Sequence[str],
    keys: Sequence[str],
    points_of: Callable[[str], dict[str, int] | str | None],
    changed: Iterable[str],
) -> Reach:
    """What ``patterns`` run among ``keys``: ``points_of(key)`` gives points per type (``None``
    unknown, :data:`PENDING` not counted); ``changed`` keys bound the broad-pattern warning."""
    changed = set(changed)
    resolved: dict[str, None] = {}
    warnings = []
    for pattern in patterns:
        matched = matching_keys(pattern, keys)
        warning = broad(pattern, matched, changed)
        if warning:
            warnings.append(warning)
        resolved.update((k, None) for k in matched)
    out = []
    named = list(scenario_types) or None
    idle: dict[str, list[str]] = {}  # a named type -> the keys it selects nothing of
    for key in resolved:
        found = points_of(key)
        if found is None:
            out.append(KeyReach(key, {}, known=False))
            continue
        if isinstance(found, str):
            out.append(KeyReach(key, {}, counted=False))
            continue
        has = list(found)
        for kind in named if named and has else []:
            if kind not in has:
                idle.setdefault(kind, []).append(key)
        out.append(KeyReach(key, {kind: found[kind] for kind in runs(named, has)}))
    for kind, keys_without in idle.items():
        shown = ", ".join(keys_without[:3]) + (", ..." if len(keys_without) > 3 else "")
        count = len(keys_without)
        warnings.append(f"{kind} selects nothing for {count} {plural(count, 'key')} ({shown})")
    return Reach(out, warnings)
