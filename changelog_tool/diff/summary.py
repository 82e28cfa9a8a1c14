"""Plain-text rendering of a ChangeSet (``keys`` and ``verify --base`` logs), names made safe
with :func:`shown`."""

from __future__ import annotations

from changelog_tool.diff.keychange import REMOVED, ChangeSet, KeyChange
from changelog_tool.findings import Finding, shown

NOTICE = "notice"


def _label(change: KeyChange) -> str:
    return "reduced" if change.reduced else change.kind


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
    width = max((len(_label(k)) for k in changes.keys), default=0)
    for change in changes.keys:
        where = f"{shown(change.path)}:{change.line}" if change.path else ""
        side = " (at base)" if change.kind == REMOVED else ""
        lines.append(
            f"  {_label(change):<{width}}  {shown(change.key)}{_detail(change)}  {where}{side}".rstrip()
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
                _label(change),
                f"{change.key} {_label(change)}{' ' + detail if detail else ''}",
                change.path or "",
                line,
                NOTICE,
                key=change.key,
            )
        )
    return out
