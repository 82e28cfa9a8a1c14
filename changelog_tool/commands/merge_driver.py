"""`changelog merge-driver %O %A %B %P`: git's merge driver for the changelog.

Git calls it with three temp files (base, ours, theirs) and the path. On
success it writes the merged bytes into %A (atomically) and exits 0. When it
refuses (a side edited history, bad input, anything unexpected) it leaves the
conflict as git would have, through ``git merge-file``, and exits 1, naming
the entry and line on stderr. It never imports GitPython or Textual.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("base", type=Path, metavar="O", help="the merge base (git's %%O)")
    parser.add_argument(
        "ours", type=Path, metavar="A", help="ours, rewritten with the result (git's %%A)"
    )
    parser.add_argument("theirs", type=Path, metavar="B", help="theirs (git's %%B)")
    parser.add_argument("path", metavar="P", help="the path being merged (git's %%P)")


def run(*, base: Path, ours: Path, theirs: Path, path: str) -> int:
    # The one place a command catches errors itself: inside git, an error must
    # still leave git's own conflict behind, never a half-merged or "ours" file.
    try:
        return _merge(base, ours, theirs, path)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # any failure becomes a normal conflict
        print(f"changelog merge-driver: {path}: {exc}", file=sys.stderr)
        return _leave_conflict(base, ours, theirs, path)


def _merge(base: Path, ours: Path, theirs: Path, path: str) -> int:
    from changelog_tool import settings as settings_module
    from changelog_tool.findings import format_text
    from changelog_tool.gitrepo import protected_blob
    from changelog_tool.ledger import writer
    from changelog_tool.merge.outcome import Upstream, merge_sides
    from changelog_tool.merge.threeway import Merged

    root = Path.cwd()
    settings = settings_module.load(root)
    ours_bytes = ours.read_bytes()
    outcome = merge_sides(
        path,
        base.read_bytes(),
        ours_bytes,
        theirs.read_bytes(),
        upstream=Upstream.of(protected_blob(root, settings.protected_ref, path)),
        action=os.environ.get("GIT_REFLOG_ACTION"),
        operation=lambda: _operation(root),
    )
    for line in outcome.summary():
        print(f"changelog merge-driver: {line}", file=sys.stderr)
    findings = format_text(outcome.findings())
    if findings:
        print(findings, file=sys.stderr)
    if isinstance(outcome.result, Merged):
        writer.replace(ours, outcome.result.data, expected=ours_bytes)
        return 0
    return _leave_conflict(base, ours, theirs, path)


def _operation(root: Path) -> str | None:
    from changelog_tool.gitrepo import git_dir, operation_in_progress

    directory = git_dir(root)
    return operation_in_progress(directory) if directory else None


def _leave_conflict(base: Path, ours: Path, theirs: Path, path: str) -> int:
    """What git would have done without a driver: ``git merge-file``'s markers."""
    from changelog_tool.gitrepo import merge_file
    from changelog_tool.ledger import writer

    result = merge_file(Path.cwd(), ours, base, theirs)
    if result is None:
        print(
            f"changelog merge-driver: {path}: git merge-file failed; ours is left as is",
            file=sys.stderr,
        )
        return 1
    data, conflicts = result
    writer.replace(ours, data)
    if conflicts:
        what = (
            f"git's conflict markers ({conflicts}) are left in the file. Keep the "
            "protected side's bytes and re-append only the branch's own new entries "
            "(or undo the branch's edit to history)"
        )
    else:
        what = (
            "git's own text merge of it applied without markers; it is left marked as "
            "conflicted: check the history change above is intended"
        )
    print(
        f"changelog merge-driver: {path}: not merged automatically; {what}, then `git add`.",
        file=sys.stderr,
    )
    return 1
