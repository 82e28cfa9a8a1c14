"""The merge driver's algorithm: git's three temp files (base, ours, theirs) merged
into %A, or git's own conflict left behind (``changelog merge-driver`` parses
git's call and says what happened).

On success the merged bytes are written into %A (atomically). When the merge is
refused (a side edited history, bad input, anything unexpected) the conflict is
left as git would have left it, through ``git merge-file``, naming the entry and
line; if git's text merge would already have changed the protected side's bytes
outside its markers, one conflict holding both sides whole is left instead
(:mod:`changelog_tool.merge.conflict`). The protected ref only helps tell the
sides apart when the operation does not. It never imports GitPython or Textual.

However long the history, the usual merge reads it once, in chunks, to prove the
three files share it, and merges only what follows it
(:mod:`changelog_tool.merge.window`); the result is the protected side's file
with the branch's entries appended, a kernel copy renamed over %A
(``writer.replace_with_copy(scratch=...)``: git's temp file, read back by git and
deleted, needs no fsync; never written in place, so a driver killed at any point
leaves %A as git gave it or whole). At most one git process runs (the protected
ref's blob id, when the operation did not say which side is protected).
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Callable
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.errors import too_large
from changelog_tool.findings import format_text
from changelog_tool.gitrepo.objects import protected_blob, protected_blob_id
from changelog_tool.gitrepo.process import GitDirectory, merge_file, remote_names
from changelog_tool.ledger import writer
from changelog_tool.ledger.boundaries import count_entries, last_entry
from changelog_tool.ledger.streams import FileSource, read_from, share_prefix
from changelog_tool.merge.conflict import keeps_protected, whole_conflict
from changelog_tool.merge.edits import possessive
from changelog_tool.merge.outcome import Outcome
from changelog_tool.merge.protected import Decision, branch_names, by_upstream, decide
from changelog_tool.merge.side_changes import begins_with_history
from changelog_tool.merge.threeway import SIDES, Merged, Side, other_side
from changelog_tool.merge.window import UNKNOWN, Windows, merge_after, upstream_hint
from changelog_tool.resolution.recorded import merge_recorded
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
    """Merge from the windows after the shared history when that proves the whole
    merge (:mod:`changelog_tool.merge.window`), else from the whole files."""

    root = Path.cwd()
    settings = settings_module.load(root)
    files: dict[str, Path] = {"base": base, "ours": ours, "theirs": theirs}
    for side, file in files.items():  # refused before any is read (max-bytes)
        refusal = too_large(f"{path} ({side})", file.stat().st_size, settings.max_bytes)
        if refusal is not None:
            raise refusal
    stamp = writer.Stamp.of(ours)
    shared = _Shared(files, stamp.size)
    directory = GitDirectory(root)
    remotes = remote_names(root)
    decision = decide(
        action=os.environ.get("GIT_REFLOG_ACTION"),
        operation=directory.operation,
        branches=branch_names(settings.protected_ref, remotes),
        remotes=remotes,
        hint=lambda: _upstream_hint(root, settings, path, shared),
        current_branch=directory.branch,
    )
    windows = shared.windows()
    if windows is not None:
        outcome = merge_after(path, windows, decision, settings.placeholders)
        if outcome is not None and isinstance(outcome.result, Merged):
            _report(outcome, say)
            kept = windows.side(decision.side)  # the protected side's window
            appended = outcome.result.data[len(kept) :]
            if appended or decision.side != "ours":  # else ours is the result already
                length = windows.cut + len(kept)
                source = files[decision.side]
                writer.replace_with_copy(
                    ours,
                    source,
                    length,
                    appended,
                    expected=stamp,
                    bounds=writer.Bounds.of(settings),
                    scratch=_is_gits(ours),
                )
            return 0
    return _merge_whole(base, ours, theirs, path, settings, decision, directory, say)


GIT_TEMP = ".merge_file_"
"""How git names the temp files it hands a merge driver."""


def _is_gits(path: Path) -> bool:
    """``path`` is git's own temp file (%A as git names it), which git reads back
    and deletes: the writer may append to it in place, unsynced. Run by hand on
    any other file, the driver writes it as every file is written."""
    return path.name.startswith(GIT_TEMP)


def _merge_whole(
    base: Path,
    ours: Path,
    theirs: Path,
    path: str,
    settings: Settings,
    decision: Decision,
    directory: GitDirectory,
    say: Say,
) -> int:
    """The merge of the whole files, held in memory: a side that is more than an
    append, a refusal (its messages name whole-file lines), or no shared history.
    Ours is read under the writer's lock, held until the result computed from those
    bytes is written. Git's record of main's bytes is read only if the merge asks
    for it."""

    base_bytes, theirs_bytes = base.read_bytes(), theirs.read_bytes()
    outcomes: list[tuple[Outcome, bytes]] = []

    def merged(ours_bytes: bytes) -> bytes:
        outcome = merge_recorded(
            path,
            base_bytes,
            ours_bytes,
            theirs_bytes,
            settings=settings,
            directory=directory,
            decision=decision,
        )
        outcomes.append((outcome, ours_bytes))
        if not isinstance(outcome.result, Merged):
            raise _Refused
        return outcome.result.data

    try:
        writer.replace_computed(ours, merged, bounds=writer.Bounds.of(settings))
    except _Refused:
        outcome, ours_bytes = outcomes[-1]
        _report(outcome, say)
        other = theirs_bytes if decision.side == "ours" else ours_bytes
        advice = _advice(decision, path, base_bytes, other)
        return leave_conflict(base, ours, theirs, path, say, outcome.decision.side, advice)
    _report(outcomes[-1][0], say)
    return 0


class _Refused(Exception):
    """The merge of the whole files refused: the conflict is left instead."""


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


class _Shared:
    """The three files' shared history, proven once: the windows after it, or
    ``None`` when the files do not share one (the whole files are merged)."""

    def __init__(self, files: dict[str, Path], ours_size: int) -> None:
        self.files = files
        self.ours_size = ours_size
        self._proven: Windows | None = None
        self._done = False
        self._cut: int | None = -1

    def cut(self) -> int | None:
        """Where the base's last entry begins (``None``: no entry, no windows)."""
        if self._cut == -1:
            self._cut = last_entry(FileSource(self.files["base"]))[0]
        return self._cut

    def windows(
        self, feed: dict[str, Callable[[bytes | bytearray], None]] | None = None
    ) -> Windows | None:
        """The windows, once the shared history is proven (each file's chunks of it
        also go to ``feed[name]``, on the first call only)."""
        if self._done:
            return self._proven
        self._done = True
        cut = self.cut()
        if cut is None:
            return None
        names = ("base", "ours", "theirs")
        newlines = [0]

        def count(chunk: bytes | bytearray) -> None:
            newlines[0] += chunk.count(b"\n")

        extra = feed or {}
        feeds: dict[int, Callable[[bytes | bytearray], None]] = {
            i: extra[name] for i, name in enumerate(names) if name in extra
        }
        base_feed = feeds.get(0)
        feeds[0] = count if base_feed is None else _both(count, base_feed)
        paths = [self.files[name] for name in names]
        if not share_prefix(paths[0], paths[1:], cut, feed=feeds):
            return None
        base, ours, theirs = (read_from(p, cut) for p in paths)
        self._proven = Windows(base, ours, theirs, cut, newlines[0])
        return self._proven


def _both(
    first: Callable[[bytes | bytearray], None], second: Callable[[bytes | bytearray], None]
) -> Callable[[bytes | bytearray], None]:
    def call(chunk: bytes | bytearray) -> None:
        first(chunk)
        second(chunk)

    return call


def _upstream_hint(root: Path, settings: Settings, path: str, shared: _Shared) -> Decision | None:
    """The protected ref's side (see :func:`changelog_tool.merge.protected.by_upstream`),
    found from the ref's blob id and size and the files' windows: a side whose bytes
    hash to the blob holds the ref's whole file. Only when neither does is the ref's
    file read, and the whole files with it."""

    found = protected_blob_id(root, settings.protected_ref, path)
    if found is None:
        return None
    ref, blob = found
    cut = shared.cut()
    if cut is not None:
        sizes: dict[Side, int] = {
            "ours": shared.ours_size,
            "theirs": shared.files["theirs"].stat().st_size,
        }
        candidates = [side for side in SIDES if sizes[side] >= blob.size]
        prefix = blob.hasher()  # the shared history is hashed once, from the base's bytes
        feed = {"base": _first(min(blob.size, cut), prefix.update)} if candidates else {}
        windows = shared.windows(feed)
        if windows is not None:  # (proven: each side begins with the bytes hashed)
            holds: dict[Side, bool] = {}
            for side in candidates:
                hasher = prefix.copy()
                if blob.size > cut:
                    hasher.update(windows.side(side)[: blob.size - cut])
                holds[side] = hasher.hexdigest() == blob.oid
            answer = upstream_hint(windows, blob.size, holds, ref)
            if answer != UNKNOWN:
                return answer
    whole = protected_blob(root, [ref], path)
    if whole is None:
        return None
    ours, theirs = shared.files["ours"].read_bytes(), shared.files["theirs"].read_bytes()
    return by_upstream(ours, theirs, whole[1], ref)


def _first(
    limit: int, take: Callable[[bytes | bytearray], None]
) -> Callable[[bytes | bytearray], None]:
    """``take`` given only the first ``limit`` bytes of the chunks passed in turn."""
    seen = [0]

    def call(chunk: bytes | bytearray) -> None:
        left = limit - seen[0]
        if left > 0:
            take(chunk if len(chunk) <= left else chunk[:left])
        seen[0] += len(chunk)

    return call


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
