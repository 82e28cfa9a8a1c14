"""``changelog merge-driver %O %A %B %P``: git's merge driver for the changelog (the merge is
:mod:`changelog_tool.resolution.driver`). Exit 0: merged bytes in %A; exit 1: git's own
conflict left, stderr says why."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from changelog_tool.resolution import driver


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--conflict-exit",
        type=int,
        default=1,
        metavar="N",
        help="exit with N when the conflict is left in %%A (default 1); the installed "
        "command passes 3, so that any other failure falls back to git's own conflict",
    )
    parser.add_argument("base", type=Path, metavar="O", help="the merge base (git's %%O)")
    parser.add_argument(
        "ours", type=Path, metavar="A", help="ours, rewritten with the result (git's %%A)"
    )
    parser.add_argument("theirs", type=Path, metavar="B", help="theirs (git's %%B)")
    parser.add_argument("path", metavar="P", help="the path being merged (git's %%P)")


def run(
    *, base: Path, ours: Path, theirs: Path, path: str, conflict_exit: int = driver.CONFLICT
) -> int:
    # The one place a command catches errors itself: inside git, an error must
    # still leave git's own conflict behind, never a half-merged or "ours" file.
    try:
        code = driver.merge(base, ours, theirs, path, _say)
    except Exception as exc:  # any failure becomes a normal conflict (ctrl+c is none)
        _say(f"{driver.NAME}: {path}: {exc}")
        code = driver.leave_conflict(base, ours, theirs, path, _say)
    return conflict_exit if code == driver.CONFLICT else code


def _say(text: str) -> None:
    print(text, file=sys.stderr)
