"""What to say of a ref the clone lacks: the fetch to run, the ref it misspells, the protected
refs none of which is here."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem, closest
from changelog_tool.gitrepo.objects import COMMIT
from changelog_tool.gitrepo.process import git, run_git
from changelog_tool.refnames import remote_and_branch

_SETTING = "or set `protected-ref` in the settings (.perf-changelog.toml) to the protected branch"


def fetch(remote: str, branch: str) -> str:
    """The fetch that makes ``remote/branch`` here: the full refspec (single-branch clones)."""
    return f"git fetch {remote} {branch}:refs/remotes/{remote}/{branch}"


def _misspelled(root: Path, ref: str, remotes: list[str]) -> str | None:
    """The ref that ``ref`` misspells, if any (a remote's branch among that remote's branches),
    among the local and remote branch names and tags."""
    remote, branch = remote_and_branch(ref, lambda: remotes)
    out = git(root, "for-each-ref", "--format=%(refname)").stdout.decode("utf-8", "replace")
    names = [name if name.count("/") < 2 else name.split("/", 2)[2] for name in out.split()]
    if remote in remotes:
        prefix = remote + "/"
        close = closest(branch, [n[len(prefix) :] for n in names if n.startswith(prefix)], 0.7)
        return None if close is None else prefix + close
    return closest(ref, names, 0.7)


def unknown_ref(root: Path, ref: str, kind: str | None, shallow: bool) -> str:
    """The message for a ref this clone lacks as a commit, with the command to run."""
    if kind is not None and kind != COMMIT:
        return f"{ref!r} names a {kind}, not a commit; pass a branch, tag or commit"
    remotes = run_git(root, "remote").split()
    where = f"unknown ref {ref!r} in {root}"
    if shallow:
        where += " (this is a shallow clone)"
    remote, branch = remote_and_branch(ref, lambda: remotes)
    listed = "`git branch -a` lists the branches, `git tag` the tags"
    # a misspelling: a fetch of that name would fail
    close = _misspelled(root, ref, remotes) if ":" not in ref else None
    if close is not None:
        return f"no such ref {ref!r} in {root}; did you mean {close}? ({listed})"
    if remote is not None and (remote in remotes or remote == "origin"):
        missing = (
            ""
            if remote in remotes
            else " (this clone has no remote named 'origin' yet: `git remote add origin URL` first)"
        )
        return f"{where}; run `{fetch(remote, branch)}`{missing}"
    if ":" in ref and not ref.startswith(":"):
        return (
            f"{ref!r} names a file at a commit, not a commit; pass the commit alone "
            f"(e.g. {ref.split(':', 1)[0]!r})"
        )
    if ref == "HEAD" and not run_git(root, "rev-parse", "--all"):
        return f"{where}: this repository has no commit yet; commit first"
    advice = f"check the spelling ({listed})"
    if remotes and re.fullmatch(r"[\w.][\w./-]*", ref):
        name = "origin" if "origin" in remotes else remotes[0]
        advice += f", or run `git fetch {name} {ref}` if only {name} has it"
    return f"{where}: no branch, tag or commit of that name here; {advice}"


def no_protected_ref(root: Path, refs: Sequence[str], flag: str) -> EnvironmentProblem:
    """The refusal when none of the protected refs is in this clone."""
    remotes = run_git(root, "remote").split()
    split = (remote_and_branch(ref, lambda: remotes) for ref in refs)
    fetches = [fetch(remote, branch) for remote, branch in split if remote in remotes]
    if fetches:
        advice = (
            f"run `{fetches[0]}` (a single-branch clone needs the full refspec), pass {flag}, "
            f"{_SETTING}"
        )
    else:
        where = "has no remote" if not remotes else "has no remote that these refs name"
        advice = f"this clone {where} to fetch them from; pass {flag}, {_SETTING}"
    return EnvironmentProblem(
        f"none of the protected refs ({' or '.join(refs)}) exists in this clone; {advice}"
    )
