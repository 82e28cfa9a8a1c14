"""The merge driver's algorithm: git's three files merged into %A, or git's own
conflict left behind, naming the entry and line. See docs/design.md, "Why a merge
driver" and "One writer"."""

from __future__ import annotations

import dataclasses
import os
import shlex
from collections.abc import Callable
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.errors import too_large
from changelog_tool.findings import format_text
from changelog_tool.gitrepo.objects import protected_blob
from changelog_tool.gitrepo.process import GitDirectory, merge_file
from changelog_tool.ledger import writer
from changelog_tool.ledger.boundaries import count_entries
from changelog_tool.merge.conflict import keeps_protected, whole_conflict
from changelog_tool.merge.edits import possessive
from changelog_tool.merge.outcome import Outcome, merge_sides
from changelog_tool.merge.protected import (
    Decision,
    begins_with_history,
    by_upstream,
    decide,
)
from changelog_tool.merge.threeway import Merged, Side, other_side
from changelog_tool.resolution.recorded import recorded_context
from changelog_tool.settings import Settings

Say = Callable[[str], None]
"""Where the driver's messages go, as written (git shows the driver's stderr)."""
NAME = "changelog merge-driver"
"""How each message of the driver's own begins."""
CONFLICT = 1
"""The driver's exit code when it has left the conflict in %A (git's markers)."""
NOT_LEFT = 2
"""Its exit code when it could not even leave the conflict (``git merge-file``
failed): %A is as git gave it."""


def merge(base: Path, ours: Path, theirs: Path, path: str, say: Say) -> int:
    """Merge git's three files into ``ours`` (%A), or leave the conflict."""

    root = Path.cwd()
    settings = settings_module.load(root)
    files: dict[str, Path] = {"base": base, "ours": ours, "theirs": theirs}
    for side, file in files.items():  # refused before any is read (max-bytes)
        refusal = too_large(f"{path} ({side})", file.stat().st_size, settings.max_bytes)
        if refusal is not None:
            raise refusal
    base_bytes, theirs_bytes = base.read_bytes(), theirs.read_bytes()
    context = recorded_context(path, base_bytes, settings, GitDirectory(root))
    decision = decide(
        action=os.environ.get("GIT_REFLOG_ACTION"),
        operation=context.operation,
        branches=context.branches,
        remotes=context.remotes,
        hint=lambda: _upstream_hint(root, settings, path, ours.read_bytes(), theirs_bytes),
        current_branch=context.current_branch,
    )
    context = dataclasses.replace(context, decision=decision)
    outcomes: list[tuple[Outcome, bytes]] = []

    def merged(ours_bytes: bytes) -> bytes:
        """The result, computed under the writer's lock from ours as read there."""
        outcome = merge_sides(path, base_bytes, ours_bytes, theirs_bytes, context)
        outcomes.append((outcome, ours_bytes))
        if not isinstance(outcome.result, Merged):
            raise _Refused
        return outcome.result.data

    try:
        writer.replace(ours, merged, create=False, bounds=writer.Bounds.of(settings))
    except _Refused:
        outcome, ours_bytes = outcomes[-1]
        _report(outcome, say)
        other = theirs_bytes if decision.side == "ours" else ours_bytes
        advice = _advice(decision, path, base_bytes, other)
        return leave_conflict(base, ours, theirs, path, say, decision.side, advice)
    _report(outcomes[-1][0], say)
    return 0


class _Refused(Exception):
    """The merge refused: the conflict is left instead."""


def _advice(decision: Decision, path: str, base: bytes, other: bytes) -> str | None:
    """What to do with a refused merge, when the usual "keep the protected side's
    bytes and re-append the branch's own entries" does not fit: the protected side
    is only a guess, or the other side only drops entries from the end of the base
    (what a revert of an appended entry does, which git does not name to the driver
    when it reverts one commit)."""

    side = decision.side
    if not decision.certain:
        return (
            f"that {side} is the protected side is only a guess: run "
            "`changelog resolve --protected ours` or `--protected theirs` to merge with "
            "the side you name leading, or edit the file by hand"
        )
    if begins_with_history(base, other) and count_entries(other) < count_entries(base):
        quoted = shlex.quote(path)
        return (
            f"{other_side(side)} drops entries from the end of the base that {side} keeps, as "
            "a revert of an appended entry does; the file is append-only, so entries stay: "
            f"keep {possessive(side)} file (`git checkout --{side} -- {quoted}`) and, if the "
            "revert changes performance, append an entry saying so"
        )
    return None


def _report(outcome: Outcome, say: Say) -> None:
    for line in outcome.summary():
        say(f"{NAME}: {line}")
    findings = format_text(outcome.findings())
    if findings:
        say(findings)


def _upstream_hint(
    root: Path, settings: Settings, path: str, ours: bytes, theirs: bytes
) -> Decision | None:
    """The protected ref's side (see :func:`changelog_tool.merge.protected.by_upstream`)."""
    found = protected_blob(root, settings.protected_ref, path)
    if found is None:
        return None
    return by_upstream(ours, theirs, found[1], found[0])


def leave_conflict(
    base: Path,
    ours: Path,
    theirs: Path,
    path: str,
    say: Say,
    protected: Side | None = None,
    advice: str | None = None,
) -> int:
    """What git would have done without a driver: ``git merge-file``'s markers;
    but when that text merge, resolved towards the ``protected`` side, no longer
    begins with its bytes, one conflict that keeps both sides whole. ``advice``,
    when given, is what the message says to do (see :func:`_advice`)."""

    result = merge_file(Path.cwd(), ours, base, theirs)
    if result is None:
        say(f"{NAME}: {path}: git merge-file failed; ours is left as is")
        return NOT_LEFT
    data, conflicts = result
    sides = {"ours": ours.read_bytes(), "theirs": theirs.read_bytes()} if protected else {}
    if protected and not keeps_protected(data, sides[protected], protected):
        data, conflicts = whole_conflict(sides["ours"], sides["theirs"]), 1
        what = (
            f"git's own text merge would have changed the entries of {protected}, the "
            "protected side, so one conflict holds both sides whole (ours, then theirs). "
            + _capital(
                advice
                or f"keep the bytes of {protected} and re-append only the branch's own new entries"
            )
        )
    elif conflicts:
        what = f"git's conflict markers ({conflicts}) are left in the file. " + _capital(
            advice
            or "keep the protected side's bytes and re-append only the branch's own new "
            "entries (or undo the branch's edit to history)"
        )
    else:
        what = (
            "git's own text merge of it applied without markers; it is left marked as "
            "conflicted: check the history change above is intended"
        )
    if advice and not conflicts:
        what += f"; {advice}"
    writer.replace(ours, data)
    say(f"{NAME}: {path}: not merged automatically; {what}, then `git add`.")
    return CONFLICT


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]
