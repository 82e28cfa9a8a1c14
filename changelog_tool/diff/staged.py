"""The changelog as the index has it: what the next commit records.

Work-tree ``verify --base`` (the pre-commit hook) reads the work tree, so that
uncommitted edits count; the index can still differ from it: ``git rm --cached``
stages a deletion while the file stays on disk, and ``git add`` of a history edit
followed by a clean-up in the work tree stages the edit. Both are caught here.
"""

from __future__ import annotations

from changelog_tool.findings import Finding
from changelog_tool.gitrepo import Repo
from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.revision import MODIFIED, History


def staged_findings(
    repo: Repo, path: str, base_sha: str, work_blob: str, history: History, limit: int
) -> list[Finding]:
    """What the next commit would record, when the index differs from the work tree
    (whose file has the blob id ``work_blob``): a staged deletion (``git rm
    --cached``), or a staged version that edits history while the work tree's does
    not. A conflicted file is left to ``changelog resolve``."""
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
    if 0 not in entries:
        return []
    if entries[0] == work_blob or history.kind == MODIFIED:
        return []
    staged = repo.read_blob(entries[0], limit, path)
    base = repo.read(base_sha, path, limit)
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
