"""What `add` checks against the work tree's master configs before appending:
a pattern that matches no key, or a scenario type none of the matched keys has,
would fail `verify` (dangling-pattern, scenario-mismatch), so it is refused now."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from changelog_tool.ledger.entry import matching_keys
from changelog_tool.settings import Settings

if TYPE_CHECKING:
    from changelog_tool.diff.masters import MasterSet


def work_tree_masters(settings: Settings) -> MasterSet | None:
    """The work tree's master configs; ``None`` when the repository has none."""
    from changelog_tool.diff.masters import MasterFile, MasterSet

    root = settings.root
    paths = sorted({p for glob in settings.master_configs for p in root.glob(glob) if p.is_file()})
    if not paths:
        return None
    return MasterSet(MasterFile(p.relative_to(root).as_posix(), p.read_bytes()) for p in paths)


def problems(entries: Sequence[dict[str, Any]], settings: Settings) -> list[str]:
    """Why each entry would fail the gate at the work tree; empty when it would not
    (or when the repository has no master configs to check against)."""
    masters = work_tree_masters(settings)
    if masters is None:
        return []
    keys = list(masters.owner)
    out = []
    for number, entry in enumerate(entries, 1):
        label = f"entry {number}: " if len(entries) > 1 else ""
        matched: set[str] = set()
        for pattern in entry.get("config-keys", []):
            found = matching_keys(pattern, keys)
            if not found:
                close = difflib.get_close_matches(pattern, keys, n=1)
                hint = f" (did you mean {close[0]}?)" if close else ""
                out.append(f"{label}config-keys: {pattern!r} matches no key in "
                           f"{', '.join(m.path for m in masters.files)}{hint}")
            matched.update(found)
        for kind in entry.get("scenario-type", []) if matched else []:
            if not any(masters.has_scenario(key, kind) for key in matched):
                out.append(f"{label}scenario-type: {kind!r} exists for none of the matched keys "
                           f"({', '.join(sorted(matched)[:3])}); no sweep would run")
    return out
