"""Which of a changelog's lines the protected branch already holds: main's past is
never the next pull request's fault, so a flaw in an entry main holds is a warning
(:func:`changelog_tool.ledger.filecheck.as_history`), and the same flaw in a new
entry an error. Without a repository or a protected ref that has the file, no line
is held and every entry is judged as new."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from changelog_tool.gitrepo import git, protected_blob

CHUNK = 1 << 20


def held_lines(file: Path, refs: Sequence[str]) -> int:
    """The number of ``file``'s leading whole lines that the first protected ref
    holding the file has too, byte for byte (the lines of their longest common
    prefix); 0 when there is no repository, no such ref or no such file there."""
    folder = file.absolute().parent
    top = git(folder, "rev-parse", "--show-toplevel")
    if top.returncode != 0:
        return 0
    root = Path(top.stdout.decode("utf-8", "surrogateescape").strip())
    try:
        path = file.absolute().resolve().relative_to(root.resolve()).as_posix()
    except ValueError:  # outside the work tree
        return 0
    found = protected_blob(root, list(refs), path)
    if found is None:
        return 0
    _, held = found
    lines = 0
    offset = 0
    with file.open("rb") as handle:
        while offset < len(held):
            chunk = handle.read(CHUNK)
            if not chunk:
                break
            other = held[offset : offset + len(chunk)]
            if chunk[: len(other)] != other:
                same = next(i for i, (a, b) in enumerate(zip(chunk, other, strict=False)) if a != b)
                return lines + chunk.count(b"\n", 0, same)
            lines += other.count(b"\n")
            offset += len(other)
    return lines


def lazy_held_lines(file: Path, refs: Sequence[str]) -> Callable[[], int]:
    """:func:`held_lines`, worked out only when a check finds a flaw to place."""
    found: list[int] = []

    def held() -> int:
        if not found:
            found.append(held_lines(file, refs))
        return found[0]

    return held
