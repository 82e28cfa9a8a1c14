"""Where the tool may read and write in a checkout, in pure path logic: the top of the work tree
by git's discovery rule (gitfiles, ``GIT_CEILING_DIRECTORIES``, ``GIT_DIR``, ``GIT_WORK_TREE``),
and no symbolic link leading outside the repository or into its git directory."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem


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
    return work_tree_top(folder) or folder


def confined_file(file: Path) -> Path:
    """``file``, refused as :func:`confined` refuses, within its own work tree."""
    folder = file.parent.absolute()
    top = top_of(folder)
    return confined(top, file.absolute().relative_to(top).as_posix())


_HEX_ID = re.compile(rb"[0-9a-f]{40}(?:[0-9a-f]{24})?")
_TRUE = ("1", "true", "yes", "on")


def work_tree_top(folder: Path) -> Path | None:
    """An invalid gitfile is refused."""
    found = discover(folder)
    return found[0] if found else None


def discover(folder: Path) -> tuple[Path, Path | None] | None:
    """The top of the work tree holding ``folder`` and the git directory its ``.git`` names
    (``None`` when ``GIT_DIR`` names it); ``None`` when none holds it."""
    folder = Path(os.path.abspath(folder))
    tree = os.environ.get("GIT_WORK_TREE")
    if os.environ.get("GIT_DIR"):
        return (Path(os.path.abspath(tree)) if tree else folder), None
    ceilings = {
        Path(os.path.abspath(c))
        for c in os.environ.get("GIT_CEILING_DIRECTORIES", "").split(os.pathsep)
        if os.path.isabs(c)
    }
    across = os.environ.get("GIT_DISCOVERY_ACROSS_FILESYSTEM", "").lower() in _TRUE
    device = _device(folder)
    for candidate in (folder, *folder.parents):
        if candidate != folder and (
            candidate in ceilings or (not across and _device(candidate) != device)
        ):
            return None
        dot = candidate / ".git"
        if dot.is_file():
            dot = gitfile_target(dot)  # refused unless it names a git directory
        elif not (dot.is_dir() and is_git_directory(dot)):
            if is_git_directory(candidate):
                return None  # a bare repository, or inside a git directory: no work tree
            continue
        return (Path(os.path.abspath(tree)) if tree else candidate), Path(os.path.abspath(dot))
    return None


def is_git_directory(folder: Path) -> bool:
    """Git's test: a valid ``HEAD``, and ``objects`` and ``refs`` in it or its ``commondir``."""
    try:
        head = (folder / "HEAD").read_bytes()[:256] if (folder / "HEAD").is_file() else b""
        if not (head.startswith(b"ref:") or _HEX_ID.match(head)):
            return False
        common = folder
        if (folder / "commondir").is_file():
            common = folder / (folder / "commondir").read_text(encoding="utf-8").strip()
        return (common / "objects").is_dir() and (common / "refs").is_dir()
    except (OSError, UnicodeDecodeError):
        return False


def gitfile_target(dot: Path) -> Path:
    """The git directory a ``.git`` file names, or refused with the words git stops with."""
    try:
        data = dot.read_bytes()
    except OSError as exc:
        raise EnvironmentProblem(f"git cannot read {dot}: {exc.strerror}") from None
    line = data.rstrip(b"\r\n")
    if not line.startswith(b"gitdir: ") or b"\n" in line:
        raise EnvironmentProblem(
            f"{dot} is not a git directory nor a gitfile (`gitdir: PATH`), so git stops "
            "there (invalid gitfile format): remove it, or make it name the git directory"
        )
    target = dot.parent / os.fsdecode(line.removeprefix(b"gitdir: "))
    if not is_git_directory(target):
        raise EnvironmentProblem(
            f"{dot} names {target}, which is not a git directory, so git stops there: "
            "repair or remove it"
        )
    return target


def _device(folder: Path) -> int | None:
    try:
        return os.stat(folder).st_dev
    except OSError:
        return None
