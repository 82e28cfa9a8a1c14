"""`changelog sync [--onto REF] [--commit]`: make the branch's changelog REF's bytes
plus the branch's own entries.

GitHub's own merge ignores merge drivers, so a pull request whose base moved
shows a conflict on the changelog. ``sync`` computes the same merge the driver
would (base: the merge-base with REF; protected: REF; the other side: this
branch) and rewrites the work-tree file with it. This is the one rewrite of
the changelog that is not an append, and it is allowed because the result is
exactly REF's bytes (an exact prefix, byte for byte) followed by the entries
this branch appended: compared with REF, the branch then only appends, which
is what CI checks. If the branch edited history, nothing is written.

With ``--commit`` the rewrite is committed as a merge of REF (``git merge
--no-commit REF``, then this file, then ``git commit``): only a merge moves the
pull request's merge-base, which is what clears GitHub's conflict.
"""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

from changelog_tool.commands import add_format
from changelog_tool.errors import ChangelogError, EnvironmentProblem
from changelog_tool.records import record

if TYPE_CHECKING:
    from changelog_tool.ledger.writer import Bounds
    from changelog_tool.merge.outcome import Outcome


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
    add_format(parser)


def run(*, onto: str | None, commit: bool, format: str) -> int:
    from changelog_tool import settings as settings_module
    from changelog_tool.gitrepo import WORKTREE, Repo
    from changelog_tool.ledger import writer
    from changelog_tool.merge.outcome import emit, repo_path
    from changelog_tool.merge.threeway import Merged

    repo = Repo.open(Path.cwd())
    settings = settings_module.load(Path.cwd())
    repo.limit = settings.max_bytes
    path = repo_path(settings.changelog_path, repo.root)
    if repo.index_stages(path):
        raise ChangelogError(f"{path} is conflicted: run `changelog resolve` instead")
    ref = onto or repo.protected_ref(settings.protected_ref, "--onto REF")
    again = "changelog sync --commit" + (f" --onto {shlex.quote(ref)}" if onto else "")
    ref_sha = repo.resolve(ref)
    base_sha = repo.merge_base(ref_sha, "HEAD")
    upstream = repo.read(ref_sha, path)
    if upstream is None:
        raise ChangelogError(f"{ref} has no {path}; nothing to sync with")
    sync = Sync(path, ref, repo.read(base_sha, path) or b"", upstream)
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
    extra: dict[str, Any] = {
        "ref": ref,
        "ref_sha": ref_sha,
        "merge_base": base_sha,
        "written": False,
        "commit": None,
    }
    if not isinstance(outcome.result, Merged):
        rerun = "changelog sync" + (f" --onto {shlex.quote(ref)}" if onto else "")
        fix = "fix what is named above"
        if any(p.code == "history-modified" for p in outcome.result.problems):
            shown = shlex.quote(f"{ref}:{path}")
            fix = (
                f"an entry {ref} holds must read as {ref} has it (`git show {shown}` "
                "prints its file); put back what is named above"
            )
        emit(outcome, format, extra, f"{path} was not changed: {fix}, then run `{rerun}` again")
        return 1
    data = outcome.result.data
    merged_already = base_sha == ref_sha
    if commit:
        if data == head and merged_already:
            emit(
                outcome,
                format,
                extra,
                f"{path} is already {ref}'s bytes plus this branch's entries, committed",
            )
            return 0
        return commit_merge(
            repo,
            ref,
            merged_already,
            path,
            data,
            head,
            work,
            outcome,
            format,
            extra,
            bounds=writer.Bounds.of(settings),
            again=again,
        )
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
        emit(
            outcome,
            format,
            extra,
            f"{path} is already {ref}'s bytes plus this branch's entries; {step}",
        )
        return 0
    writer.replace(repo.root / path, data, expected=on_disk, bounds=writer.Bounds.of(settings))
    extra["written"] = True
    emit(outcome, format, extra, f"rewrote {path}; {step}")
    return 0


@record(frozen=True)
class Sync:
    """The merge ``sync`` computes: REF leads, the branch's own entries follow."""

    path: str
    ref: str
    base: bytes
    upstream: bytes

    def of(self, data: bytes) -> Outcome:
        from changelog_tool import settings as settings_module
        from changelog_tool.gate.prlinks import repository_slug
        from changelog_tool.merge.outcome import Upstream, merge_sides
        from changelog_tool.merge.protected import Decision
        from changelog_tool.merge.replay import Mainline

        # a file that already begins with REF's bytes was synced before: only what
        # follows them is the branch's own (the merge-base would see REF's removals
        # and corrections as the branch's edits to history)
        base = self.upstream if data.startswith(self.upstream) else self.base
        return merge_sides(
            self.path,
            base,
            data,
            self.upstream,
            upstream=Upstream(self.ref, self.upstream),
            decision=Decision(
                "theirs", f"sync: {self.ref} leads, this branch's own entries follow"
            ),
            mainline=Mainline(replaying=False),  # REF's file is main's, all of it
            slug=lambda: repository_slug(settings_module.load(Path.cwd()), self.upstream),
        )


def commit_merge(
    repo: Any,
    ref: str,
    merged_already: bool,
    path: str,
    data: bytes,
    head: bytes | None,
    work: bytes,
    outcome: Any,
    fmt: str,
    extra: dict[str, Any],
    *,
    bounds: Bounds,
    quiet: bool = False,
    again: str | None = None,
) -> int:
    """Commit ``data`` as the changelog: a merge of REF when the base must move.
    ``quiet``: the caller reports (``finalize``); ``extra`` gets the commit;
    ``bounds``: the settings' (:meth:`Bounds.of`); ``again``: the command to run
    once the work tree lets the merge start."""
    from changelog_tool.gitrepo import WORKTREE, run_git, try_git
    from changelog_tool.ledger import writer
    from changelog_tool.merge.outcome import emit

    root: Path = repo.root
    if not merged_already:
        rerun = f"run `{again}` again" if again else "run it again"
        blocking = _uncommitted_in_the_way(root, ref, path)
        if blocking:
            shown = ", ".join(blocking[:5]) + (
                f" and {len(blocking) - 5} more" if blocking[5:] else ""
            )
            raise ChangelogError(
                f"the merge of {ref} would change files that have uncommitted changes here "
                f"({shown}), so git would refuse to start it; nothing was changed. Commit "
                f"them, or stash them (`git stash`, later `git stash pop`), then {rerun}"
            )
        # the work-tree file may hold sync's own rewrite: git would refuse to merge
        # over it, so put HEAD's bytes back first (the rewrite is recomputed below)
        _restore(root / path, head, work, bounds)
        started = try_git(root, "merge", "--no-ff", "--no-commit", ref)
        if not (repo.git_dir() / "MERGE_HEAD").is_file():
            _restore(root / path, work, head, bounds)
            raise EnvironmentProblem(
                f"`git merge --no-commit {ref}` did not start (nothing was changed): "
                f"{_gits_own_words(started.stderr or started.stdout)}"
            )
    writer.replace(root / path, data, expected=repo.read(WORKTREE, path), bounds=bounds)
    repo.add(path)
    extra["written"] = True
    unmerged = [
        p
        for p in run_git(root, "diff", "--name-only", "--diff-filter=U").splitlines()
        if p and p != path
    ]
    if unmerged:
        extra["unmerged"] = unmerged
        if quiet:
            return 1
        emit(
            outcome,
            fmt,
            extra,
            f"{path} is resolved and staged, but the merge of {ref} stopped on other files "
            f"({', '.join(unmerged)}): resolve them, then `git commit`",
        )
        return 1
    if merged_already:
        message = f"Sync {path} with {ref}: its bytes plus this branch's own entries"
        run_git(root, "commit", "-q", "-m", message, "--", path)
    else:
        message = f"Merge {ref}: {path} as {ref}'s bytes plus this branch's own entries"
        run_git(root, "commit", "-q", "-m", message)
    extra["commit"] = run_git(root, "rev-parse", "HEAD")
    if not quiet:
        emit(outcome, fmt, extra, f"committed {extra['commit'][:12]}: {message}")
    return 0


def _uncommitted_in_the_way(root: Path, ref: str, path: str) -> list[str]:
    """Files other than the changelog (which ``sync`` puts back itself) that hold
    uncommitted changes, or are untracked, and that the merge of ``ref`` would
    write (changed by ``ref`` since its merge-base with HEAD, and not the same on
    HEAD): git refuses to merge over them."""
    from changelog_tool.gitrepo import git

    def names(*args: str) -> list[str]:  # NUL-separated, not stripped (" M path")
        done = git(root, *args)
        if done.returncode != 0:
            return []
        return done.stdout.decode("utf-8", "surrogateescape").split("\0")

    # changed by REF since the merge-base, and not already as REF has it on HEAD
    touched = set(names("diff", "--name-only", "-z", f"HEAD...{ref}"))
    touched &= set(names("diff", "--name-only", "-z", "HEAD", ref))
    records = names("status", "--porcelain", "-z", "--untracked-files=all")
    dirty: list[str] = []
    renamed = False
    for record_ in records:
        if renamed:  # the original path of a rename or copy
            renamed = False
            name = record_
        else:
            if len(record_) < 4:
                continue
            renamed = record_[0] in "RC" or record_[1] in "RC"
            name = record_[3:]
        if name and name != path and name in touched and name not in dirty:
            dirty.append(name)
    return dirty


def _gits_own_words(output: str) -> str:
    """Git's message without what the merge driver said on the way (a merge that
    did not start merged nothing) and without tabs, one line after another."""
    lines = [
        line.strip()
        for line in output.splitlines()
        if line.strip() and not line.startswith("changelog merge-driver:")
    ]
    return " ".join(lines)


def _restore(file: Path, data: bytes | None, current: bytes | None, bounds: Bounds) -> None:
    """Make ``file`` hold ``data`` (absent for ``None``) unless it already does."""
    from changelog_tool.ledger import writer

    if data == current:
        return
    if data is None:
        file.unlink(missing_ok=True)
    else:
        writer.replace(file, data, expected=current, bounds=bounds)
