"""Files of the work tree as the tool may read them: the glob walk over folders, and
the confinement of every read to the checkout (a branch's symbolic link must not
lead the tool outside the repository, or into its git directory)."""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem, too_large


def confined(top: Path, path: str, git_dirs: Iterable[Path] = ()) -> Path:
    """``top / path``, refused (:class:`EnvironmentProblem`) when a symbolic link on the
    way leads outside ``top`` or into the git directory (``top/.git``, ``git_dirs``):
    a branch must not make the tool read, and echo, files outside the checkout such
    as ``.git/config``."""
    file = top / path
    real, root = file.resolve(), top.resolve()
    inner = {(root / ".git").resolve(), *(d.resolve() for d in git_dirs)}
    if not real.is_relative_to(root):
        where = "outside the repository"
    elif any(real.is_relative_to(d) for d in inner):
        where = "into the git directory"
    else:
        return file
    raise EnvironmentProblem(
        f"{path!r} is a symbolic link that leads {where}; the tool reads only files "
        "inside the checkout: make it a regular file (or a link inside the repository)"
    )


def read_file(file: Path, name: str, limit: int | None) -> bytes:
    """A work-tree file that :func:`confined` gave, refused before reading when over
    ``limit`` bytes (``max-bytes``; ``name`` says which file in the message)."""
    refusal = too_large(name, file.stat().st_size, limit)
    if refusal is not None:
        raise refusal
    return file.read_bytes()


def wild(part: str) -> bool:
    """Whether a glob segment holds a wildcard."""
    return any(c in part for c in "*?[")


def walk_dir(root: Path, prefix: str, parts: list[str], found: dict[str, str | None]) -> None:
    """Paths under ``root`` matching the glob ``parts`` (the work tree's twin of the
    walk over a commit's tree); ``**`` does not descend into linked folders (git
    stores a link, not a tree, and a link to ``..`` would never end)."""
    if not parts:
        return
    part, rest = parts[0], parts[1:]
    folder = root / prefix if prefix else root
    if part == "**":
        walk_dir(root, prefix, rest, found)
        if folder.is_dir():
            for child in sorted(folder.iterdir()):
                if child.is_dir() and not child.is_symlink() and child.name != ".git":
                    walk_dir(root, f"{prefix}{child.name}/", parts, found)
        return
    if wild(part):
        names = sorted(c.name for c in folder.iterdir()) if folder.is_dir() else []
        names = [n for n in names if fnmatch.fnmatchcase(n, part)]
    else:
        names = [part]
    for name in names:
        path = folder / name
        if rest and path.is_dir():
            walk_dir(root, f"{prefix}{name}/", rest, found)
        elif not rest and path.is_file():
            found[f"{prefix}{name}"] = None
