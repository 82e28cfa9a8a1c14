"""``orphan-recipe``: changed recipes no master key references, one finding per folder."""

from __future__ import annotations

import posixpath
from collections.abc import Iterable

from changelog_tool.findings import WARNING, Finding, listing


def orphan_findings(recipes: Iterable[str]) -> list[Finding]:
    """One warning per folder of ``recipes``, at its first file."""
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
