"""The changelog as the index has it: a staged deletion or history edit that the work tree (which
``verify --base`` reads) does not show."""

from __future__ import annotations

from changelog_tool.findings import Finding
from changelog_tool.gitrepo import Repo
from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.revision import MODIFIED, History


def staged_findings(
    repo: Repo, path: str, base_sha: str, work_blob: str, history: History, limit: int
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
