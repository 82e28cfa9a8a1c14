"""The one glob walk (a commit's trees or the work tree's folders) and the work tree's read
within ``max-bytes``."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Literal, TypeVar

from changelog_tool.errors import check_size


def read_file(file: Path, name: str, limit: int | None) -> bytes:
    """A confined work-tree file, refused over ``limit`` bytes before reading."""
    check_size(name, file.stat().st_size, limit)
    return file.read_bytes()


Kind = Literal["tree", "file", "link"] | None
F = TypeVar("F")  # what names a child: a folder to list next, a file to answer with


def glob_walk(
    listing: Callable[[F, str | None], Iterable[tuple[str, Kind, F]]],
    folder: F,
    parts: list[str],
    found: dict[str, F],
    links: set[str],
    prefix: str = "",
) -> None:
    """Paths under ``folder`` (at ``prefix``) matching the glob ``parts`` (``*`` within a
    segment, ``**`` across) -> what names them; symbolic links go to ``links``, not followed.
    ``listing`` gives a folder's children matching a segment (``None``: all, for ``**``)."""
    if not parts:
        return
    part, rest = parts[0], parts[1:]
    if part == "**":
        glob_walk(listing, folder, rest, found, links, prefix)
        for name, kind, child in listing(folder, None):
            if kind == "tree":
                glob_walk(listing, child, parts, found, links, f"{prefix}{name}/")
        return
    for name, kind, child in listing(folder, part):
        if kind == "link":
            links.add(prefix + name)
        elif rest and kind == "tree":
            glob_walk(listing, child, rest, found, links, f"{prefix}{name}/")
        elif not rest and kind == "file":
            found[prefix + name] = child


def folder_listing(folder: Path, part: str | None) -> Iterator[tuple[str, Kind, Path]]:
    """The work tree's listing for :func:`glob_walk`; ``**`` passes ``.git`` by."""
    if part is not None and not any(c in part for c in "*?["):  # no wildcard
        names = [part]
    else:
        names = sorted(c.name for c in folder.iterdir()) if folder.is_dir() else []
        names = [n for n in names if (fnmatch.fnmatchcase(n, part) if part else n != ".git")]
    for name in names:
        path = folder / name
        if path.is_symlink():
            yield name, "link", path
        elif path.is_dir():
            yield name, "tree", path
        elif path.is_file():
            yield name, "file", path
