"""The work tree's master configs, read without git and without parsing until a value is asked."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from changelog_tool.confinement import confined, top_of
from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.errors import EnvironmentProblem
from changelog_tool.gitrepo.worktree import folder_listing, glob_walk, read_file
from changelog_tool.settings import Settings


def no_master_configs(settings: Settings) -> EnvironmentProblem:
    where = settings.source or "the default settings"
    return EnvironmentProblem(
        f"no master config found: the setting `master-configs` "
        f"({', '.join(settings.master_configs)}, from {where}) matches no file in "
        f"{settings.root}; set `master-configs` in .perf-changelog.toml or "
        "[tool.perf-changelog] to the globs of your master-config files"
    )


def linked(path: str, what: str) -> str:
    """Why a symbolic link where a master config (or recipe) is looked for is refused."""
    return (
        f"{path} is a symbolic link where a {what} is looked for: git stores a link as "
        "the path it points to, so what it leads to is not judged here, while the "
        "benchmark jobs would read it; make it a regular file (or folder)"
    )


def master_paths(root: Path, globs: Sequence[str]) -> list[Path]:
    """The work tree's files under ``root`` that the globs name, by the diff engine's walk; a
    symbolic link is refused as ``verify`` refuses it."""
    found: dict[str, Path] = {}
    links: set[str] = set()
    for glob in globs:
        glob_walk(folder_listing, root, [part for part in glob.split("/") if part], found, links)
    if links:  # one that leads out of the checkout is refused as such, as verify does
        top = top_of(root)
        first = sorted(links)[0]
        confined(top, (root / first).relative_to(top).as_posix())
        raise EnvironmentProblem(linked(first, "master config"))
    return [root / path for path in sorted(found)]


def work_tree_masters(settings: Settings) -> MasterSet | None:
    """The work tree's master configs (``None`` when the globs match nothing); links outside and
    files over ``max-bytes`` refused."""
    root = settings.root
    paths = master_paths(root, settings.master_configs)
    if not paths:
        return None
    top = top_of(root)
    files = []
    for path in paths:
        name = path.relative_to(root).as_posix()
        file = confined(top, path.relative_to(top).as_posix())
        files.append(MasterFile(name, read_file(file, name, settings.max_bytes)))
    return MasterSet(files)
