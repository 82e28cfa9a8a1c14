"""The key list of ``changelog add`` (rows, their order, the preselected ones, the suggested
entry for them) and what an entry runs (:class:`Reach`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.authoring.drafts import Draft
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, REMOVED, ChangeSet, KeyChange
from changelog_tool.diff.scenarios import description, gap
from changelog_tool.diff.scenarios import scenario_types as affected
from changelog_tool.ledger.entry import scenario_types

MARKS = {ADDED: "+", MODIFIED: "~", RECIPE: "R", REMOVED: "-"}


@dataclass(frozen=True)
class KeyRow:
    """A line of the key list: a changed key, one added by hand, or (``other``) an unchanged one."""

    key: str
    change: KeyChange | None = None
    covered: bool = False
    other: bool = False
    missing: tuple[str, ...] = ()  # the changed scenario types no appended entry selects yet

    @property
    def needs_entry(self) -> bool:
        return bool(self.change and self.change.needs_entry)

    @property
    def mark(self) -> str:
        return MARKS.get(self.change.kind, "?") if self.change else "*"

    def detail(self, match_count: int | None = None) -> str:
        change = self.change
        if change is None:
            if "*" in self.key and match_count is not None:
                return f"pattern: {match_count} {plural(match_count, 'key')}"
            return "not a master key" if match_count == 0 else "added by hand"
        text = "covered; " if self.covered else ""
        if change.kind == ADDED:
            text += "new key"
        elif change.kind == REMOVED:
            text += "removed (no entry needed)"
        elif change.kind == RECIPE:
            text += "recipe " + ", ".join(Path(r).name for r in change.recipes)
        else:
            text += ", ".join(change.fields) or "modified"
        if change.reduced:
            text += " (reduced: nothing new to run)"
        return text


def rows_for(changes: ChangeSet) -> list[KeyRow]:
    """Changed keys in display order, those needing an entry first; covered when appended
    entries select their changed types, else with the types missing."""
    order = {ADDED: 0, MODIFIED: 1, RECIPE: 2, REMOVED: 3}
    rows = []
    for change in sorted(
        changes.keys, key=lambda c: (not c.needs_entry, order.get(c.kind, 4), c.key)
    ):
        found = gap(change, changes.appended)
        missing = found.kinds if found is not None else ()
        rows.append(KeyRow(change.key, change, found is None, missing=missing))
    return rows


def preselected(rows: list[KeyRow]) -> list[str]:
    """The changed keys that need an entry and that no appended entry covers."""
    return [r.key for r in rows if r.needs_entry and not r.covered]


def _changes(rows: list[KeyRow], keys: list[str]) -> list[KeyChange]:
    chosen = set(keys)
    return [r.change for r in rows if r.change and r.key in chosen and r.change.needs_entry]


def suggested_scenarios(rows: list[KeyRow], keys: list[str]) -> list[str]:
    """The scenario types an entry for the chosen keys should name (the gate's rule)."""
    missing = {r.key: r.missing for r in rows if r.missing}
    return affected(_changes(rows, keys), scenario_types(), missing)


def suggestion(rows: list[KeyRow], placeholder: str = "") -> Draft:
    """What the TUI starts from: the preselected keys and the suggested entry for them."""
    keys = preselected(rows)
    return Draft(
        keys=keys,
        scenario_types=suggested_scenarios(rows, keys),
        description=description(_changes(rows, keys)),
        pr_link=placeholder,
    )


@dataclass(frozen=True)
class KeyReach:
    """A master key the entry names, and the points it runs per scenario type."""

    key: str
    points: dict[str, int]
    known: bool = True  # False: the key's value does not parse, its points are unknown
    counted: bool = True  # False: its points are still being counted

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
        out = Counter(dict.fromkeys(scenario_types(), 0))
        for key in self.keys:
            out.update(key.points)
        return {kind: count for kind, count in out.items() if count}

    @property
    def pending(self) -> list[str]:
        return [key.key for key in self.keys if not key.counted]

    def summary(self) -> str:
        """E.g. ``3 keys, 2 scenario types, 41 benchmark points`` ("at least" while counting)."""
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
    return noun if count == 1 else noun + "s"
