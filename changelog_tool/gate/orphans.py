"""``orphan-recipe``: changed recipes that no master-config key references, one
finding per folder (a branch that adds a recipe collection adds dozens at once),
listing its files in the JSON output."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from changelog_tool.findings import WARNING, Finding, listing


def orphan_findings(recipes: Iterable[str]) -> list[Finding]:
    """One warning per folder of ``recipes``, at its first file (where an annotation
    can stand)."""
    folders: dict[str, list[str]] = {}
    for recipe in recipes:
        folders.setdefault(posixpath.dirname(recipe), []).append(recipe)
    out = []
    for folder, files in sorted(folders.items()):
        files.sort()
        if len(files) == 1:
            message = (
                "no master-config key references this recipe (CONFIG_FILE=...), "
                "so no sweep will run it"
            )
        else:
            names = [posixpath.basename(f) for f in files]
            message = (
                f"no master-config key references these {len(files)} recipes in "
                f"{folder or '.'}/ (CONFIG_FILE=...): {listing(names)}; no sweep will run them"
            )
        out.append(
            Finding("orphan-recipe", message, files[0], None, WARNING, detail={"files": files})
        )
    return out
