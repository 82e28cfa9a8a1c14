"""What a branch changed in the master configs and recipes (pure data), for ``keys``, ``verify
--base`` and the TUI, and its plain-text rendering (names made safe with :func:`shown`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from changelog_tool.findings import ERROR, NOTICE, Finding, shown
from changelog_tool.ledger.entry import Fields

ADDED = "added"
MODIFIED = "modified"
REMOVED = "removed"
RECIPE = "recipe"
UNPARSABLE = "unparsable"
UNPARSABLE_AT_BASE = "unparsable-at-base"
UNREAD = frozenset({UNPARSABLE, UNPARSABLE_AT_BASE})
"""Not fields: what ``fields`` says of a modified key whose value could not be read
(at head, or at base), so its changed fields are unknown."""


@dataclass(frozen=True)
class KeyChange:
    """One master-config key the branch touched.

    ``kind``: added, modified, removed or recipe. ``fields``: what changed; ``scenarios``:
    types added or changed; ``reduced``: only removed scenarios or points. ``path``/``line``:
    where the key is at head (base if removed); ``kinds``: its scenario types at head.
    """

    key: str
    kind: str
    fields: tuple[str, ...] = ()
    scenarios: tuple[str, ...] = ()
    reduced: bool = False
    path: str | None = None
    line: int | None = None
    recipes: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()

    @property
    def needs_entry(self) -> bool:
        return self.kind != REMOVED and not self.reduced

    @property
    def label(self) -> str:
        return "reduced" if self.reduced else self.kind

    def finding(self, code: str, message: str, severity: str = ERROR) -> Finding:
        """A finding about this key, at its line."""
        return Finding(code, message, self.path or "", self.line, severity, key=self.key)


@dataclass
class ChangeSet:
    base: str | None
    head: str
    keys: list[KeyChange] = field(default_factory=list)
    recipes: dict[str, list[str]] = field(default_factory=dict)
    orphan_recipes: list[str] = field(default_factory=list)
    appended: list[Fields] = field(default_factory=list)
    points: dict[str, dict[str, int]] = field(default_factory=dict)
    """Benchmark points per scenario type of each changed key at head."""
    problems: list[Finding] = field(default_factory=list)
    """Master-config problems at head (``yaml-syntax``, ``duplicate-yaml-key``,
    ``duplicate-master-key``, ``missing-recipe``)."""

    def needing_entry(self) -> list[KeyChange]:
        return [k for k in self.keys if k.needs_entry]

    def to_json(self) -> dict[str, list[str] | dict[str, list[str]]]:
        """The ``changed`` section of the JSON output contract."""
        return {
            "added": sorted(k.key for k in self.keys if k.kind == ADDED),
            "modified": {
                k.key: list(k.fields)
                for k in sorted(self.keys, key=lambda k: k.key)
                if k.kind == MODIFIED
            },
            "removed": sorted(k.key for k in self.keys if k.kind == REMOVED),
            "recipes": {p: sorted(keys) for p, keys in sorted(self.recipes.items())},
            "orphan_recipes": sorted(self.orphan_recipes),
            "reduced": sorted(k.key for k in self.keys if k.reduced),
        }

    def keys_json(self) -> list[dict[str, object]]:
        """Every key change in full (``changelog keys --format json``)."""
        return [
            {
                "key": k.key,
                "kind": k.kind,
                "fields": list(k.fields),
                "scenarios": list(k.scenarios),
                "reduced": k.reduced,
                "needs_entry": k.needs_entry,
                "path": k.path,
                "line": k.line,
                "recipes": list(k.recipes),
                "points": self.points.get(k.key, {}),
            }
            for k in self.keys
        ]


def _detail(change: KeyChange) -> str:
    parts = []
    if change.fields:
        parts.append(", ".join(shown(f) for f in change.fields))
    if len(change.recipes) > 2:
        parts.append(f"{len(change.recipes)} changed recipes")
    elif change.recipes:
        parts.append("recipes: " + ", ".join(shown(r) for r in change.recipes))
    if not change.needs_entry:
        parts.append("no entry needed")
    return f"  ({'; '.join(parts)})" if parts else ""


def change_lines(changes: ChangeSet) -> list[str]:
    """One line per changed key, then changed recipes and appended entries."""
    head = "work tree" if changes.head == "WORKTREE" else changes.head[:12]
    base = changes.base[:12] if changes.base else "nothing"
    lines = [f"changes from {base} to {head}:"]
    if not changes.keys:
        lines.append("  no master-config key changed")
    width = max((len(k.label) for k in changes.keys), default=0)
    for change in changes.keys:
        where = f"{shown(change.path)}:{change.line}" if change.path else ""
        side = " (at base)" if change.kind == REMOVED else ""
        lines.append(
            f"  {change.label:<{width}}  {shown(change.key)}{_detail(change)}  {where}{side}".rstrip()
        )
    for recipe, keys in sorted(changes.recipes.items()):
        users = ", ".join(shown(k) for k in keys) if keys else "no key references it"
        lines.append(f"  recipe  {shown(recipe)} -> {users}")
    if changes.appended:
        at = ", ".join(str(e.get("line")) for e in changes.appended)
        lines.append(
            f"  appended {len(changes.appended)} entr{'y' if len(changes.appended) == 1 else 'ies'}"
            f" (line {at})"
        )
    return lines


def notices(changes: ChangeSet) -> list[Finding]:
    """One ``notice`` per changed key at its line (``--format github``); a removed key names only
    its file."""
    out = []
    for change in changes.keys:
        line = None if change.kind == REMOVED else change.line
        detail = _detail(change).strip()
        out.append(
            Finding(
                change.label,
                f"{change.key} {change.label}{' ' + detail if detail else ''}",
                change.path or "",
                line,
                NOTICE,
                key=change.key,
            )
        )
    return out
