"""Files as the tool may read them: the one glob walk (the work tree's or a commit's), and a
work-tree read within ``max-bytes``, every path confined first."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from changelog_tool.errors import too_large


def read_file(file: Path, name: str, limit: int | None) -> bytes:
    """A confined work-tree file, refused over ``limit`` bytes before reading (``name`` for the
    message)."""
    refusal = too_large(name, file.stat().st_size, limit)
    if refusal is not None:
        raise refusal
    return file.read_bytes()


def wild(part: str) -> bool:
    """Whether a glob segment holds a wildcard."""
    return any(c in part for c in "*?[")


def matches(name: str, part: str) -> bool:
    """Whether ``name`` matches the glob segment ``part``."""
    return fnmatch.fnmatchcase(name, part) if wild(part) else name == part


Node = TypeVar("Node")
Entries = Callable[[Node, str | None], Iterable[tuple[str, str, Node, str | None]]]
"""A folder's ``(name, kind, node, value)`` entries matching a glob segment (``None``: those
``**`` enters); kind ``dir``, ``file`` or ``link``."""


def walk(
    entries: Entries[Node],
    node: Node,
    prefix: str,
    parts: list[str],
    found: dict[str, str | None],
    links: set[str],
) -> None:
    """Paths under ``node`` (at ``prefix``) matching the glob ``parts`` (``*`` within a
    segment, ``**`` across), in the work tree or a commit; symbolic links go to ``links``,
    not followed."""
    if not parts:
        return
    part, rest = parts[0], parts[1:]
    if part == "**":
        walk(entries, node, prefix, rest, found, links)
        for name, kind, child, _ in entries(node, None):
            if kind == "dir":
                walk(entries, child, f"{prefix}{name}/", parts, found, links)
        return
    for name, kind, child, value in entries(node, part):
        if kind == "link":
            links.add(prefix + name)
        elif rest and kind == "dir":
            walk(entries, child, f"{prefix}{name}/", rest, found, links)
        elif not rest and kind == "file":
            found[prefix + name] = value


def walk_dir(
    root: Path, prefix: str, parts: list[str], found: dict[str, str | None], links: set[str]
) -> None:
    """:func:`walk` in the work tree under ``root``."""
    walk(_folder_entries, root / prefix if prefix else root, prefix, parts, found, links)


def _folder_entries(folder: Path, part: str | None) -> Iterator[tuple[str, str, Path, None]]:
    """A plain name is looked up, not listed; ``**`` passes over ``.git``."""
    if part is not None and not wild(part):
        names = [part]
    else:
        listed = sorted(c.name for c in folder.iterdir()) if folder.is_dir() else []
        names = [
            n for n in listed if (n != ".git" if part is None else fnmatch.fnmatchcase(n, part))
        ]
    for name in names:
        path = folder / name
        yield name, _kind(path), path, None


def _kind(path: Path) -> str:
    if path.is_symlink():
        return "link"
    return "dir" if path.is_dir() else "file" if path.is_file() else ""
