"""`changelog resolve`: after a rebase or merge stopped on the changelog, resolve it.

Reads the conflicted file's index stages (1 base, 2 ours, 3 theirs), merges them
as the merge driver would, writes the result to the work tree (a whole-file
replace of bytes the merge verified: the protected side's bytes plus the
branch's own entries) and stages it with ``git add``. When the branch edited
history it refuses and leaves the file as git left it. The protected side comes
from the operation that stopped (a merge's message names the branch merged in);
the protected ref is only a hint when that does not say.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format
from changelog_tool.errors import ChangelogError
from changelog_tool.gitrepo import WORKTREE, GitDirectory, Repo, protected_blob
from changelog_tool.ledger import writer
from changelog_tool.merge.edits import possessive
from changelog_tool.merge.outcome import Upstream, emit, repo_path
from changelog_tool.merge.protected import Decision
from changelog_tool.merge.threeway import SIDES, Merged
from changelog_tool.resolution.recorded import merge_recorded

NEXT = {
    "rebase": "then run `git rebase --continue`",
    "am": "then run `git am --continue`",
    "merge": "then run `git commit` to conclude the merge",
    "cherry-pick": "then run `git cherry-pick --continue`",
    "revert": "then run `git revert --continue`",
}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--protected",
        choices=("ours", "theirs"),
        help="whose bytes lead (default: decided from the operation in progress; "
        "the protected ref is only a hint)",
    )
    add_format(parser)


def run(*, protected: str | None, format: str) -> int:
    with Repo.open(Path.cwd()) as repo:
        settings = settings_module.load(Path.cwd())
        repo.limit = settings.max_bytes
        path = repo_path(settings.changelog_path, repo.root)
        stages = repo.index_stages(path)
        if not stages:
            raise ChangelogError(
                f"{path} has no conflict to resolve: the index holds no conflict stages for it "
                "(nothing was written)"
            )
        if 2 not in stages or 3 not in stages:
            raise ChangelogError(_deleted(path, "ours" if 2 not in stages else "theirs"))
        directory = GitDirectory(repo.root)
        operation = directory.operation()
        if operation == "merge":  # which branch: the merge message names it
            operation = _merge_with_names(repo.git_dir())
        conflicted = repo.read(WORKTREE, path)
        side = next((s for s in SIDES if s == protected), None)
        chosen = Decision(side, "chosen with --protected") if side else None
        outcome = merge_recorded(
            path,
            stages.get(1, b""),
            stages[2],
            stages[3],
            settings=settings,
            directory=directory,
            decision=chosen,
            operation=lambda: operation,
            upstream=Upstream.of(protected_blob(repo.root, settings.protected_ref, path)),
        )
        if not isinstance(outcome.result, Merged):
            emit(
                outcome,
                format,
                {"written": False},
                f"{path} is left as git left it (conflicted): fix it by hand, then `git add {path}`",
            )
            return 1
        writer.replace(
            repo.root / path,
            outcome.result.data,
            expected=conflicted,
            bounds=writer.Bounds.of(settings),
        )
        repo.add(path)
        hint = NEXT.get(
            (operation or "").split(" ", 1)[0], "then finish the operation that stopped"
        )
        emit(
            outcome,
            format,
            {"written": True, "operation": (operation or "").split(" ", 1)[0] or None},
            f"{path} is resolved and staged; {hint}",
        )
        return 0


def _deleted(path: str, gone: str) -> str:
    """What to run when one side deleted the changelog and the other changed it."""
    kept = "theirs" if gone == "ours" else "ours"
    quoted = shlex.quote(path)
    return (
        f"{path} was deleted by {gone} and changed by {kept}; a deletion is not an append, "
        f"so it is not merged (nothing was written). To accept the deletion, run "
        f"`git rm {quoted}`; to keep {possessive(kept)} file, run "
        f"`git checkout --{kept} {quoted}` then `git add {quoted}`"
    )


def _merge_with_names(git_dir: Path) -> str:
    """``merge`` and the branches the merge message names (``Merge branch 'main'``,
    ``Merge remote-tracking branch 'upstream/main' into feature``): ``merge main``."""
    try:
        subject = (git_dir / "MERGE_MSG").read_text("utf-8", "replace").split("\n", 1)[0]
    except OSError:
        return "merge"
    names = re.findall(r"(?:branch|branches|tag|commit) '([^']+)'", subject)
    names += re.findall(r"(?:, | and )'([^']+)'", subject)
    return " ".join(["merge", *names])
