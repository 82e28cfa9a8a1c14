"""The repository the diff engine and the commands read: objects through :mod:`.objects`, other
questions through :mod:`.process`; a ref the clone lacks worded with the command to run."""

from __future__ import annotations

import contextlib
import fnmatch
import functools
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.confinement import confined
from changelog_tool.errors import EnvironmentProblem, NotInRepository, check_size, closest
from changelog_tool.gitrepo.objects import COMMIT, Objects, TreeEntry
from changelog_tool.gitrepo.process import checked, git, run_git
from changelog_tool.gitrepo.worktree import folder_listing, glob_walk, read_file
from changelog_tool.refnames import remote_and_branch

WORKTREE = "WORKTREE"


@dataclass
class Repo(contextlib.AbstractContextManager["Repo"]):
    """A git work tree; objects come through one persistent ``git cat-file --batch``."""

    root: Path
    git_directory: Path
    common_directory: Path
    objects: Objects
    limit: int | None = None  # ``max-bytes``: a read naming no limit refuses a larger file

    @classmethod
    def open(cls, start: Path) -> Repo:
        if not start.is_dir():
            raise EnvironmentProblem(f"{start} does not exist or is not a folder")
        asked = ("--is-bare-repository", "--is-inside-work-tree", "--absolute-git-dir")
        found = git(start, "rev-parse", *asked, "--git-common-dir", "--show-cdup")
        lines = found.stdout.decode("utf-8", "surrogateescape").split("\n")
        if found.returncode != 0 or len(lines) < 4:
            raise NotInRepository(start)
        if lines[0] == "true" or lines[1] != "true":
            raise EnvironmentProblem(f"{start} is a bare repository; run this from a work tree")
        root = (start / (lines[4] if len(lines) > 4 else "")).resolve()
        return cls(root, Path(lines[2]), (start / lines[3]).resolve(), Objects(root))

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.objects.close()

    def _run(self, *args: str) -> str:
        return checked(self.root, *args, what=args[0]).decode("utf-8", "surrogateescape")

    # --- refs ------------------------------------------------------------------
    def is_shallow(self) -> bool:
        return (self.common_directory / "shallow").exists()

    def resolve(self, ref: str) -> str:
        """The commit sha of ``ref``; a clear error when the clone lacks it."""
        found = named = None
        # git stops on some refs (``HEAD@{99}``); it restarts on the next question
        if not ref.startswith("-"):
            with contextlib.suppress(EnvironmentProblem):
                found = self.objects.read(f"{ref}^{{commit}}", kind=COMMIT)
            if found is None and ":" not in ref:  # what ``ref`` names instead, if anything
                with contextlib.suppress(EnvironmentProblem):
                    named = self.objects.info(ref)
        if found is None:
            kind = named[1] if named is not None else None
            raise EnvironmentProblem(_unknown_ref(self.root, ref, kind, self.is_shallow()))
        return found[0]

    def protected_ref(self, refs: Sequence[str], flag: str = "--base REF") -> str:
        """The first protected ref (settings' order) this clone has: the one lookup of it."""
        for ref in refs:
            try:
                self.resolve(ref)
            except EnvironmentProblem:
                continue
            return ref
        remotes = run_git(self.root, "remote").split()
        split = (remote_and_branch(ref, lambda: remotes) for ref in refs)
        fetches = [_fetch(remote, branch) for remote, branch in split if remote in remotes]
        if fetches:
            advice = f"run `{fetches[0]}` (a single-branch clone needs the full refspec),"
        else:
            where = "has no remote" if not remotes else "has no remote that these refs name"
            advice = f"this clone {where} to fetch them from;"
        raise EnvironmentProblem(
            f"none of the protected refs ({' or '.join(refs)}) exists in this clone; {advice} "
            f"pass {flag}, or set `protected-ref` in the settings (.perf-changelog.toml) to the "
            "protected branch"
        )

    def merge_base(self, a: str, b: str) -> str:
        out = git(self.root, "merge-base", a, b).stdout.decode().strip()
        if not out:
            hint = "run `git fetch --unshallow` (or `git fetch --deepen=200`)"
            if self.is_shallow():
                raise EnvironmentProblem(
                    f"no merge-base of {a} and {b}: this clone is shallow; {hint}, "
                    "or in GitHub Actions set `fetch-depth: 0` on actions/checkout"
                )
            raise EnvironmentProblem(
                f"{a} and {b} have no common ancestor (unrelated histories: an orphan "
                "branch, or another repository's ref), so no base to compare with; pass "
                "a --base that HEAD grew from"
            )
        return out.split()[0]

    # --- contents ----------------------------------------------------------------
    def inside(self, path: str) -> Path:
        return confined(self.root, path, (self.git_directory, self.common_directory))

    def read(self, rev: str, path: str, limit: int | None = None) -> bytes | None:
        """File bytes at a commit (or ``WORKTREE``); refused over ``limit`` before reading."""
        limit = self.limit if limit is None else limit
        if rev == WORKTREE:
            file = self.inside(path)
            return read_file(file, path, limit) if file.is_file() else None
        found = self.objects.read(f"{rev}:{path}", limit, path)
        return found[1] if found is not None else None

    def blob_info(self, rev: str, path: str) -> tuple[str, int] | None:
        """Blob id and size of the file ``path`` at ``rev``, unread; refused over ``max-bytes``."""
        found = self.objects.info(f"{rev}:{path}")
        if found is None or found[1] != "blob":
            return None
        check_size(path, found[2], self.limit)
        return found[0], found[2]

    def exists(self, rev: str, path: str) -> bool:
        """Whether ``path`` is a file at ``rev`` (or in the work tree), without reading it."""
        if rev == WORKTREE:
            return self.inside(path).is_file()
        found = self.objects.info(f"{rev}:{path}")
        return found is not None and found[1] == "blob"

    def changed_files(self, base: str, head: str, folders: Iterable[str]) -> list[tuple[str, str]]:
        """``(status, path)`` under ``folders`` between two commits (or the work tree); a rename
        is a deletion plus an addition."""
        if head != WORKTREE:
            folders = [f for f in folders if self._tree_id(base, f) != self._tree_id(head, f)]
        spec = [f":(top){folder}" for folder in folders]
        if not spec:
            return []
        args = ["-z", "--name-status", "--no-renames", "--no-ext-diff", base]
        if head != WORKTREE:
            args.append(head)
        fields = self._run("diff", *args, "--", *spec).split("\0")
        rows = [(fields[i][0], fields[i + 1]) for i in range(0, len(fields) - 1, 2)]
        if head == WORKTREE:
            out = self._run("ls-files", "-z", "--others", "--exclude-standard", "--", *spec)
            rows.extend(("A", p) for p in out.split("\0") if p)
        return rows

    def line_origin(self, rev: str, path: str, line: int, depth: int = 1000) -> str | None:
        """The commit that wrote line ``line`` of ``path`` as ``rev`` has it (one ``git
        blame`` of that line, over the last ``depth`` commits that changed ``path``);
        ``None`` when git cannot tell within them."""
        skipped = git(self.root, "rev-list", f"--skip={depth}", "-n", "1", rev, "--", path)
        oldest = skipped.stdout.decode("ascii", "replace").strip()
        span = f"{oldest}..{rev}" if skipped.returncode == 0 and oldest else rev
        done = git(
            self.root, "blame", "--root", "--porcelain", "-L", f"{line},{line}", span, "--", path
        )
        lines = done.stdout.split(b"\n") if done.returncode == 0 else []
        header = lines[: next((i for i, x in enumerate(lines) if x.startswith(b"\t")), 0)]
        if not header or b"boundary" in header:
            return None
        return header[0].split(maxsplit=1)[0].decode("ascii", "replace")

    def file_diff(self, base: str, head: str, path: str) -> bytes:
        """``git diff base head -- path`` with git's defaults whatever the clone's configuration;
        ``head`` may be ``WORKTREE``, where a new file not yet added reads as its commit adds
        it."""
        args = ["-c", "diff.suppressBlankEmpty=false", "-c", "core.attributesFile=/dev/null"]
        args += ["diff", "--no-color", "--no-ext-diff", "--no-textconv", "-O/dev/null"]
        args += ["--diff-algorithm=myers", "--indent-heuristic", "--unified=3"]
        untracked = head == WORKTREE and not self.index_entries(path)
        if untracked and not self.exists(base, path) and self.exists(WORKTREE, path):
            done = git(self.root, *args, "--no-index", "--", "/dev/null", path)
            if done.returncode in (0, 1):  # (1: they differ)
                return done.stdout
        else:
            sides = [base] if head == WORKTREE else [base, head]
            done = git(self.root, *args, *sides, "--", f":(top,literal){path}")
        if done.returncode != 0:
            message = done.stderr.decode("utf-8", "replace").strip()
            raise EnvironmentProblem(f"git diff failed: {message}")
        return done.stdout

    def _tree_id(self, rev: str, folder: str) -> str | None:
        return self.objects.object_id(f"{rev}:{folder.strip('/')}")

    def tree_files(
        self, rev: str, patterns: Iterable[str], links: set[str] | None = None
    ) -> dict[str, str | None]:
        """Paths matching any of the globs (:func:`glob_walk`) -> blob sha at a commit, ``None``
        in the work tree; symbolic links go to ``links``."""
        found: dict[str, str] = {}
        files: dict[str, Path] = {}
        linked: set[str] = set()
        tree = functools.cache(self.objects.tree)  # each tree read once for all the patterns

        def listing(sha: str, part: str | None) -> Iterator[TreeEntry]:
            # (a segment without a wildcard matches by fnmatch as by equality)
            return (c for c in tree(sha) or [] if part is None or fnmatch.fnmatchcase(c.name, part))

        for pattern in patterns:
            parts = [p for p in pattern.split("/") if p]
            if rev == WORKTREE:
                glob_walk(folder_listing, self.root, parts, files, linked)
            else:
                glob_walk(listing, f"{rev}^{{tree}}", parts, found, linked)
        for path in sorted([*files, *linked]) if rev == WORKTREE else ():
            self.inside(path)  # (a link that leads outside is refused by name)
        if links is not None:
            links.update(linked)
        return dict.fromkeys(sorted(files)) if rev == WORKTREE else dict(sorted(found.items()))

    def is_link(self, rev: str, path: str) -> bool:
        if rev == WORKTREE:
            return (self.root / path).is_symlink()
        folder, _, name = path.rpartition("/")
        entries = self.objects.tree(f"{rev}:{folder}" if folder else f"{rev}^{{tree}}") or []
        return any(entry.name == name and entry.kind == "link" for entry in entries)

    def read_blob(self, sha: str, limit: int | None = None, path: str = "") -> bytes:
        """A blob's bytes; refused, before reading, when larger than ``limit`` bytes."""
        limit = self.limit if limit is None else limit
        found = self.objects.read(sha, limit, path or sha)
        if found is None:
            raise EnvironmentProblem(f"git has no object {sha}; is the repository intact?")
        return found[1]

    def messages(self, base: str, head: str) -> list[tuple[str, str]]:
        """``(sha, message)`` of the commits ``base..head`` (``WORKTREE``: HEAD), newest first."""
        tip = "HEAD" if head == WORKTREE else head
        out = self._run("log", "--format=%H%x01%B%x00", f"{base}..{tip}")
        rows = [m.strip().partition("\x01") for m in out.split("\0") if m.strip()]
        return [(sha, message.strip()) for sha, _, message in rows]

    # --- conflicts ---------------------------------------------------------------
    def index_stages(self, path: str) -> dict[int, bytes]:
        """Stages 1 (base), 2 (ours), 3 (theirs) of a conflicted path: their bytes."""
        entries = self.index_entries(path)
        return {stage: self.read_blob(sha, path=path) for stage, sha in entries.items() if stage}

    def outside_sparse_checkout(self, paths: Iterable[str]) -> dict[str, str]:
        """Of ``paths``, those the index marks skip-worktree -> their index blob."""
        wanted = sorted(paths)
        rows = self._index_rows(wanted, "-t") if wanted else []
        return {name: f[2] for f, name in rows if len(f) == 4 and f[0] == "S" and f[3] == "0"}

    def index_entries(self, path: str) -> dict[int, str]:
        """Stage -> blob sha of ``path`` in the index (0 staged, 1-3 conflicted)."""
        return {int(f[2]): f[1] for f, name in self._index_rows([path]) if name == path}

    def _index_rows(self, paths: list[str], *options: str) -> list[tuple[list[str], str]]:
        specs = (f":(top,literal){p}" for p in paths)
        out = self._run("ls-files", *options, "-s", "-z", "--", *specs)
        return [
            (meta.split(), name) for meta, _, name in (r.partition("\t") for r in out.split("\0"))
        ]

    def add(self, path: str) -> None:
        self._run("add", "--", path)


def _fetch(remote: str, branch: str) -> str:
    """The fetch that makes ``remote/branch`` here: the full refspec (single-branch clones)."""
    return f"git fetch {remote} {branch}:refs/remotes/{remote}/{branch}"


def _unknown_ref(root: Path, ref: str, kind: str | None, shallow: bool) -> str:
    """The message for a ref this clone lacks as a commit, with the command to run."""
    if kind is not None and kind != COMMIT:
        return f"{ref!r} names a {kind}, not a commit; pass a branch, tag or commit"
    remotes = run_git(root, "remote").split()
    where = f"unknown ref {ref!r} in {root}"
    if shallow:
        where += " (this is a shallow clone)"
    remote, branch = remote_and_branch(ref, lambda: remotes)
    listed = "`git branch -a` lists the branches, `git tag` the tags"
    close = None
    if ":" not in ref:  # a misspelling: a fetch of that name would fail
        out = git(root, "for-each-ref", "--format=%(refname)").stdout.decode("utf-8", "replace")
        names = [name if name.count("/") < 2 else name.split("/", 2)[2] for name in out.split()]
        if remote in remotes:  # a remote's branch, among that remote's branches
            prefix = f"{remote}/"
            found = closest(branch, [n[len(prefix) :] for n in names if n.startswith(prefix)], 0.7)
            close = None if found is None else prefix + found
        else:  # among the local and remote branch names and tags
            close = closest(ref, names, 0.7)
    if close is not None:
        return f"no such ref {ref!r} in {root}; did you mean {close}? ({listed})"
    if remote is not None and (remote in remotes or remote == "origin"):
        missing = (
            ""
            if remote in remotes
            else " (this clone has no remote named 'origin' yet: `git remote add origin URL` first)"
        )
        return f"{where}; run `{_fetch(remote, branch)}`{missing}"
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
