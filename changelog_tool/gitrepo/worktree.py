"""Files of the work tree as the tool may read them: the glob walk, and a read within
``max-bytes``, every path confined first."""

from __future__ import annotations

import fnmatch
from pathlib import Path

from changelog_tool.errors import too_large


def read_file(file: Path, name: str, limit: int | None) -> bytes:
    """A confined work-tree file, refused over ``limit`` bytes before reading."""
    refusal = too_large(name, file.stat().st_size, limit)
    if refusal is not None:
        raise refusal
    return file.read_bytes()


def wild(part: str) -> bool:
    """Whether a glob segment holds a wildcard."""
    return any(c in part for c in "*?[")


def walk_dir(
    root: Path, prefix: str, parts: list[str], found: dict[str, str | None], links: set[str]
) -> None:
    """Paths under ``root`` matching the glob ``parts``, as the commit tree walk; symbolic links
    go to ``links``, not followed."""
    if not parts:
        return
    part, rest = parts[0], parts[1:]
    folder = root / prefix if prefix else root
    if part == "**":
        walk_dir(root, prefix, rest, found, links)
        if folder.is_dir():
            for child in sorted(folder.iterdir()):
                if child.is_dir() and not child.is_symlink() and child.name != ".git":
                    walk_dir(root, f"{prefix}{child.name}/", parts, found, links)
        return
    if wild(part):
        names = sorted(c.name for c in folder.iterdir()) if folder.is_dir() else []
        names = [n for n in names if fnmatch.fnmatchcase(n, part)]
    else:
        names = [part]
    for name in names:
        path = folder / name
        if path.is_symlink():
            links.add(f"{prefix}{name}")
        elif rest and path.is_dir():
            walk_dir(root, f"{prefix}{name}/", rest, found, links)
        elif not rest and path.is_file():
            found[f"{prefix}{name}"] = None
