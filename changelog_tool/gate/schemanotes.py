"""What ``verify`` says about the entry schema in use: the fields a repository's schema adds, and
scenario types the changed keys use that it does not list."""

from __future__ import annotations

from collections.abc import Iterable

from changelog_tool.diff.keychange import KeyChange
from changelog_tool.diff.masters import MasterProblem, MasterSet
from changelog_tool.findings import NOTICE, Finding
from changelog_tool.ledger.entryschema import SCENARIO, builtin, current

UNLISTED = "unlisted-scenario-type"
"""The code of the one notice about scenario types the entry schema does not list."""


def added_fields() -> list[str]:
    """A line per field and scenario type the repository's schema adds, for the log."""
    definition, base = current(), builtin()
    if definition.source is None:
        return []
    lines = [
        f"entry schema {definition.source} adds field {f.name} ({f.kind})"
        + (f": {f.description}" if f.description else "")
        for f in definition.fields
        if f.name not in base.names
    ]
    lines += [
        f"entry schema {definition.source} adds scenario type {kind}"
        for kind in definition.scenario_types
        if kind not in base.scenario_types
    ]
    return lines


def _kinds(change: KeyChange, masters: MasterSet) -> Iterable[str]:
    if change.scenarios:
        return change.scenarios
    try:
        value = masters.value(change.key) if change.key in masters.owner else None
    except MasterProblem:
        return ()  # said once, elsewhere
    scenarios = value.get("scenarios") if isinstance(value, dict) else None
    return [k for k in scenarios if isinstance(k, str)] if isinstance(scenarios, dict) else ()


def unlisted_scenario_types(changes: Iterable[KeyChange], masters: MasterSet) -> list[Finding]:
    """One notice naming the scenario types the changed keys use that the schema lacks, with the
    fix."""
    definition = current()
    unlisted: dict[str, list[str]] = {}
    where: KeyChange | None = None
    for change in changes:
        for kind in _kinds(change, masters):
            if kind not in definition.scenario_types:
                unlisted.setdefault(kind, []).append(change.key)
                where = where or change
    if where is None:
        return []
    named = "; ".join(
        f"{kind!r} ({', '.join(sorted(keys)[:3])}{', ...' if len(keys) > 3 else ''})"
        for kind, keys in sorted(unlisted.items())
    )
    message = (
        f"the master configs use scenario types the entry schema does not list: {named}. "
        f"No entry can name them in {SCENARIO}; an entry without {SCENARIO} runs them. "
        + definition.where_to_declare("a scenario type")
    )
    return [Finding(UNLISTED, message, where.path or "", where.line, NOTICE)]
