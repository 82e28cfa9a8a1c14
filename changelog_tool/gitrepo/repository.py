"""The repository opened with GitPython, for the diff engine and the commands that
read many objects: refs resolved in-process, blobs through one persistent
``git cat-file --batch`` process, trees walked without ``ls-tree -r``. GitPython
is imported when a :class:`Repo` is opened, never before."""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from changelog_tool.errors import EnvironmentProblem
from changelog_tool.gitrepo.worktree import confined, walk_dir, wild
from changelog_tool.hints import did_you_mean

WORKTREE = "WORKTREE"


@dataclass
class Repo:
    """A git repository opened with GitPython; blobs come through one
    persistent ``git cat-file --batch`` process."""

    root: Path
    handle: Any

    @classmethod
    def open(cls, start: Path) -> Repo:
        import git

        try:
            handle = git.Repo(start, search_parent_directories=True)
        except (git.InvalidGitRepositoryError, git.NoSuchPathError):
            raise EnvironmentProblem(
                f"{start} is not inside a git repository; run this from a clone "
                "(or use `changelog verify --file PATH` to check a file without git)"
            ) from None
        if handle.working_tree_dir is None:
            raise EnvironmentProblem(f"{start} is a bare repository; run this from a work tree")
        return cls(Path(handle.working_tree_dir), handle)

    # --- refs ------------------------------------------------------------------
    def is_shallow(self) -> bool:
        return Path(self.handle.git_dir, "shallow").exists()

    def resolve(self, ref: str) -> str:
        """The commit sha of ``ref``; a clear error when the clone lacks it."""
        import git

        try:
            return str(self.handle.rev_parse(f"{ref}^{{commit}}").hexsha)
        except (
            git.BadName,
            git.BadObject,
            git.GitCommandError,
            LookupError,
            ValueError,
            TypeError,
            AttributeError,
        ):
            # GitPython's rev_parse raises all of these for refs it cannot read
            # (``HEAD@{99}``: IndexError; ``main:file``: KeyError)
            raise EnvironmentProblem(self._unknown_ref(ref)) from None

    def _unknown_ref(self, ref: str) -> str:
        """The message for a ref this clone lacks, with the command to run."""
        remotes = [str(r.name) for r in self.handle.remotes]
        where = f"unknown ref {ref!r} in {self.root}"
        if self.is_shallow():
            where += " (this is a shallow clone)"
        remote, _, branch = ref.partition("/")
        if branch and (remote in remotes or remote == "origin"):
            missing = (
                ""
                if remote in remotes
                else (
                    " (this clone has no remote named 'origin' yet: `git remote add origin URL` "
                    "first)"
                )
            )
            return f"{where}; run `git fetch {remote} {branch}`{missing}"
        if ":" in ref and not ref.startswith(":"):
            return (
                f"{ref!r} names a file at a commit, not a commit; pass the commit alone "
                f"(e.g. {ref.split(':', 1)[0]!r})"
            )
        hint = did_you_mean(ref, self._ref_names())
        advice = "check the spelling (`git branch -a` lists the branches, `git tag` the tags)"
        if remotes and re.fullmatch(r"[\w.][\w./-]*", ref):
            name = "origin" if "origin" in remotes else remotes[0]
            advice += f", or run `git fetch {name} {ref}` if only {name} has it"
        return f"{where}: no branch, tag or commit of that name here{hint}; {advice}"

    def _ref_names(self) -> list[str]:
        """Local and remote branch names and tags (for "did you mean")."""
        try:
            return [str(ref.name) for ref in self.handle.refs]
        except (ValueError, OSError):
            return []

    def protected_ref(self, refs: Sequence[str], flag: str = "--base REF") -> str:
        """The first of the protected refs (settings' order) this clone has; the one
        lookup of the protected ref (`verify`, `keys`, the TUI, `sync`)."""
        for ref in refs:
            try:
                self.resolve(ref)
            except EnvironmentProblem:
                continue
            return ref
        raise EnvironmentProblem(
            f"none of the protected refs ({' or '.join(refs)}) exists in this clone; "
            f"run `git fetch origin main` or pass {flag}"
        )

    def merge_base(self, a: str, b: str) -> str:
        import git

        try:
            out = self.handle.git.merge_base(a, b)
        except git.GitCommandError:
            out = ""
        if not out:
            hint = "run `git fetch --unshallow` (or `git fetch --deepen=200`)"
            if self.is_shallow():
                raise EnvironmentProblem(
                    f"no merge-base of {a} and {b}: this clone is shallow; {hint}, "
                    "or in GitHub Actions set `fetch-depth: 0` on actions/checkout"
                )
            raise EnvironmentProblem(f"{a} and {b} have no common ancestor")
        return str(out.split()[0])

    def head_sha(self) -> str:
        return self.resolve("HEAD")

    # --- contents ----------------------------------------------------------------
    def inside(self, path: str) -> Path:
        """``path`` in the work tree, refused when it, or a folder on the way, is a
        symbolic link that leads outside the work tree or into the git directory
        (see :func:`confined`)."""
        git_dirs = (Path(self.handle.git_dir), Path(self.handle.common_dir))
        return confined(self.root, path, git_dirs)

    def read(self, rev: str, path: str, limit: int | None = None) -> bytes | None:
        """File bytes at a commit (or ``WORKTREE``, see :meth:`inside`); ``None`` when
        absent; refused, before reading, when larger than ``limit`` bytes."""
        if rev == WORKTREE:
            file = self.inside(path)
            if not file.is_file():
                return None
            _check_size(path, file.stat().st_size, limit)
            return file.read_bytes()
        try:
            blob = self.handle.commit(rev).tree / path
        except KeyError:
            return None
        stream = blob.data_stream
        _check_size(path, stream.size, limit)
        data: bytes = stream.read()
        return data

    def files(self, rev: str, patterns: Iterable[str]) -> list[str]:
        """Paths (repo-relative, posix) matching any glob, at ``rev`` or in the work tree."""
        globs = list(patterns)
        if rev == WORKTREE:
            out = self.handle.git.ls_files("--cached", "--others", "--exclude-standard")
            found = [p for p in out.splitlines() if (self.root / p).is_file()]
        else:
            found = self.handle.git.ls_tree("-r", "--name-only", rev).splitlines()
        return sorted(p for p in found if any(fnmatch.fnmatchcase(p, g) for g in globs))

    def changed_paths(self, base: str, head: str) -> list[tuple[str, str | None, str | None]]:
        """``(status, old_path, new_path)`` between two commits (or the work tree)."""
        args = ["--name-status", "-M", "--no-ext-diff", base]
        if head != WORKTREE:
            args.append(head)
        out = self.handle.git.diff(*args)
        rows: list[tuple[str, str | None, str | None]] = []
        for line in out.splitlines():
            parts = line.split("\t")
            status = parts[0][0]
            if status == "R" or status == "C":
                rows.append((status, parts[1], parts[2]))
            elif status == "A":
                rows.append((status, None, parts[1]))
            elif status == "D":
                rows.append((status, parts[1], None))
            else:
                rows.append((status, parts[1], parts[1]))
        if head == WORKTREE:
            untracked = self.handle.git.ls_files("--others", "--exclude-standard").splitlines()
            rows.extend(("A", None, p) for p in untracked)
        return rows

    def changed_files(self, base: str, head: str, folders: Iterable[str]) -> list[tuple[str, str]]:
        """``(status, path)`` under ``folders`` between two commits (or the work tree);
        renames count as a deletion plus an addition."""
        spec = [f":(top){folder}" for folder in folders]
        if not spec:
            return []
        args = ["-z", "--name-status", "--no-renames", "--no-ext-diff", base]
        if head != WORKTREE:
            args.append(head)
        fields = self.handle.git.diff(*args, "--", *spec).split("\0")
        rows = [(fields[i][0], fields[i + 1]) for i in range(0, len(fields) - 1, 2)]
        if head == WORKTREE:
            out = self.handle.git.ls_files("-z", "--others", "--exclude-standard", "--", *spec)
            rows.extend(("A", p) for p in out.split("\0") if p)
        return rows

    def tree_files(self, rev: str, patterns: Iterable[str]) -> dict[str, str | None]:
        """Paths matching any glob (``*`` stays inside one path segment, ``**`` spans
        segments) -> blob sha, at a commit; -> ``None`` in the work tree. Trees are
        read through the persistent ``cat-file`` process, never ``ls-tree -r``."""
        found: dict[str, str | None] = {}
        for pattern in patterns:
            parts = [p for p in pattern.split("/") if p]
            if rev == WORKTREE:
                walk_dir(self.root, "", parts, found)
            else:
                _walk_tree(self.handle.commit(rev).tree, parts, found)
        for path in found if rev == WORKTREE else ():
            self.inside(path)
        return dict(sorted(found.items()))

    def read_blob(self, sha: str, limit: int | None = None, path: str = "") -> bytes:
        """A blob's bytes; refused, before reading, when larger than ``limit`` bytes."""
        stream = self.handle.odb.stream(bytes.fromhex(sha))
        _check_size(path or sha, stream.size, limit)
        data: bytes = stream.read()
        return data

    def messages(self, base: str, head: str) -> list[tuple[str, str]]:
        """``(sha, message)`` of the commits ``base..head`` (``WORKTREE``: HEAD), newest first."""
        tip = "HEAD" if head == WORKTREE else head
        out: str = self.handle.git.log("--format=%H%x01%B%x00", f"{base}..{tip}")
        rows = [m.strip().partition("\x01") for m in out.split("\0") if m.strip()]
        return [(sha, message.strip()) for sha, _, message in rows]

    def remote_url(self, remote: str) -> str | None:
        """The URL of a remote, read from the config file in-process."""
        try:
            return str(self.handle.remote(remote).url)
        except (ValueError, AttributeError):
            return None

    def branch(self) -> str | None:
        """The checked-out branch name, ``None`` when HEAD is detached."""
        try:
            return str(self.handle.active_branch.name)
        except (TypeError, ValueError):
            return None

    def close(self) -> None:
        self.handle.close()

    # --- conflicts ---------------------------------------------------------------
    def index_stages(self, path: str) -> dict[int, bytes]:
        """Stages 1 (base), 2 (ours), 3 (theirs) of a conflicted path."""
        out = self.handle.git.ls_files("-u", "--", path)
        stages: dict[int, bytes] = {}
        for line in out.splitlines():
            meta, _ = line.split("\t", 1)
            _, sha, stage = meta.split()
            stages[int(stage)] = self.handle.odb.stream(bytes.fromhex(sha)).read()
        return stages

    def index_entries(self, path: str) -> dict[int, str]:
        """Stage -> blob sha of ``path`` in the index: ``{0: sha}`` when it is staged,
        stages 1-3 when it is conflicted, nothing when the index lacks it (a staged
        deletion, or a file never added)."""
        out = self.handle.git.ls_files("-s", "-z", "--", f":(top,literal){path}")
        entries: dict[int, str] = {}
        for row in out.split("\0"):
            meta, _, name = row.partition("\t")
            if name == path:
                _, sha, stage = meta.split()
                entries[int(stage)] = sha
        return entries

    def add(self, path: str) -> None:
        self.handle.git.add("--", path)

    def git_dir(self) -> Path:
        return Path(self.handle.git_dir)

    def config(self, *args: str) -> str:
        out: str = self.handle.git.config(*args)
        return out


def _check_size(path: str, size: int, limit: int | None) -> None:
    if limit is not None and size > limit:
        raise EnvironmentProblem(
            f"{path!r} is {size} bytes, over the {limit}-byte limit for a file the tool "
            "reads; it is not read"
        )


def _walk_tree(tree: Any, parts: list[str], found: dict[str, str | None]) -> None:
    if not parts:
        return
    part, rest = parts[0], parts[1:]
    if part == "**":
        _walk_tree(tree, rest, found)
        for child in tree.trees:
            _walk_tree(child, parts, found)
        return
    if wild(part):
        children = [c for c in tree if fnmatch.fnmatchcase(c.name, part)]
    else:
        try:
            children = [tree / part]
        except KeyError:
            return
    for child in children:
        if rest and child.type == "tree":
            _walk_tree(child, rest, found)
        elif not rest and child.type == "blob":
            found[child.path] = child.hexsha
