"""`changelog merge-driver %O %A %B %P`: git's merge driver for the changelog.

Git calls it with three temp files (base, ours, theirs) and the path. On
success it writes the merged bytes into %A (atomically) and exits 0. When it
refuses (a side edited history, bad input, anything unexpected) it leaves the
conflict as git would have, through ``git merge-file``, and exits 1, naming
the entry and line on stderr; if git's text merge would already have changed
the protected side's bytes outside its markers, one conflict holding both sides
whole is left instead (:mod:`changelog_tool.merge.conflict`). The protected ref
only helps tell the sides apart when the operation does not. It never imports
GitPython or Textual.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from changelog_tool.merge.threeway import Side


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
    from changelog_tool.merge.protected import branch_names
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
        branches=branch_names(settings.protected_ref),
        placeholders=settings.placeholders,
    )
    for line in outcome.summary():
        print(f"changelog merge-driver: {line}", file=sys.stderr)
    findings = format_text(outcome.findings())
    if findings:
        print(findings, file=sys.stderr)
    if isinstance(outcome.result, Merged):
        writer.replace(ours, outcome.result.data, expected=ours_bytes)
        return 0
    return _leave_conflict(base, ours, theirs, path, outcome.decision.side)


def _operation(root: Path) -> str | None:
    from changelog_tool.gitrepo import git_dir, operation_in_progress

    directory = git_dir(root)
    return operation_in_progress(directory) if directory else None


def _leave_conflict(
    base: Path, ours: Path, theirs: Path, path: str, protected: Side | None = None
) -> int:
    """What git would have done without a driver: ``git merge-file``'s markers;
    but when that text merge, resolved towards the ``protected`` side, no longer
    begins with its bytes, one conflict that keeps both sides whole."""
    from changelog_tool.gitrepo import merge_file
    from changelog_tool.ledger import writer
    from changelog_tool.merge.conflict import keeps_protected, whole_conflict

    ours_bytes = ours.read_bytes()
    result = merge_file(Path.cwd(), ours, base, theirs)
    if result is None:
        print(
            f"changelog merge-driver: {path}: git merge-file failed; ours is left as is",
            file=sys.stderr,
        )
        return 1
    data, conflicts = result
    sides = {"ours": ours_bytes, "theirs": theirs.read_bytes()} if protected else {}
    if protected and not keeps_protected(data, sides[protected], protected):
        data, conflicts = whole_conflict(sides["ours"], sides["theirs"]), 1
        what = (
            f"git's own text merge would have changed the entries of {protected}, the "
            "protected side, so one conflict holds both sides whole (ours, then theirs). "
            f"Keep the bytes of {protected} and re-append only the branch's own new entries"
        )
    elif conflicts:
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
    writer.replace(ours, data)
    print(
        f"changelog merge-driver: {path}: not merged automatically; {what}, then `git add`.",
        file=sys.stderr,
    )
    return 1
