"""The branch's changelog rebuilt on REF (its bytes, then the branch's own entries) for
``sync`` and ``finalize --onto``, committed as a merge of REF when the base must move."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from changelog_tool.errors import ChangelogError, EnvironmentProblem
from changelog_tool.findings import listing
from changelog_tool.gate.prlinks import repository_slug
from changelog_tool.gitrepo import WORKTREE, Repo, git, run_git, try_git
from changelog_tool.ledger import writer
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.pairing import KEPT, identity, pair
from changelog_tool.ledger.writer import Bounds
from changelog_tool.merge.outcome import Outcome, merge_sides
from changelog_tool.merge.protected import Context, Decision
from changelog_tool.merge.replay import Mainline, Upstream
from changelog_tool.merge.threeway import assemble
from changelog_tool.settings import Settings


@dataclass(frozen=True)
class Sync:
    path: str
    ref: str
    base: bytes
    upstream: bytes
    settings: Settings

    def of(self, data: bytes) -> Outcome:
        context = Context(
            upstream=Upstream(self.ref, self.upstream),
            decision=Decision(
                "theirs", f"sync: {self.ref} leads, this branch's own entries follow"
            ),
            placeholders=self.settings.placeholders,
            mainline=Mainline(replaying=False),  # REF's file is main's, all of it
            slug=lambda: repository_slug(self.settings, self.upstream),
        )
        return merge_sides(self.path, self.base, data, self.upstream, context)


def recovered(repo: Repo, base_sha: str, path: str) -> list[bytes]:
    """The entries this branch's own commits (``base_sha..HEAD``, merges left out) appended
    and did not remove later, in order and as last edited."""
    shas = run_git(repo.root, "rev-list", "--reverse", "--no-merges", f"{base_sha}..HEAD")
    own: dict[bytes, bytes] = {}  # identity -> the entry's bytes
    for sha in shas.split():
        old = Ledger(repo.read(f"{sha}^", path) or b"")
        new = Ledger(repo.read(sha, path) or b"")
        paired = pair(old, new)
        for match in paired.pairs:  # a later commit's edit of an own entry: the edited one
            was = identity(old.blocks[match.base].text)
            if was in own and match.how != KEPT:
                raw = new.blocks[match.head].raw
                own = {
                    identity(raw) if k == was else k: raw if k == was else v for k, v in own.items()
                }
        for index in paired.removed:
            own.pop(identity(old.blocks[index].text), None)
        for index in paired.own:
            raw = new.blocks[index].raw
            own.setdefault(identity(raw), raw)
    return list(own.values())


def rebuilt(base: bytes, entries: list[bytes]) -> bytes:
    """The branch as if it only appended."""
    return assemble(base, [entry.rstrip(b"\n") + b"\n" for entry in entries])[0]


def commit_merge(
    repo: Repo,
    ref: str,
    merged_already: bool,
    path: str,
    data: bytes,
    head: bytes | None,
    work: bytes,
    extra: dict[str, object],
    *,
    bounds: Bounds,
    again: str | None = None,
) -> tuple[int, str]:
    """The exit code and next step; ``extra`` gets the commit; ``again``: the command to run
    once the work tree lets the merge start."""
    root: Path = repo.root
    if not merged_already:
        rerun = f"run `{again}` again" if again else "run it again"
        blocking = _uncommitted_in_the_way(root, ref, path)
        if blocking:
            raise ChangelogError(
                f"the merge of {ref} would change files that have uncommitted changes here "
                f"({listing(blocking, 5)}), so git would refuse to start it; nothing was "
                f"changed. Commit them, or stash them (`git stash`, later `git stash pop`), "
                f"then {rerun}"
            )
        # the work-tree file may hold sync's own rewrite: git would refuse to merge
        # over it, so put HEAD's bytes back first (the rewrite is recomputed below)
        _restore(root / path, head, work, bounds)
        started = try_git(root, "merge", "--no-ff", "--no-commit", ref)
        if not (repo.git_directory / "MERGE_HEAD").is_file():
            _restore(root / path, work, head, bounds)
            said = (started.stderr or started.stdout).splitlines()
            skip = "changelog merge-driver:"  # what the driver said on the way
            gits_own = [line.strip() for line in said if line.strip() and not line.startswith(skip)]
            raise EnvironmentProblem(
                f"`git merge --no-commit {ref}` did not start (nothing was changed): "
                f"{' '.join(gits_own)}"
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
        return 1, (
            f"{path} is resolved and staged, but the merge of {ref} stopped on other files "
            f"({', '.join(unmerged)}): resolve them, then `git commit`"
        )
    if merged_already:
        message = f"Sync {path} with {ref}: its bytes plus this branch's own entries"
        run_git(root, "commit", "-q", "-m", message, "--", path)
    else:
        message = f"Merge {ref}: {path} as {ref}'s bytes plus this branch's own entries"
        run_git(root, "commit", "-q", "-m", message)
    extra["commit"] = sha = run_git(root, "rev-parse", "HEAD")
    return 0, f"committed {sha[:12]}: {message}"


def _uncommitted_in_the_way(root: Path, ref: str, path: str) -> list[str]:
    """Changed or untracked files besides the changelog that the merge would write."""

    def names(*args: str) -> list[str]:  # NUL-separated, not stripped (" M path")
        done = git(root, *args)
        if done.returncode != 0:
            return []
        return done.stdout.decode("utf-8", "surrogateescape").split("\0")

    # changed by REF since the merge-base, and not already as REF has it on HEAD
    touched = set(names("diff", "--name-only", "-z", f"HEAD...{ref}"))
    touched &= set(names("diff", "--name-only", "-z", "HEAD", ref))
    records = iter(names("status", "--porcelain", "-z", "--untracked-files=all"))
    dirty: list[str] = []
    for record in records:
        if len(record) < 4:
            continue
        found = [record[3:]]
        if record[0] in "RC" or record[1] in "RC":  # then the original path
            found.append(next(records, ""))
        for name in found:
            if name and name != path and name in touched and name not in dirty:
                dirty.append(name)
    return dirty


def _restore(file: Path, data: bytes | None, current: bytes | None, bounds: Bounds) -> None:
    """``None``: absent."""
    if data == current:
        return
    if data is None:
        file.unlink(missing_ok=True)
    else:
        writer.replace(file, data, expected=current, bounds=bounds)
