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
from pathlib import Path
from typing import Any

from changelog_tool.errors import ChangelogError, EnvironmentProblem


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--onto", metavar="REF",
                        help="the protected ref (default: from settings, origin/main else main)")
    parser.add_argument("--commit", action="store_true",
                        help="commit it as a merge of REF (clears a pull request's conflict)")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(*, onto: str | None, commit: bool, format: str) -> int:
    from changelog_tool import settings as settings_module
    from changelog_tool.merge import Merged
    from changelog_tool.protect import Decision
    from changelog_tool.replace import replace_file
    from changelog_tool.repo import WORKTREE, Repo
    from changelog_tool.resolution import Upstream, emit, merge_sides, repo_path

    repo = Repo.open(Path.cwd())
    settings = settings_module.load(Path.cwd())
    path = repo_path(settings.changelog_path, repo.root)
    if repo.index_stages(path):
        raise ChangelogError(f"{path} is conflicted: run `changelog resolve` instead")
    ref = onto or repo.first_existing(settings.protected_ref)
    if ref is None:
        tried = ", ".join(settings.protected_ref)
        raise EnvironmentProblem(
            f"none of the protected refs ({tried}) exists in this clone; "
            "run `git fetch origin main` or pass --onto REF"
        )
    ref_sha = repo.resolve(ref)
    base_sha = repo.merge_base(ref_sha, "HEAD")
    upstream = repo.read(ref_sha, path)
    if upstream is None:
        raise ChangelogError(f"{ref} has no {path}; nothing to sync with")
    head = repo.read("HEAD", path) or b""
    work = repo.read(WORKTREE, path) or b""
    if commit and work != head:
        raise ChangelogError(
            f"{path} has uncommitted changes; commit or stash them first "
            "(or run `changelog sync` without --commit)"
        )
    outcome = merge_sides(
        path, repo.read(base_sha, path) or b"", work, upstream,
        upstream=Upstream(ref, upstream),
        decision=Decision("theirs", f"sync: {ref} leads, this branch's own entries follow"),
    )
    extra: dict[str, Any] = {"ref": ref, "ref_sha": ref_sha, "merge_base": base_sha,
                             "written": False, "commit": None}
    if not isinstance(outcome.result, Merged):
        emit(outcome, format, extra, f"{path} was not changed")
        return 1
    data = outcome.result.data
    if data == work and (not commit or base_sha == ref_sha):
        emit(outcome, format, extra, f"{path} is already {ref}'s bytes plus this branch's entries")
        return 0
    if not commit:
        replace_file(repo.root / path, data)
        extra["written"] = True
        emit(outcome, format, extra,
             f"rewrote {path}; commit it as a merge of {ref} with `changelog sync --commit` "
             "(a plain commit does not clear a pull request's conflict)")
        return 0
    return _commit_merge(repo, ref, ref_sha == base_sha, path, data, outcome, format, extra)


def _commit_merge(repo: Any, ref: str, merged_already: bool, path: str, data: bytes,
                  outcome: Any, fmt: str, extra: dict[str, Any]) -> int:
    from changelog_tool.replace import replace_file
    from changelog_tool.repo import run_git, try_git
    from changelog_tool.resolution import emit

    root: Path = repo.root
    if not merged_already:
        started = try_git(root, "merge", "--no-ff", "--no-commit", ref)
        if not (repo.git_dir() / "MERGE_HEAD").is_file():
            raise EnvironmentProblem(
                f"`git merge --no-commit {ref}` did not start: "
                f"{(started.stderr or started.stdout).strip()}"
            )
    replace_file(root / path, data)
    repo.add(path)
    extra["written"] = True
    unmerged = [p for p in run_git(root, "diff", "--name-only", "--diff-filter=U").splitlines()
                if p and p != path]
    if unmerged:
        emit(outcome, fmt, extra,
             f"{path} is resolved and staged, but the merge of {ref} stopped on other files "
             f"({', '.join(unmerged)}): resolve them, then `git commit`")
        return 1
    if merged_already:
        message = f"Sync {path} with {ref}: its bytes plus this branch's own entries"
        run_git(root, "commit", "-q", "-m", message, "--", path)
    else:
        message = f"Merge {ref}: {path} as {ref}'s bytes plus this branch's own entries"
        run_git(root, "commit", "-q", "-m", message)
    extra["commit"] = run_git(root, "rev-parse", "HEAD")
    emit(outcome, fmt, extra, f"committed {extra['commit'][:12]}: {message}")
    return 0
