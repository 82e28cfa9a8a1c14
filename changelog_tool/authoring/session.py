"""What ``changelog add`` shows and does, without Textual: changed keys, reach, pattern counts,
history, the preview of the exact bytes, and the append (flags, ``--json``, ``--dry-run``, the
TUI's save) through the one append, :func:`changelog_tool.ledger.writer.append`."""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from changelog_tool.authoring.drafts import Draft, missing
from changelog_tool.authoring.rows import KeyReach, KeyRow, Reach, plural, rows_for
from changelog_tool.confinement import confined, confined_file
from changelog_tool.diff.engine import collect
from changelog_tool.diff.fields import points as points_of
from changelog_tool.diff.keychange import ChangeSet
from changelog_tool.diff.scenarios import runs
from changelog_tool.errors import ChangelogError, relative
from changelog_tool.findings import dump_json, format_text
from changelog_tool.gate.acceptance import (
    Rules,
    broad,
    rejections,
    work_tree_masters_or_error,
    work_tree_rules,
)
from changelog_tool.gate.held import lazy_held_lines
from changelog_tool.ledger import entryschema, writer
from changelog_tool.ledger.document import read_file
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.entry import Fields, matching_keys
from changelog_tool.ledger.filecheck import Applied, HeldLines, applying, entries
from changelog_tool.settings import Settings
from changelog_tool.yaml.items import YamlProblem


@dataclass
class Preview:
    """The bytes an entry would append, and why it cannot be saved (if it cannot)."""

    reach: Reach
    appended: bytes = b""
    problems: list[str] = field(default_factory=list)
    by_field: dict[str, list[str]] = field(default_factory=dict)  # messages by their top field
    refused: str = ""  # why the file is not shown (a link now leads outside the repository)


@dataclass
class Loaded:
    changes: ChangeSet | None
    rows: list[KeyRow]
    problem: str | None = None


MISSING = {  # what the form says of an answer drafts.missing finds lacking
    "config-keys": "choose at least one key or pattern",
    "description": "write at least one line (one bullet per line)",
}

# seconds a preview spends counting points not counted before (a pattern reaching thousands
# of keys would hold the screen for seconds): the rest are counted in the background
POINTS_BUDGET = 0.03


def diff_answer(settings: Settings, base: str | None) -> ChangeSet | str:
    """The diff engine's changes against ``base``, or the message of the error that stopped it."""
    try:
        return collect(settings, base=base)
    except ChangelogError as exc:
        return str(exc)


class AddSession:
    """One `changelog add` run against one changelog file."""

    def __init__(
        self, settings: Settings, path: Path, *, base: str | None = None, init: bool = False
    ) -> None:
        self.settings = settings
        self.path = path
        self.base = base
        self.init = init
        self.loaded: Loaded | None = None
        self._points: dict[str, dict[str, int] | None] = {}
        self._reach: tuple[tuple[tuple[str, ...], tuple[str, ...], bool], Reach] | None = None
        self.points_budget = POINTS_BUDGET
        self._history: list[tuple[int, Fields]] | None = None
        self._history_lock = threading.Lock()
        self.old = self.read()
        entryschema.use_settings(settings)  # the repository's, if it has one
        # no master config is an error before anything is shown; the rest of the rules
        # (the branch and the remote, three git processes) waits for the first preview
        self._masters = work_tree_masters_or_error(settings)

    # --- reading --------------------------------------------------------------------
    def confined(self) -> Path:
        """The changelog's real path, refused when a link now leads outside the repository or
        into its git directory; checked at every read and write."""
        settings = self.settings
        if self.path == settings.root / settings.changelog:
            file = confined(settings.root, settings.changelog)
        else:
            file = confined_file(self.path)
        return Path(os.path.realpath(file))

    def read(self) -> bytes:
        self.confined()
        if not self.path.exists():
            if not self.init:
                raise ChangelogError(
                    f"{self.path} does not exist; pass --init to create it, "
                    "or --file to name another"
                )
            return b""
        return read_file(self.path, limit=self.settings.max_bytes)

    def reload(self) -> None:
        self.old = self.read()
        with self._history_lock:
            self._history = None

    def load(self) -> Loaded:  # slow: from a worker
        answer = diff_answer(self.settings, self.base)
        if isinstance(answer, str):
            self.loaded = Loaded(None, [], answer)
        else:
            self.loaded = Loaded(answer, rows_for(answer))
        return self.loaded

    def history(self) -> list[tuple[int, Fields]]:
        """``(line, entry)`` for every entry, parsed once on first use, from any thread."""
        with self._history_lock:
            if self._history is None:
                self._history, _ = entries(self.old)
            return self._history

    # --- questions ------------------------------------------------------------------
    @cached_property
    def master_keys(self) -> list[str]:
        """Every master key, sorted, from the acceptance rules' masters (as the check counts)."""
        return sorted(self._masters.owner)

    def pattern_matches(self, pattern: str) -> list[str]:
        return matching_keys(pattern, self.master_keys) if pattern else []

    def history_for(self, keys: list[str]) -> list[Applied]:
        if self.loaded is None:
            return []
        resolved = [k for k in keys if "*" not in k]
        for pattern in (k for k in keys if "*" in k):
            resolved += self.pattern_matches(pattern)
        return applying(self.history(), resolved) if resolved else []

    @cached_property
    def rules(self) -> Rules:
        return work_tree_rules(self.settings, self.old[-65536:], self._masters)

    def problems(self, draft: Draft) -> list[str]:
        return [f"{name}: {message}" for name, message in self.field_problems(draft)]

    def field_problems(self, draft: Draft) -> list[tuple[str, str]]:
        entry = self.entry(draft)
        out = [(name, MISSING[name]) for name in missing(entry)]
        for rejection in rejections(entry, self.rules):
            if rejection.severity != "error":
                continue  # a warning lets the entry through
            if rejection.field == "(entry)" and "required property" in rejection.message:
                continue  # said above
            out.append((rejection.field, rejection.message))
        return out

    def reach(self, draft: Draft) -> Reach:
        """The keys the patterns resolve to, their points per named type, too-broad patterns;
        keys not counted within :attr:`points_budget` seconds stay uncounted (cached once whole)."""
        asked = (tuple(draft.keys), tuple(draft.scenario_types), self.loaded is not None)
        if self._reach is not None and self._reach[0] == asked:
            return self._reach[1]
        changed = {r.key for r in (self.loaded.rows if self.loaded else []) if r.needs_entry}
        masters = list(self._masters.owner)  # in the files' order, as the reach is shown
        resolved: dict[str, None] = {}
        warnings = []
        for pattern in draft.keys:
            matched = matching_keys(pattern, masters)
            if warning := broad(pattern, matched, changed):
                warnings.append(warning)
            resolved.update(dict.fromkeys(matched))
        found = []
        named = list(draft.scenario_types) or None
        idle: dict[str, list[str]] = {}  # a named type -> the keys it selects nothing of
        until = time.monotonic() + self.points_budget
        for key in resolved:
            if key not in self._points and time.monotonic() >= until:
                found.append(KeyReach(key, {}, counted=False))
                continue
            points = self.points(key)
            if points is None:
                found.append(KeyReach(key, {}, known=False))
                continue
            for kind in named if named and points else []:
                if kind not in points:
                    idle.setdefault(kind, []).append(key)
            found.append(KeyReach(key, {kind: points[kind] for kind in runs(named, list(points))}))
        for kind, keys_without in idle.items():
            shown = ", ".join(keys_without[:3]) + (", ..." if len(keys_without) > 3 else "")
            count = len(keys_without)
            warnings.append(f"{kind} selects nothing for {count} {plural(count, 'key')} ({shown})")
        reach = Reach(found, warnings)
        if not reach.pending:
            self._reach = (asked, reach)
        return reach

    def points(self, key: str) -> dict[str, int] | None:  # None: the value does not parse
        if key not in self._points:
            try:
                self._points[key] = points_of(self._masters.value(key))
            except YamlProblem:
                self._points[key] = None
        return self._points[key]

    def entry(self, draft: Draft) -> Fields:
        return draft.to_entry(self.settings.placeholder_link())

    def preview(self, draft: Draft) -> Preview:
        result = Preview(self.reach(draft))
        for name, text in self.field_problems(draft):
            result.problems.append(f"{name}: {text}")
            result.by_field.setdefault(name.split("/")[0], []).append(text)
        failure = ""
        try:
            self.confined()
        except ChangelogError as exc:
            result.refused = failure = str(exc)
        else:
            try:
                result.appended = writer.plan_append(
                    self.old, [emit(self.entry(draft))], path=self.path
                )
            except ChangelogError as exc:
                failure = str(exc)
        if failure:
            result.problems.append(failure)
            result.by_field.setdefault("(entry)", []).append(failure)
        return result

    # --- saving -------------------------------------------------------------------
    def save(self, draft: Draft) -> writer.Appended:
        """Append as ``add`` does; ConcurrentChange if the file is no longer ``self.old``."""
        problems = self.problems(draft)
        if problems:
            raise ChangelogError("refused (nothing was written):\n  " + "\n  ".join(problems))
        return writer.append(
            self.confined(),  # the file checked, even if the link moves on meanwhile
            [emit(self.entry(draft))],
            held=lazy_held_lines(self.path, self.settings.protected_ref),
            expected=self.old,
            create=self.init,
            bounds=writer.Bounds.of(self.settings),
        )


def preview_lines(old: bytes, appended: bytes, context: int = 2) -> list[tuple[int, str, bool]]:
    """``(line number, text, is new)`` for the file's last ``context`` lines and the appended."""
    pieces = old.rsplit(b"\n", context + 1)
    last = b"\n".join(pieces[1:] if len(pieces) > context + 1 else pieces)  # the lines shown
    number = old.count(b"\n") - last.count(b"\n") + 1
    tail, offset = last + appended, 0
    out = []
    for raw in tail.split(b"\n")[: -1 if tail.endswith(b"\n") else None]:
        out.append((number, raw.decode("utf-8", "replace"), offset >= len(last)))
        offset += len(raw) + 1
        number += 1
    return out


def append_entries(
    entries: Sequence[Mapping[str, object]],
    *,
    path: Path,
    dry_run: bool,
    init: bool,
    as_json: bool,
    bounds: writer.Bounds | None = None,
    held: HeldLines | None = None,
) -> int:
    """``add``'s append (or, ``dry_run``, the bytes it would append), said as text or JSON."""
    blocks = [emit(entry) for entry in entries]
    result = writer.append(
        path, blocks, held=held, create=init, bounds=bounds or writer.Bounds(), dry_run=dry_run
    )
    sizes = [result.old_size, result.new_size]
    done: dict[str, object] = (
        {"appended": result.appended.decode("utf-8"), "bytes": sizes}
        if dry_run
        else {"lines": list(result.entry_lines), "bytes": sizes}
    )
    if as_json:
        document = {"ok": True, "dry_run": dry_run, "path": str(path), **done}
        print(dump_json({**document, "warnings": [f.to_json() for f in result.warnings]}))
        return 0
    for line in format_text(list(result.warnings)).splitlines():
        print(f"changelog: warning: {line}", file=sys.stderr)
    if dry_run:
        sys.stdout.buffer.write(result.appended)
        sys.stdout.flush()
    else:
        print(appended_message(result, path, len(entries)))
    return 0


def appended_message(result: writer.Appended, path: Path, count: int = 1) -> str:
    """What an append of ``count`` entries says when done (``add`` and the TUI's save)."""
    where = ", ".join(str(line) for line in result.entry_lines)
    noun = "entry" if count == 1 else "entries"
    return (
        f"appended {count} {noun} to {relative(path)} at line {where} "
        f"(bytes {result.old_size}..{result.new_size})"
    )
