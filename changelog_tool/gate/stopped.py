"""The verdict while git has stopped in a rebase, merge or cherry-pick: said first, and no
advice to append while commits to replay still change the changelog."""

from __future__ import annotations

from changelog_tool.findings import WARNING, Finding
from changelog_tool.gitrepo.process import Pending


def waiting(stopped: Pending, touching: list[str], path: str) -> str | None:
    """The advice in place of "append one", while commits to replay change ``path``."""
    if not touching:
        return None
    op = stopped.operation
    return (
        f"{len(touching)} commit(s) the {op} has still to replay change {path} and may "
        f"hold its entry: do not append one now, finish the {op} first"
    )


def in_progress(stopped: Pending, touching: list[str], path: str) -> Finding:
    op = stopped.operation
    if stopped.remaining is None:
        left = ""
    else:
        left = f", {len(stopped.remaining)} commit(s) still to replay"
        left += f", {len(touching)} of them changing {path}" if stopped.remaining else ""
    message = (
        f"a {op} is in progress{left}: the branch is judged as it stands now; finish it "
        f"(`{stopped.continue_command()}`, or `git {op} --abort`), then verify again"
    )
    return Finding("in-progress", message, path, None, WARNING)
