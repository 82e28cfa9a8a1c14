"""What ``verify --base`` says besides the verdict (pure): the Markdown job summary for
``$GITHUB_STEP_SUMMARY`` (every name escaped), and notes on the entry schema in use."""

from __future__ import annotations

import re
from collections.abc import Iterable

from changelog_tool.diff.fields import scenarios_of
from changelog_tool.diff.keychange import ChangeSet, KeyChange
from changelog_tool.diff.masters import MasterSet
from changelog_tool.findings import NOTICE, Finding
from changelog_tool.gate.verdict import Verdict
from changelog_tool.ledger.entry import matches, texts
from changelog_tool.ledger.entryschema import SCENARIO, builtin, current
from changelog_tool.yaml.items import YamlProblem

_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|<>~-])")


def md(text: object) -> str:
    """Text for a Markdown table cell or line: one line, nothing interpreted."""
    flat = " ".join(str(text).split())
    return _SPECIAL.sub(r"\\\1", flat).replace("&", "&amp;")


def job_summary(changes: ChangeSet, verdict: Verdict, changelog: str) -> str:
    patterns = [p for entry in changes.appended for p in texts(entry.get("config-keys"))]
    errors = sum(f.severity == "error" for f in verdict.findings)
    title = "passed" if not errors else f"failed ({errors} error(s))"
    lines = [f"## perf-changelog: {title}", ""]
    if changes.keys:
        lines += ["| key | change | what changed | covered |", "|---|---|---|---|"]
        for change in changes.keys:
            what = ", ".join([*change.fields, *change.recipes]) or "-"
            if not change.needs_entry:
                covered = "no entry needed"
            else:
                covered = "yes" if any(matches(p, change.key) for p in patterns) else "**no**"
            lines.append(f"| {md(change.key)} | {change.label} | {md(what)} | {covered} |")
    else:
        lines.append("No master-config key or recipe changed.")
    lines.append("")
    if verdict.findings:
        lines += ["### Findings", ""]
        for finding in verdict.findings:
            where = f"{finding.path}:{finding.line}" if finding.line else finding.path
            lines.append(
                f"- **{finding.severity}** `{finding.code}` {md(where)}: {md(finding.message)}"
            )
        lines.append("")
    if verdict.suggested_entry is not None and verdict.opt_out is None:
        fence = "~~~~"
        lines += [
            f"### Suggested entry for {md(changelog)}",
            "",
            f"{fence}yaml",
            verdict.suggested_entry.rstrip("\n").replace(fence, "~ ~ ~ ~"),
            fence,
            "",
        ]
    return "\n".join(lines) + "\n"


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
    except YamlProblem:
        return ()  # said once, elsewhere
    return [k for k in scenarios_of(value) or () if isinstance(k, str)]


def unlisted_scenario_types(changes: Iterable[KeyChange], masters: MasterSet) -> list[Finding]:
    """One notice naming the scenario types the changed keys use that the schema lacks."""
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
    return [Finding("unlisted-scenario-type", message, where.path or "", where.line, NOTICE)]
