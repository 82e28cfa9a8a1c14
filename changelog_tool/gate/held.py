"""Which of a changelog's lines the protected branch already holds: main's past is
never the next pull request's fault, so a flaw in an entry main holds is a warning
(:func:`changelog_tool.ledger.filecheck.as_history`), and the same flaw in a new
entry an error. Without a repository or a protected ref that has the file, no line
is held and every entry is judged as new."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem
from changelog_tool.gitrepo import git
from changelog_tool.gitrepo.objects import Objects
from changelog_tool.ledger.streams import first_difference


def held_lines(file: Path, refs: Sequence[str]) -> int:
    """The number of ``file``'s leading whole lines that the first protected ref
    holding the file has too, byte for byte (the lines of their longest common
    prefix); 0 when there is no repository, no such ref or no such file there. The
    ref's file is read a chunk at a time, never whole."""
    folder = file.absolute().parent
    top = git(folder, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        return 0
    root = Path(top.stdout.decode("utf-8", "surrogateescape").strip())
    try:
        path = file.absolute().resolve().relative_to(root.resolve()).as_posix()
    except ValueError:  # outside the work tree
        return 0
    objects = Objects(root)
    try:
        for ref in refs:
            found = objects.header(f"{ref}:{path}")
            if found is None:
                continue
            _, kind, size = found
            if kind == "blob":
                return _common_lines(objects.chunks(size), file)
            objects.skip(size)
        return 0
    except EnvironmentProblem:  # git cannot say: no line is known to be held
        return 0
    finally:
        objects.close()


def _common_lines(held: Iterable[bytes], file: Path) -> int:
    """The line breaks in the longest common prefix of the chunks ``held`` and
    ``file``'s bytes, counting only whole lines."""
    lines = 0
    with file.open("rb") as handle:
        for chunk in held:
            mine = handle.read(len(chunk))
            if mine != chunk:
                return lines + chunk.count(b"\n", 0, first_difference(mine, chunk))
            lines += chunk.count(b"\n")
    return lines


def lazy_held_lines(file: Path, refs: Sequence[str]) -> Callable[[], int]:
    """:func:`held_lines`, worked out only when a check finds a flaw to place."""
    found: list[int] = []

    def held() -> int:
        if not found:
            found.append(held_lines(file, refs))
        return found[0]

    return held
