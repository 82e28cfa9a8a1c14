"""The changelog through git: at base and head, read whole and compared; and as the
index has it (a staged deletion or history edit the work tree, which ``verify
--base`` reads, does not show)."""

from __future__ import annotations

import hashlib

from changelog_tool.errors import EnvironmentProblem
from changelog_tool.findings import Finding
from changelog_tool.gitrepo import WORKTREE, Repo
from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.revision import MODIFIED as EDITED
from changelog_tool.ledger.revision import History

TAIL = 65536
"""How much of the base's end names the repository (its newest pr-links)."""


def read_revision(
    repo: Repo, path: str, base_sha: str, head_rev: str, limit: int | None = None
) -> tuple[History, bytes]:
    """The changelog's history from ``base_sha`` to ``head_rev`` (or ``WORKTREE``, then with
    what the index would commit), and the base's tail; files over ``limit`` (by default
    ``repo.limit``) refused unread."""
    base = repo.read(base_sha, path, limit)
    if head_rev == WORKTREE:
        file = repo.inside(path)
        if file.is_file() and file.is_symlink():  # git would commit the link's target path
            raise EnvironmentProblem(
                f"{path} is a symbolic link: git stores a link as the path it points to, "
                "so the commit would not hold these entries; make it a regular file, or "
                "set `changelog` in the settings to the file it points at"
            )
    head = repo.read(head_rev, path, limit)
    history = compare(base, head, path, base_sha[:12])
    if head_rev == WORKTREE and base is not None and head is not None:
        history.findings[:0] = _staged(repo, path, base, blob_id(head, base_sha), history, limit)
    return history, (base or b"")[-TAIL:]


def blob_id(data: bytes, sha: str) -> str:
    """The id git gives ``data`` as a blob, in the hash of the repository of commit ``sha``."""
    hasher = hashlib.new("sha256" if len(sha) == 64 else "sha1")
    hasher.update(b"blob %d\0" % len(data))
    hasher.update(data)
    return hasher.hexdigest()


def _staged(
    repo: Repo, path: str, base: bytes, work_blob: str, history: History, limit: int | None
) -> list[Finding]:
    """Findings for what the next commit records when the index differs from the work tree (blob
    ``work_blob``); a conflicted file is left to ``resolve``."""
    entries = repo.index_entries(path)
    if not entries:
        return [
            Finding(
                "history-modified",
                f"{path} is deleted in the index (`git rm --cached`?) while the work tree "
                "still has it: the next commit deletes it, and the file is append-only; "
                f"run `git add {path}` to stage it back",
                path,
                None,
            )
        ]
    if 0 not in entries or entries[0] == work_blob or history.kind == EDITED:
        return []  # conflicted, staged as the work tree has it, or an edit already said
    staged = repo.read_blob(entries[0], limit, path)
    edits = [f for f in compare(base, staged, path).findings if f.code == "history-modified"]
    return [
        Finding(
            "history-modified",
            f"the staged {path} (what the next commit records) differs from the work "
            f"tree's: {edit.message}; run `git add {path}` to stage the work tree's version",
            path,
            edit.line,
        )
        for edit in edits[:1]
    ]
