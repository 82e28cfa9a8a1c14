"""What git records of main's bytes while a rebase, merge or pick runs (the merge
driver and ``resolve`` alike)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from changelog_tool.merge.replay import Mainline


def recorded_mainline(root: Path, folder: Path | None, path: str, refs: Sequence[str]) -> Mainline:
    """What git records of main's bytes on the protected side: the file of the
    commit a rebase or a series of picks builds on (one git process); that no replay
    runs (a merge, one pick: the protected side is main's, all of it); only when a
    replay runs that records nothing (``rebase --apply``), the protected ref's file
    (``refs``) as a hint, and the guess after it."""
    from changelog_tool.gitrepo.process import protected_blob, read_first_blob, replay_start

    start = replay_start(folder) if folder is not None else None
    if start is None:
        return Mainline(replaying=False)
    if isinstance(start, tuple):
        sha, name = start
        found = read_first_blob(root, [f"{sha}:{path}"])
        if found is not None:
            return Mainline(found[1], f"{sha[:12]}'s file (git's {name})")
    ref = protected_blob(root, refs, path)
    return Mainline(ref=ref[1], ref_name=ref[0]) if ref is not None else Mainline()
