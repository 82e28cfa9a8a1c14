"""What the `changelog add` TUI shows and does, without Textual.

The app only displays this module's answers: the changed keys (from the diff
engine), which of them an appended entry already covers, the preselection,
pattern counts and completions, the previous entries for the chosen keys, the
preview of the exact bytes to append, validation problems, and the save
itself (through :func:`changelog_tool.ledger.writer.append` with ``expected=``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from changelog_tool.authoring.drafts import Draft
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, REMOVED, ChangeSet, KeyChange
from changelog_tool.errors import ChangelogError
from changelog_tool.settings import Settings

if TYPE_CHECKING:
    from changelog_tool.gate.acceptance import Rules

MARKS = {ADDED: "+", MODIFIED: "~", RECIPE: "R", REMOVED: "-"}


@dataclass(frozen=True)
class KeyRow:
    """One line of the key list: a changed key, or a key/pattern the user added."""

    key: str
    change: KeyChange | None = None
    covered: bool = False
    scenarios: tuple[str, ...] = ()

    @property
    def mark(self) -> str:
        return MARKS.get(self.change.kind, "?") if self.change else "*"

    def detail(self, match_count: int | None = None) -> str:
        change = self.change
        if change is None:
            if match_count is None:
                return "added by hand"
            noun = "key" if match_count == 1 else "keys"
            return (
                f"pattern: {match_count} {noun}"
                if "*" in self.key
                else ("added by hand" if match_count else "not a master key")
            )
        text = "covered; " if self.covered else ""
        if change.kind == ADDED:
            text += "new key"
        elif change.kind == REMOVED:
            text += "removed (no entry needed)"
        elif change.kind == RECIPE:
            text += "recipe " + ", ".join(Path(r).name for r in change.recipes)
        else:
            text += ", ".join(change.fields) or "modified"
        if change.reduced:
            text += " (reduced: nothing new to run)"
        return text


@dataclass
class Preview:
    """The bytes an entry would append, and why it cannot be saved (if it cannot)."""

    entry: dict[str, Any]
    appended: bytes = b""
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.appended)


@dataclass
class Loaded:
    """The slow part, computed in a worker: the changes and the parsed history."""

    changes: ChangeSet | None
    rows: list[KeyRow]
    history: list[tuple[int, dict[str, Any]]]
    problem: str | None = None


def covered(key: str, appended: list[dict[str, Any]]) -> bool:
    from changelog_tool.ledger.entry import matches

    return any(
        isinstance(p, str) and matches(p, key)
        for entry in appended
        for p in entry.get("config-keys") or []
    )


def rows_for(changes: ChangeSet) -> list[KeyRow]:
    """Changed keys in display order: those needing an entry first."""
    rows = [KeyRow(c.key, c, covered(c.key, changes.appended), c.scenarios) for c in changes.keys]
    order = {ADDED: 0, MODIFIED: 1, RECIPE: 2, REMOVED: 3}
    return sorted(
        rows,
        key=lambda r: (
            not (r.change and r.change.needs_entry),
            order.get(r.change.kind if r.change else "", 4),
            r.key,
        ),
    )


def preselected(rows: list[KeyRow]) -> list[str]:
    """The changed keys that need an entry and that no appended entry covers."""
    return [r.key for r in rows if r.change and r.change.needs_entry and not r.covered]


def known_scenario_types() -> list[str]:
    """The scenario types the schema defines, in its order."""
    from changelog_tool.ledger.entry import scenario_types

    return scenario_types()


def _changes(rows: list[KeyRow], keys: list[str]) -> list[KeyChange]:
    chosen = set(keys)
    return [r.change for r in rows if r.change and r.key in chosen and r.change.needs_entry]


def suggested_scenarios(rows: list[KeyRow], keys: list[str]) -> list[str]:
    """The scenario types an entry for the chosen keys should name (the gate's rule)."""
    from changelog_tool.gate.suggest import scenario_types as affected
    from changelog_tool.ledger.entry import scenario_types

    return affected(_changes(rows, keys), scenario_types())


class AddSession:
    """One `changelog add` run against one changelog file."""

    def __init__(
        self, settings: Settings, path: Path, *, base: str | None = None, init: bool = False
    ) -> None:
        self.settings = settings
        self.path = path
        self.base = base
        self.init = init
        self.master_keys: list[str] = []
        self.loaded: Loaded | None = None
        self._rules: Rules | None = None
        self.old = self.read()
        self.scenario_types = known_scenario_types()
        self.rules()  # no master config is an error before anything is shown

    # --- reading --------------------------------------------------------------------
    def read(self) -> bytes:
        if not self.path.exists():
            if not self.init:
                raise ChangelogError(
                    f"{self.path} does not exist; pass --init to create it, "
                    "or --file to name another"
                )
            return b""
        from changelog_tool.ledger.document import read_file

        return read_file(self.path)

    def reload(self) -> bytes:
        self.old = self.read()
        return self.old

    def load(self) -> Loaded:
        """Run the diff engine and parse the history (slow: call from a worker)."""
        from changelog_tool.ledger.lookup import entries

        history, _ = entries(self.old)
        try:
            from changelog_tool.diff.engine import collect

            changes = collect(self.settings, base=self.base)
        except ChangelogError as exc:
            self.loaded = Loaded(None, [], history, str(exc))
            return self.loaded
        self.master_keys = sorted(changes.master_keys)
        self.loaded = Loaded(changes, rows_for(changes), history)
        return self.loaded

    # --- questions ------------------------------------------------------------------
    def pattern_matches(self, pattern: str) -> list[str]:
        from changelog_tool.ledger.entry import matching_keys

        return matching_keys(pattern, self.master_keys) if pattern else []

    def completions(self) -> list[str]:
        return self.master_keys

    def history_for(self, keys: list[str]) -> list[Any]:
        """Previous entries that apply to the chosen keys (patterns resolved)."""
        from changelog_tool.ledger.lookup import applying

        if self.loaded is None:
            return []
        resolved = [k for k in keys if "*" not in k]
        for pattern in (k for k in keys if "*" in k):
            resolved += self.pattern_matches(pattern)
        return applying(self.loaded.history, resolved) if resolved else []

    def rules(self) -> Rules:
        """The acceptance rules for this work tree (computed once per session)."""
        from changelog_tool.gate.acceptance import work_tree_rules

        if self._rules is None:
            self._rules = work_tree_rules(self.settings, self.old[-65536:])
        return self._rules

    def problems(self, draft: Draft) -> list[str]:
        """Why this draft cannot be saved, as inline messages (empty when it can):
        the acceptance rule every other path uses, with the two empty answers said
        in words that name the field to fill in."""
        from changelog_tool.gate.acceptance import rejections

        entry = self.entry(draft)
        out = []
        if not draft.keys:
            out.append("config-keys: choose at least one key or pattern")
        if not entry.get("description"):
            out.append("description: write at least one line (one bullet per line)")
        for rejection in rejections(entry, self.rules()):
            if rejection.severity != "error":
                continue
            if rejection.field == "(entry)" and "required property" in rejection.message:
                continue  # said above
            out.append(str(rejection))
        return out

    def entry(self, draft: Draft) -> dict[str, Any]:
        from changelog_tool.ledger.entry import normalize

        return normalize(draft.to_entry(self.settings.placeholder_link()))

    def preview(self, draft: Draft) -> Preview:
        from changelog_tool.ledger import writer
        from changelog_tool.ledger.emitter import emit

        entry = self.entry(draft)
        result = Preview(entry, problems=self.problems(draft))
        try:
            result.appended = writer.plan_append(self.old, [emit(entry)])
        except ChangelogError as exc:
            result.problems.append(str(exc))
        return result

    # --- saving -------------------------------------------------------------------
    def save(self, draft: Draft) -> Any:
        """Append the draft's entry; raises ConcurrentChange if the file changed since
        it was read (the preview was built from ``self.old``)."""
        from changelog_tool.ledger import writer
        from changelog_tool.ledger.emitter import emit
        from changelog_tool.ledger.filecheck import check_appendable

        problems = self.problems(draft)
        if problems:
            raise ChangelogError("refused (nothing was written):\n  " + "\n  ".join(problems))
        path = self.path
        return writer.append(
            path,
            [emit(self.entry(draft))],
            check=lambda old: check_appendable(old, str(path)),
            expected=self.old,
            create=self.init,
            timeout=self.settings.lock_timeout,
        )


def preview_lines(old: bytes, appended: bytes, context: int = 2) -> list[tuple[int, str, bool]]:
    """``(line number, text, is new)`` for the last ``context`` lines of the file and
    every line the append adds (the exact bytes, separator included)."""
    start = len(old)
    for _ in range(context + 1):
        start = old.rfind(b"\n", 0, start)
        if start < 0:
            break
    start += 1
    number = old.count(b"\n", 0, start) + 1
    tail = old[start:] + appended
    out = []
    for raw in tail.split(b"\n")[: -1 if tail.endswith(b"\n") else None]:
        out.append((number, raw.decode("utf-8", "replace"), start >= len(old)))
        start += len(raw) + 1
        number += 1
    return out


def suggestion(rows: list[KeyRow], placeholder: str = "") -> Draft:
    """What the TUI starts from: the preselected keys and the gate's suggested entry
    for them (scenario types, drafted description)."""
    from changelog_tool.gate.suggest import suggested_entry
    from changelog_tool.ledger.entry import scenario_types

    keys = preselected(rows)
    entry = suggested_entry(_changes(rows, keys), placeholder, scenario_types())
    return Draft(
        keys=keys,
        scenario_types=entry.get("scenario-type", []),
        description=entry["description"],
        pr_link=placeholder,
    )
