"""Where the tool may read and write in a checkout: a symbolic link must not lead outside the
repository or into its git directory (pure path logic)."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem
from changelog_tool.toplevel import work_tree_top


def confined(top: Path, path: str, git_dirs: Iterable[Path] = ()) -> Path:
    """``top / path``, refused (:class:`EnvironmentProblem`) when a link on the way leads outside
    ``top`` or into a git directory (``top/.git``, ``git_dirs``)."""
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


def top_of(folder: Path) -> Path:
    """The work tree holding ``folder`` (else ``folder`` itself)."""
    return work_tree_top(folder) or folder


def confined_file(file: Path) -> Path:
    """``file``, refused as :func:`confined` refuses, within its own work tree."""
    folder = file.parent.absolute()
    top = top_of(folder)
    return confined(top, file.absolute().relative_to(top).as_posix())
