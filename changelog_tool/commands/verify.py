"""`changelog verify`: the CI gate. ``--file PATH`` needs no git; ``--base REF`` diffs."""

from __future__ import annotations

import argparse
import dataclasses
import os
import secrets
import shlex
import sys
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format, add_range, pull_request_number
from changelog_tool.confinement import confined
from changelog_tool.diff.engine import Layout
from changelog_tool.diff.keychange import ChangeSet, change_lines
from changelog_tool.diff.trust import gather_from_base
from changelog_tool.errors import EnvironmentProblem, UsageError, see
from changelog_tool.findings import (
    Finding,
    dump_json,
    format_github,
    format_text,
    github_log,
    shown,
    text_log,
)
from changelog_tool.gate.held import lazy_held_lines
from changelog_tool.gate.summary import added_fields, job_summary, unlisted_scenario_types
from changelog_tool.gate.verdict import check, in_progress, waiting
from changelog_tool.gitrepo import Repo
from changelog_tool.gitrepo.state import pending, unmerged
from changelog_tool.ledger import entryschema
from changelog_tool.ledger.filecheck import check_path
from changelog_tool.ledger.revision import ABSENT
from changelog_tool.lint.gather import lint_findings

CONFIGURED = Path()
"""``--file`` with no path: the changelog the settings name."""
EMPTY_CHANGES: dict[str, object] = {
    "added": [],
    "modified": {},
    "removed": [],
    "recipes": {},
    "orphan_recipes": [],
}
"""``changed`` without git (``--file``)."""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--file",
        type=Path,
        nargs="?",
        const=CONFIGURED,
        metavar="PATH",
        help="check this file, without git (no PATH: the changelog the settings name)",
    )
    add_range(parser)
    parser.add_argument(
        "--pr-number",
        type=pull_request_number,
        metavar="N",
        help="the pull request being checked: its link or a placeholder",
    )
    parser.add_argument(
        "--skip-reason",
        metavar="TEXT",
        help="opt out: this change cannot affect performance, because TEXT "
        "(uncovered keys become warnings; CI can pass it from a PR label)",
    )
    parser.add_argument(
        "--pr-title",
        metavar="TEXT",
        help="the pull request's title: an opt-out tag in it ([skip-sweep], "
        "[no perf changes]) opts out as in a commit subject",
    )
    parser.add_argument(
        "--before-merge",
        action="store_true",
        help="the head is about to land on the protected branch (a merge queue): a "
        "placeholder pr-link is an error naming `changelog finalize`",
    )
    parser.add_argument(
        "--allow-settings-change",
        action="store_true",
        help="a branch that changes the settings gets a warning, not an error (the "
        "base's settings are used either way)",
    )
    add_format(parser, github=True)


def emit_report(
    findings: list[Finding],
    fmt: str,
    changes: ChangeSet | None = None,
    *,
    log: list[str] | None = None,
    more: dict[str, object] | None = None,
) -> int:
    """Print findings in the chosen format and return the exit code (the JSON document as in
    docs/usage.md; ``log`` lines for text and github)."""
    more = more or {}
    errors = sum(f.severity == "error" for f in findings)
    if fmt == "json":
        document: dict[str, object] = {
            "ok": not errors,
            "base": changes.base if changes else None,
            "head": changes.head if changes else None,
            "changed": changes.to_json() if changes else EMPTY_CHANGES,
            "appended": changes.appended if changes else [],
            **more,
            "findings": [f.to_json() for f in findings],
        }
        print(dump_json(document))
        return 1 if errors else 0
    text = format_github(findings) if fmt == "github" else format_text(findings)
    if text:
        print(text)
    if log:
        print(github_log(log) if fmt == "github" else text_log(log))
    warnings = len(findings) - errors
    summary = "ok" if not errors else "failed"
    print(
        f"verify: {summary} ({errors} error(s), {warnings} warning(s))",
        file=sys.stderr if fmt == "github" else sys.stdout,
    )
    if fmt == "github" and os.environ.get("GITHUB_OUTPUT"):
        step_outputs(
            os.environ["GITHUB_OUTPUT"],
            verdict="fail" if errors else "pass",
            errors=str(errors),
            warnings=str(warnings),
            **{"suggested-entry": str(more.get("suggested_entry") or "")},
        )
    return 1 if errors else 0


def step_outputs(path: str, **values: str) -> None:
    """Append the step's outputs to ``$GITHUB_OUTPUT`` in the ``name<<delimiter`` form."""
    with open(path, "a", encoding="utf-8") as outputs:
        for name, value in values.items():
            delimiter = f"perf_changelog_{secrets.token_hex(8)}"
            while delimiter in value:
                delimiter = f"perf_changelog_{secrets.token_hex(8)}"
            outputs.write(f"{name}<<{delimiter}\n{value}\n{delimiter}\n")


def run(
    *,
    file: Path | None,
    base: str | None,
    head: str | None,
    pr_number: int | None,
    format: str,
    skip_reason: str | None = None,
    allow_settings_change: bool = False,
    pr_title: str | None = None,
    before_merge: bool = False,
) -> int:
    """``--file``: the file judged alone; else the branch, with the base's settings."""
    if file is not None and (base or head):
        raise UsageError("--file checks one file without git; do not combine it with --base/--head")
    if file is not None:
        return _verify_file(file, format)
    with Repo.open(Path.cwd()) as repo:
        if base is None:  # as `keys` and `lint`: the protected ref the settings name
            base = repo.protected_ref(settings_module.load().protected_ref)
        settings, snapshot = gather_from_base(repo, Path.cwd(), base=base, head=head)
        problem = (
            unmerged(repo.root / snapshot.changelog, snapshot.changelog) if head is None else None
        )
        if problem is not None:  # one finding: judging conflict markers would double entries
            message = f"{problem} ({see('A rebase stopped mid-way')})"
            finding = Finding("unmerged", message, snapshot.changelog)
            return emit_report([finding], format, snapshot.changes, more={"appended": []})
        if snapshot.history.kind == ABSENT:
            where = f"{settings.source} names it" if settings.source else "the default"
            raise EnvironmentProblem(
                f"{snapshot.changelog} exists neither at head nor at the base ({where}): "
                "run `changelog init` to adopt the tool, or `changelog add --init` to "
                "create it with a first entry; if the changelog lives elsewhere, set "
                "`changelog` in [tool.perf-changelog]"
            )
        stopped = pending(repo.git_directory) if head is None else None
        touching = stopped.touching(repo.root, snapshot.changelog) if stopped else []
        verdict = check(
            snapshot,
            settings,
            pr_number=pr_number,
            skip_reason=skip_reason,
            allow_settings_change=allow_settings_change,
            pr_title=pr_title,
            before_merge=before_merge,
            waiting=waiting(stopped, touching, snapshot.changelog) if stopped else None,
        )
        if stopped is not None:
            verdict.findings.insert(0, in_progress(stopped, touching, snapshot.changelog))
        changes = snapshot.changes
        if changes.recipes or changes.needing_entry():  # the review lints, the base's severities
            layout = Layout.of(settings, repo.root)
            verdict.findings += lint_findings(
                repo, layout, snapshot, settings.severity, settings.max_bytes
            )
        verdict.findings += unlisted_scenario_types(changes.needing_entry(), snapshot.masters)
    more: dict[str, object] = {}
    log = change_lines(changes) + added_fields()
    if verdict.opt_out is not None:
        out = verdict.opt_out
        log.append(f"opt-out: {shown(out.reason)} ({shown(out.source)})")
    if verdict.suggested_entry is not None:
        more["suggested_entry"] = verdict.suggested_entry
        keys = " ".join(
            f"--key {shown(k) if shown(k) != k else shlex.quote(k)}" for k in verdict.suggested_keys
        )
        log.append(
            f"suggested entry for the uncovered key(s); append it to {snapshot.changelog} "
            f"(or run `changelog add {keys} --description ...`):"
        )
        log.append(verdict.suggested_entry.rstrip("\n"))
    more["opt_out"] = dataclasses.asdict(verdict.opt_out) if verdict.opt_out else None
    code = emit_report(verdict.findings, format, changes, log=log, more=more)
    if format == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        text = job_summary(changes, verdict, snapshot.changelog)
        with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as summary:
            summary.write(text)
    return code


def _verify_file(path: Path, fmt: str) -> int:
    """The file judged alone with the settings of its folder (or the settings' changelog)."""
    if path == CONFIGURED:  # the settings' changelog, never through a link out of the checkout
        settings = settings_module.load()
        path = confined(settings.root, settings.changelog)
        shown = settings.changelog
    else:
        settings = settings_module.load(path.parent if path.parent.is_dir() else None)
        shown = str(path)
    entryschema.use_settings(settings)
    held = lazy_held_lines(path, settings.protected_ref)
    return emit_report(check_path(path, shown, settings.max_bytes, held).findings, fmt)
