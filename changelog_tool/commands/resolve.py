"""`changelog resolve`: after a rebase or merge stopped on the changelog, merge its
index stages as the driver would, write the result and stage it; refused (the
file left as git left it) when the branch edited history."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

from changelog_tool.commands import add_format
from changelog_tool.errors import ChangelogError
from changelog_tool.gitrepo import GitDirectory, protected_blob
from changelog_tool.gitrepo.process import text_merges
from changelog_tool.ledger import writer
from changelog_tool.ledger.document import label, parse
from changelog_tool.merge.conflict import unread_entries
from changelog_tool.merge.outcome import Outcome, emit, merge_sides
from changelog_tool.merge.protected import Context, Decision
from changelog_tool.merge.replay import Upstream, possessive
from changelog_tool.merge.threeway import Side
from changelog_tool.resolution.driver import recorded_context, write_merged
from changelog_tool.resolution.here import changelog_here

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


def run(*, protected: Side | None, format: str) -> int:
    with changelog_here() as (repo, settings, path):
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
            operation = _merge_with_names(repo.git_directory)
        chosen = Decision(protected, "chosen with --protected") if protected else None
        upstream = Upstream.of(protected_blob(repo.root, settings.protected_ref, path))
        sides = (stages.get(1, b""), stages[2], stages[3])
        merges = text_merges(repo.root, *sides)  # what git's own merge may have left
        given = Context(upstream=upstream, operation=lambda: operation, decision=chosen)
        context = recorded_context(path, sides[0], settings, directory, given)

        def merged(current: bytes) -> Outcome:
            """Refused when the work tree holds bytes the stages lack (none is dropped)."""
            unread = unread_entries(current, [*sides, *merges])
            if unread:
                raise ChangelogError(_unread(path, unread))
            return merge_sides(path, *sides, context)

        outcome, _ = write_merged(repo.root / path, merged, writer.Bounds.of(settings))
        if not outcome.ok:
            emit(
                outcome,
                format,
                {"written": False},
                f"{path} is left as git left it (conflicted): fix it by hand, then `git add {path}`",
            )
            return 1
        repo.add(path)
        verb = (operation or "").split(" ", 1)[0]
        hint = NEXT.get(verb, "then finish the operation that stopped")
        emit(
            outcome,
            format,
            {"written": True, "operation": verb or None},
            f"{path} is resolved and staged; {hint}",
        )
        return 0


def _unread(path: str, unread: list[tuple[int, bytes]]) -> str:
    """What to do with work-tree bytes that are in none of git's three sides."""
    quoted = shlex.quote(path)
    named = "; ".join(f"line {line} ({_name(raw, line)})" for line, raw in unread)
    return (
        f"{path} holds {len(unread)} entr{'y' if len(unread) == 1 else 'ies'} or text that "
        f"none of git's three sides has ({named}): resolve rebuilds the file from those "
        "sides and would drop it, so nothing was written. To keep it, copy it aside, run "
        f"`git checkout --ours -- {quoted}` and `changelog resolve`, then append it again "
        f"(`changelog add`); to drop it, run `git checkout --ours -- {quoted}` and "
        "`changelog resolve`"
    )


def _name(raw: bytes, line: int) -> str:
    return label(parse(raw, line), raw) if raw.startswith(b"- ") else "text before the first entry"


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
