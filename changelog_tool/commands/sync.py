"""`changelog sync [--onto REF] [--commit] [--rebuild]`: the branch's changelog as REF's bytes
plus the branch's own entries (the merge the driver computes); ``--commit`` records it as a
merge of REF, which clears a pull request's conflict on GitHub."""

from __future__ import annotations

import argparse
import shlex

from changelog_tool.commands import add_format
from changelog_tool.errors import ChangelogError
from changelog_tool.gitrepo import WORKTREE
from changelog_tool.ledger import writer
from changelog_tool.merge.outcome import emit
from changelog_tool.merge.threeway import Merged
from changelog_tool.resolution.here import changelog_here
from changelog_tool.resolution.sync import Sync, commit_merge, rebuilt, recovered


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--onto",
        metavar="REF",
        help="the protected ref (default: from settings, origin/main else main)",
    )
    parser.add_argument(
        "--commit",
        action="store_true",
        help="commit it as a merge of REF (clears a pull request's conflict)",
    )
    parser.add_argument(
        "--rebuild",
        action="store_true",
        help="when the branch lost REF's entries (a rebase with -X theirs): write REF's "
        "bytes, then the entries this branch's own commits appended",
    )
    add_format(parser)


def run(*, onto: str | None, commit: bool, format: str, rebuild: bool = False) -> int:
    # the lock is held from the first read of the changelog to the last write and the
    # commit, across `git merge`: an `add` meanwhile waits, then appends to the result
    with changelog_here(hold=True) as (repo, settings, path):
        if repo.index_stages(path):
            raise ChangelogError(f"{path} is conflicted: run `changelog resolve` instead")
        ref = onto or repo.protected_ref(settings.protected_ref, "--onto REF")
        named = f" --onto {shlex.quote(ref)}" if onto else ""
        rerun, again = f"changelog sync{named}", f"changelog sync --commit{named}"
        ref_sha = repo.resolve(ref)
        base_sha = repo.merge_base(ref_sha, "HEAD")
        upstream = repo.read(ref_sha, path)
        if upstream is None:
            raise ChangelogError(f"{ref} has no {path}; nothing to sync with")
        sync = Sync(path, ref, repo.read(base_sha, path) or b"", upstream, settings)
        head = repo.read("HEAD", path)
        on_disk = repo.read(WORKTREE, path)
        work = on_disk or b""
        outcome = sync.of(head or b"")
        # The work tree may hold what `changelog sync` wrote from HEAD's file (run
        # before, without --commit): that is not a change of the user's own.
        pending = work != (head or b"") and not (
            isinstance(outcome.result, Merged) and outcome.result.data == work
        )
        if pending:
            if commit:
                raise ChangelogError(
                    f"{path} has uncommitted changes besides what `changelog sync` writes; "
                    f"commit them, then run `{again}` (or stash them first)"
                )
            outcome = sync.of(work)
        extra: dict[str, object] = {
            "ref": ref,
            "ref_sha": ref_sha,
            "merge_base": base_sha,
            "written": False,
            "commit": None,
        }
        lost = not isinstance(outcome.result, Merged) and any(
            p.code == "history-modified" for p in outcome.result.problems
        )
        own = recovered(repo, base_sha, path) if lost else []
        if lost and rebuild:
            outcome = sync.of(rebuilt(sync.base, own))
            extra["rebuilt"] = len(own)
        if not isinstance(outcome.result, Merged):
            fix = "fix what is named above"
            if lost:
                shown = shlex.quote(f"{ref}:{path}")
                fix = (
                    f"an entry {ref} holds must read as {ref} has it (`git show {shown}` "
                    "prints its file); put back what is named above"
                )
                if not rebuild:
                    fix += (
                        f", or rebuild it: `{rerun} --rebuild` writes {ref}'s bytes, then the "
                        f"{len(own)} entr(y/ies) this branch's own commits appended"
                        + "".join(f"\n  {_first_line(e)}" for e in own)
                    )
            emit(outcome, format, extra, f"{path} was not changed: {fix}, then run `{rerun}` again")
            return 1
        data = outcome.result.data
        merged_already = base_sha == ref_sha
        already = f"{path} is already {ref}'s bytes plus this branch's entries"
        if commit:
            if data == head and merged_already:
                emit(outcome, format, extra, f"{already}, committed")
                return 0
            code, step = commit_merge(
                repo,
                ref,
                merged_already,
                path,
                data,
                head,
                work,
                extra,
                bounds=writer.Bounds.of(settings),
                again=again,
            )
            emit(outcome, format, extra, step)
            return code
        if pending:
            step = (
                f"it holds this work tree's uncommitted changes too: commit them, then run "
                f"`{again}` to record a merge of {ref} "
                "(a plain commit alone does not clear a pull request's conflict)"
            )
        elif data != head or not merged_already:
            step = (
                f"commit it as a merge of {ref} with `{again}` "
                "(a plain commit does not clear a pull request's conflict)"
            )
        else:
            step = "nothing to commit"
        if data == work:
            emit(outcome, format, extra, f"{already}; {step}")
            return 0
        writer.replace(repo.root / path, data, expected=on_disk, bounds=writer.Bounds.of(settings))
        extra["written"] = True
        emit(outcome, format, extra, f"rewrote {path}; {step}")
        return 0


def _first_line(entry: bytes) -> str:
    """An entry named by its config-keys' first line (``- config-keys: [a]``, ``- a``)."""
    lines = entry.decode("utf-8", "replace").split("\n")
    return " ".join(line.strip() for line in lines[:2])
