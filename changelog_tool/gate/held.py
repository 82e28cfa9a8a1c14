"""The changelog's lines the protected branch already holds (an entry equal but for its pr-link),
where a flaw is a warning (:func:`~changelog_tool.ledger.filecheck.as_history`)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Container, Sequence
from pathlib import Path

from changelog_tool.gitrepo import git
from changelog_tool.gitrepo.objects import protected_blob
from changelog_tool.ledger.document import Ledger, read_file
from changelog_tool.ledger.pairing import unlinked


def held_lines(file: Path, refs: Sequence[str]) -> Container[int]:
    """The lines of ``file`` in entries (with the blank lines after) that the first protected ref
    holding the file holds too; none without one."""
    folder = file.absolute().parent
    top = git(folder, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        return frozenset()
    root = Path(top.stdout.decode("utf-8", "surrogateescape").strip())
    try:
        path = file.absolute().resolve().relative_to(root.resolve()).as_posix()
    except ValueError:  # outside the work tree
        return frozenset()
    found = protected_blob(root, refs, path)
    if found is None:
        return frozenset()
    return held_in(found[1], read_file(file))


def held_in(protected: bytes, data: bytes) -> Container[int]:
    """The lines of ``data`` in entries that ``protected`` holds by identity."""
    known = {unlinked(b.text) for b in Ledger(protected).blocks}
    mine = Ledger(data)
    lines: set[int] = set()
    for block in mine.blocks:
        if unlinked(block.text) in known:
            last = mine.line_of(max(block.start, block.sep_end - 1))
            lines.update(range(block.line, last + 1))
    return lines


def lazy_held_lines(file: Path, refs: Sequence[str]) -> Callable[[], Container[int]]:
    """:func:`held_lines`, worked out only when a check finds a flaw to place."""
    return functools.cache(functools.partial(held_lines, file, refs))
