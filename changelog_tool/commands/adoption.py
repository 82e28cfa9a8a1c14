"""Does a repository use perf-changelog? Its YAML files and master configs as ``init`` finds
them, asked by ``init`` and ``install`` before they write."""

from __future__ import annotations

import fnmatch
from pathlib import Path

SKIP = {".git", ".venv", "node_modules", "__pycache__"}
"""Folders never searched: git's own, virtualenvs, dependencies, caches."""
MASTER = "*-master.yaml"


def yaml_files(top: Path) -> list[str]:
    """The work tree's YAML files, relative to ``top``, sorted."""
    out = []
    for path in sorted(top.rglob("*.y*ml")):
        rel = path.relative_to(top)
        if not SKIP.intersection(rel.parts) and path.is_file():
            out.append(rel.as_posix())
    return out


def master_configs(files: list[str]) -> list[str]:
    """The files among ``files`` that look like master configs."""
    return [name for name in files if fnmatch.fnmatch(name, MASTER)]


def no_master_config(top: Path) -> str:
    """What `init` says when the repository has no master config."""
    return f"no master config ({MASTER}) found in {top}"


def refusal(top: Path, changelog: str, settings_file: str | None) -> str | None:
    """Why ``install`` must not write here (no changelog, settings or master config)."""
    if (top / changelog).exists() or settings_file is not None or master_configs(yaml_files(top)):
        return None
    return (
        f"{no_master_config(top)} and no {changelog}: this "
        "repository does not use perf-changelog, so install writes nothing; run `changelog "
        "init --dry-run` to see what adopting it writes, or `changelog install --force` to "
        "set up the merge driver anyway"
    )
