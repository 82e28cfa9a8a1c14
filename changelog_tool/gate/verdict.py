"""The ``verify --base`` checks: what a branch changed against what it appended.

Pure over a :class:`~changelog_tool.diff.engine.Snapshot`; produces Findings and, when
keys are uncovered, a ready-to-append entry (emitted byte-exact by the emitter).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from changelog_tool.diff.engine import Snapshot
from changelog_tool.diff.fields import SCENARIOS
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, KeyChange
from changelog_tool.diff.masters import MasterSet
from changelog_tool.findings import ERROR, WARNING, Finding
from changelog_tool.gate import prlinks
from changelog_tool.gate.optout import OptOut, find
from changelog_tool.ledger.compare import Appended
from changelog_tool.ledger.duplicates import find_duplicate
from changelog_tool.ledger.entry import matches, matching_keys, same_entry, scenario_types
from changelog_tool.settings import Settings


@dataclass
class Verdict:
    findings: list[Finding] = field(default_factory=list)
    uncovered: list[KeyChange] = field(default_factory=list)
    suggested_entry: str | None = None
    opt_out: OptOut | None = None


def check(snapshot: Snapshot, settings: Settings, *, pr_number: int | None = None,
          skip_reason: str | None = None) -> Verdict:
    changes, history = snapshot.changes, snapshot.history
    path = snapshot.changelog
    verdict = Verdict(findings=[*history.findings, *changes.problems])
    appended = [a for a in history.appended if a.value is not None]
    patterns = [(a, p) for a in appended for p in _patterns(a)]

    verdict.opt_out = find(snapshot.messages, skip_reason)
    for change in changes.needing_entry():
        if any(matches(p, change.key) for _, p in patterns):
            continue
        verdict.uncovered.append(change)
        verdict.findings.append(_uncovered(change, verdict.opt_out))
    for entry, pattern in patterns:
        if not matching_keys(pattern, changes.master_keys):
            verdict.findings.append(Finding(
                "dangling-pattern", f"config-keys pattern {pattern!r} matches no key of the "
                "master configs at head; fix the spelling or add the config", path,
                entry.line_of_text(pattern)))
    verdict.findings.extend(_duplicates(snapshot, appended, settings))
    verdict.findings.extend(_scenario_mismatches(appended, snapshot.masters, path))
    verdict.findings.extend(_pr_links(snapshot, appended, settings, pr_number))
    verdict.findings.extend(Finding(
        "orphan-recipe", "no master-config key references this recipe (CONFIG_FILE=...), "
        "so no sweep will run it", recipe, None, WARNING) for recipe in changes.orphan_recipes)
    if verdict.uncovered:
        verdict.suggested_entry = suggest(verdict.uncovered, settings, pr_number, snapshot.slug)
    return verdict


def _patterns(entry: Appended) -> list[str]:
    keys = (entry.value or {}).get("config-keys")
    return [k for k in keys if isinstance(k, str)] if isinstance(keys, list) else []


def _uncovered(change: KeyChange, opt_out: OptOut | None) -> Finding:
    if change.kind == ADDED:
        what = "was added"
    elif change.kind == RECIPE:
        what = f"uses changed recipe(s) {', '.join(change.recipes)}"
    else:
        what = f"changed ({', '.join(change.fields)})"
        if change.recipes:
            what += f" and uses changed recipe(s) {', '.join(change.recipes)}"
    message = (f"{change.key} {what} but no appended perf-changelog entry covers it; "
               "append one (see the suggested entry) or it will never be benchmarked")
    severity = ERROR
    if opt_out is not None:
        message = f"{change.key} {what}; no entry, opted out: {opt_out.describe()}"
        severity = WARNING
    return Finding("uncovered-key", message, change.path or "", change.line, severity,
                   key=change.key)


def _duplicates(snapshot: Snapshot, appended: list[Appended], settings: Settings) -> list[Finding]:
    severity = ERROR if settings.duplicate_entry == "error" else WARNING
    out = []
    prefix = snapshot.history.prefix
    for index, entry in enumerate(appended):
        assert entry.value is not None
        line = next((e.line for e in appended[:index] if same_entry(e.value or {}, entry.value)),
                    None)
        if line is None:
            line = find_duplicate(prefix, entry.value)
        if line is not None:
            out.append(Finding(
                "duplicate-entry", f"this entry repeats the entry on line {line} (equal but for "
                "pr-link); it re-runs the same sweeps and publishes twice. Remove it unless "
                "re-running is the intent", snapshot.changelog, entry.line, severity))
    return out


def _scenario_mismatches(appended: list[Appended], masters: MasterSet,
                         path: str) -> list[Finding]:
    out = []
    all_keys = list(masters.owner)
    for entry in appended:
        kinds = (entry.value or {}).get("scenario-type")
        if not isinstance(kinds, list):
            continue
        keys = sorted({k for p in _patterns(entry) for k in matching_keys(p, all_keys)})
        if not keys:
            continue
        for kind in kinds:
            if isinstance(kind, str) and not any(masters.has_scenario(k, kind) for k in keys):
                shown = ", ".join(keys[:3]) + (", ..." if len(keys) > 3 else "")
                out.append(Finding(
                    "scenario-mismatch", f"scenario type {kind!r} exists for none of the "
                    f"matched keys ({shown}); no sweep would run", path,
                    entry.line_of_text(kind)))
    return out


def _pr_links(snapshot: Snapshot, appended: list[Appended], settings: Settings,
              pr_number: int | None) -> list[Finding]:
    slug = snapshot.slug
    out = []
    allow = not snapshot.on_protected
    for entry in appended:
        link = (entry.value or {}).get("pr-link")
        if not isinstance(link, str):
            continue
        problem = prlinks.problem(link, settings, slug, allow_placeholder=allow,
                                pr_number=pr_number)
        if problem is not None:
            if not allow and settings.is_placeholder(link):
                problem += " (this is the protected branch)"
            out.append(Finding("pr-link", problem, snapshot.changelog,
                               entry.field_line("pr-link")))
    for line, text in snapshot.history.corrections:
        link = text.split(":", 1)[1].strip().strip("\"'")
        problem = prlinks.problem(link, settings, slug, allow_placeholder=False)
        if problem is not None:
            out.append(Finding("pr-link", f"corrected link: {problem}", snapshot.changelog, line))
    return out


# --- the suggested entry -----------------------------------------------------------
def suggest(uncovered: list[KeyChange], settings: Settings, pr_number: int | None,
            slug: str | None) -> str:
    from changelog_tool.ledger.emitter import emit

    entry: dict[str, Any] = {"config-keys": sorted({c.key for c in uncovered})}
    kinds = _suggested_scenarios(uncovered)
    if kinds:
        entry["scenario-type"] = kinds
    entry["description"] = _describe(uncovered)
    entry["pr-link"] = (prlinks.canonical(slug, pr_number) if pr_number is not None and slug
                        else settings.placeholder_link())
    return emit(entry).decode("utf-8")


def _suggested_scenarios(changes: Iterable[KeyChange]) -> list[str]:
    """Scenario types, when every change is limited to some scenarios; else none (all)."""
    kinds: set[str] = set()
    for change in changes:
        if change.kind != MODIFIED or change.recipes or not change.scenarios or any(
                not f.startswith(SCENARIOS + ".") for f in change.fields):
            return []
        kinds.update(change.scenarios)
    known = scenario_types()
    if not kinds <= set(known):
        return []
    return [k for k in known if k in kinds]


def _short(keys: list[str]) -> str:
    return ", ".join(keys[:4]) + (f" and {len(keys) - 4} more" if len(keys) > 4 else "")


def _describe(changes: list[KeyChange]) -> list[str]:
    lines = []
    added = sorted(c.key for c in changes if c.kind == ADDED)
    if added:
        lines.append(f"Add {_short(added)}")
    groups: dict[tuple[str, ...], list[str]] = {}
    for change in changes:
        if change.kind == MODIFIED:
            groups.setdefault(change.fields, []).append(change.key)
    for fields, keys in sorted(groups.items()):
        lines.append(f"Update {', '.join(fields)} of {_short(sorted(keys))}")
    recipes = sorted(c.key for c in changes if c.kind == RECIPE)
    if recipes:
        lines.append(f"Update recipes of {_short(recipes)}")
    return lines
