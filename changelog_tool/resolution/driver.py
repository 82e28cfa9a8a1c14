"""The merge driver: git's three files merged into %A, or git's own conflict left behind;
and the merge context a repository gives. See docs/design.md, "Why a merge driver"."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shlex
from collections.abc import Callable, Sequence
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.errors import check_size
from changelog_tool.findings import format_text
from changelog_tool.gate.prlinks import repository_slug
from changelog_tool.gitrepo.objects import protected_blob
from changelog_tool.gitrepo.process import merge_file, remote_names
from changelog_tool.gitrepo.state import GitDirectory, replay_start
from changelog_tool.ledger import writer
from changelog_tool.ledger.document import entry_starts
from changelog_tool.merge.conflict import resolved_to, whole_conflict
from changelog_tool.merge.outcome import Outcome, merge_sides
from changelog_tool.merge.protected import Context, Decision, begins_with_history, branch_names
from changelog_tool.merge.replay import Mainline, Upstream, possessive
from changelog_tool.merge.threeway import Merged, Side, other_side
from changelog_tool.settings import Settings

Say = Callable[[str], None]  # where the driver's messages go (git shows its stderr)
NAME = "changelog merge-driver"  # how each message of the driver's own begins
CONFLICT = 1  # the exit code when the conflict is left in %A
NOT_LEFT = 2  # when even that failed (``git merge-file``): %A is as git gave it


def merge(base: Path, ours: Path, theirs: Path, path: str, say: Say) -> int:
    root = Path.cwd()
    settings = settings_module.load(root)
    for side, file in (("base", base), ("ours", ours), ("theirs", theirs)):  # none read yet
        check_size(f"{path} ({side})", file.stat().st_size, settings.max_bytes)
    base_bytes, theirs_bytes = base.read_bytes(), theirs.read_bytes()
    given = Context(
        action=os.environ.get("GIT_REFLOG_ACTION"),
        upstream=lambda: Upstream.of(protected_blob(root, settings.protected_ref, path)),
    )
    context = recorded_context(path, base_bytes, settings, GitDirectory(root), given)
    outcome, ours_bytes = write_merged(
        ours,
        lambda current: merge_sides(path, base_bytes, current, theirs_bytes, context),
        writer.Bounds.of(settings),
    )
    for line in outcome.summary():
        say(f"{NAME}: {line}")
    findings = format_text(outcome.findings())
    if findings:
        say(findings)
    if outcome.ok:
        return 0
    decision = outcome.decision
    other = theirs_bytes if decision.side == "ours" else ours_bytes
    advice = _advice(decision, path, base_bytes, other)
    return leave_conflict(base, ours, theirs, path, say, decision.side, advice)


def write_merged(
    file: Path, merge: Callable[[bytes], Outcome], bounds: writer.Bounds
) -> tuple[Outcome, bytes]:
    """``merge`` of the file's bytes read under the writer's lock, written when it merged;
    the outcome and the bytes merged."""
    outcomes: list[tuple[Outcome, bytes]] = []

    def merged(current: bytes) -> bytes:
        outcome = merge(current)
        outcomes.append((outcome, current))
        if not isinstance(outcome.result, Merged):
            raise _Refused
        return outcome.result.data

    with contextlib.suppress(_Refused):
        writer.replace(file, merged, create=False, bounds=bounds)
    return outcomes[-1]


class _Refused(Exception):
    pass


def _advice(decision: Decision, path: str, base: bytes, other: bytes) -> str | None:
    """The advice when re-appending the branch's own entries does not fit: the protected
    side is a guess, or the other side reverts an appended entry."""
    side = decision.side
    if not decision.certain:
        return (
            f"that {side} is the protected side is only a guess: run "
            "`changelog resolve --protected ours` or `--protected theirs` to merge with "
            "the side you name leading, or edit the file by hand"
        )
    if begins_with_history(base, other) and len(entry_starts(other)) < len(entry_starts(base)):
        quoted = shlex.quote(path)
        return (
            f"{other_side(side)} drops entries from the end of the base that {side} keeps, as "
            "a revert of an appended entry does; the file is append-only, so entries stay: "
            f"keep {possessive(side)} file (`git checkout --{side} -- {quoted}`) and, if the "
            "revert changes performance, append an entry saying so"
        )
    return None


def leave_conflict(
    base: Path,
    ours: Path,
    theirs: Path,
    path: str,
    say: Say,
    protected: Side | None = None,
    advice: str | None = None,
) -> int:
    """``git merge-file``'s markers; but one conflict keeping both sides whole when that text
    merge, resolved towards the ``protected`` side, no longer begins with its bytes."""
    result = merge_file(Path.cwd(), ours, base, theirs)
    if result is None:
        say(f"{NAME}: {path}: git merge-file failed; ours is left as is")
        return NOT_LEFT
    data, conflicts = result
    told = advice[:1].upper() + advice[1:] if advice else None
    sides = {"ours": ours.read_bytes(), "theirs": theirs.read_bytes()} if protected else {}
    if protected and not resolved_to(data, protected).startswith(sides[protected]):
        data, conflicts = whole_conflict(sides["ours"], sides["theirs"]), 1
        what = (
            f"git's own text merge would have changed the entries of {protected}, the "
            "protected side, so one conflict holds both sides whole (ours, then theirs). "
            + (
                told
                or f"Keep the bytes of {protected} and re-append only the branch's own new entries"
            )
        )
    elif conflicts:
        what = f"git's conflict markers ({conflicts}) are left in the file. " + (
            told
            or "Keep the protected side's bytes and re-append only the branch's own new "
            "entries (or undo the branch's edit to history)"
        )
    else:
        what = (
            "git's own text merge of it applied without markers; it is left marked as "
            "conflicted: check the history change above is intended"
        ) + (f"; {advice}" if advice else "")
    writer.replace(ours, data)
    say(f"{NAME}: {path}: not merged automatically; {what}, then `git add`.")
    return CONFLICT


def recorded_context(
    path: str, base: bytes, settings: Settings, directory: GitDirectory, given: Context
) -> Context:
    """``given`` completed by the repository: the operation in progress, HEAD's branch, git's
    record of main's bytes, the base's slug."""
    remotes = remote_names(directory.root)
    return dataclasses.replace(
        given,
        operation=given.operation or directory.operation,
        branches=branch_names(settings.protected_ref, remotes),
        remotes=remotes,
        placeholders=settings.placeholders,
        current_branch=directory.branch,
        mainline=lambda: recorded_mainline(
            directory.root, directory.folder, path, settings.protected_ref
        ),
        slug=lambda: repository_slug(settings, base),
    )


def recorded_mainline(root: Path, folder: Path | None, path: str, refs: Sequence[str]) -> Mainline:
    """The file of the commit a replay builds on, or that no replay runs; only when a
    replay's record cannot be read, the protected ref's file as a hint."""
    start = replay_start(folder) if folder is not None else False
    if start is False:
        return Mainline(replaying=False)
    if isinstance(start, tuple):
        rev, name = start
        found = protected_blob(root, [rev], path)
        if found is not None:
            short = rev if len(rev) < 40 else rev[:12] + rev[40:]
            return Mainline(found[1], f"{short}'s file (git's {name})")
    return Mainline(upstream=Upstream.of(protected_blob(root, refs, path)))
