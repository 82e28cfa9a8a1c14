"""The Markdown job summary ``verify --format github`` appends to ``$GITHUB_STEP_SUMMARY``
(pure): changed keys, findings, the suggested entry, every name escaped."""

from __future__ import annotations

import re

from changelog_tool.diff.keychange import REMOVED, ChangeSet
from changelog_tool.gate.verdict import Verdict
from changelog_tool.ledger.entry import matches, texts

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
            kind = "reduced" if change.reduced else change.kind
            what = ", ".join([*change.fields, *change.recipes]) or "-"
            if change.kind == REMOVED or change.reduced:
                covered = "no entry needed"
            else:
                covered = "yes" if any(matches(p, change.key) for p in patterns) else "**no**"
            lines.append(f"| {md(change.key)} | {kind} | {md(what)} | {covered} |")
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
