"""The verdict while git has stopped in a rebase, merge or cherry-pick: no advice to append while
commits to replay still change the changelog."""

from __future__ import annotations

from dataclasses import replace

from changelog_tool.findings import WARNING, Finding
from changelog_tool.gate.verdict import Verdict
from changelog_tool.gitrepo.pending import Pending


def while_stopped(verdict: Verdict, stopped: Pending, touching: list[str], path: str) -> None:
    op = stopped.operation
    if stopped.remaining is None:
        left = ""
    else:
        left = f", {len(stopped.remaining)} commit(s) still to replay"
        left += f", {len(touching)} of them changing {path}" if stopped.remaining else ""
    message = (
        f"a {op} is in progress{left}: the branch is judged as it stands now; finish it "
        f"(`{stopped.continue_command()}`, or `git {op} --abort`), then verify again"
    )
    if touching:
        verdict.suggested_entry = None
        verdict.suggested_keys = []
        verdict.findings = [_waiting(f, op, len(touching), path) for f in verdict.findings]
    verdict.findings.insert(0, Finding("in-progress", message, path, None, WARNING))


def _waiting(finding: Finding, op: str, count: int, path: str) -> Finding:
    if finding.code != "uncovered-key":
        return finding
    said = finding.message.split("; append one", 1)[0]
    message = (
        f"{said}; {count} commit(s) the {op} has still to replay change {path} and may "
        f"hold its entry: do not append one now, finish the {op} first"
    )
    return replace(finding, message=message)
