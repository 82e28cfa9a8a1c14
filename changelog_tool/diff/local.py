"""The work tree's master configs, read without git (the TUI reads them before its
first paint, so this module stays light: no git, no YAML parser until a value is
asked for)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from changelog_tool.confinement import confined
from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.errors import EnvironmentProblem
from changelog_tool.gitrepo.worktree import read_file
from changelog_tool.settings import Settings


def no_master_configs(settings: Settings) -> EnvironmentProblem:
    """The error for a repository where the master-config globs match no file."""
    where = settings.source or "the default settings"
    return EnvironmentProblem(
        f"no master config found: the setting `master-configs` "
        f"({', '.join(settings.master_configs)}, from {where}) matches no file in "
        f"{settings.root}; set `master-configs` in .perf-changelog.toml or "
        "[tool.perf-changelog] to the globs of your master-config files"
    )


def master_paths(root: Path, globs: Sequence[str]) -> list[Path]:
    """The work tree's files under ``root`` that the globs name (``*`` inside one
    folder): what `add`, `log` and `init` take as master configs."""
    return sorted({p for glob in globs for p in root.glob(glob) if p.is_file()})


def work_tree_masters(settings: Settings) -> MasterSet | None:
    """The work tree's master configs; ``None`` when the globs match no file. A file
    that links outside the repository, or over ``max-bytes``, is refused, as in
    :meth:`Repo.read`."""
    root = settings.root
    paths = master_paths(root, settings.master_configs)
    if not paths:
        return None
    top = next((f for f in (root, *root.parents) if (f / ".git").exists()), root)
    files = []
    for path in paths:
        name = path.relative_to(root).as_posix()
        file = confined(top, path.relative_to(top).as_posix())
        files.append(MasterFile(name, read_file(file, name, settings.max_bytes)))
    return MasterSet(files)
