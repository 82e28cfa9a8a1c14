"""`changelog lint [--base REF]`: what is wrong in the YAML the branch changed,
without the changelog checks, for a pre-commit hook: the master-config problems
the branch introduced (YAML that does not parse, a key in two files, a key name
a YAML 1.1 reader misreads, a deleted recipe still referenced, a link), as
``keys`` reports them, then the review lints (key spelling, repeated blocks,
recipe references). ``verify --base`` reports the same findings."""

from __future__ import annotations

import argparse

from changelog_tool.commands import add_format


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base", metavar="REF", help="compare with REF's merge-base (default: the protected ref)"
    )
    add_format(parser, github=True)


def run(*, base: str | None, format: str) -> int:
    from changelog_tool import settings as settings_module
    from changelog_tool.diff.engine import Layout, snapshot
    from changelog_tool.findings import dump_json, format_github, format_text, has_errors
    from changelog_tool.gitrepo import Repo
    from changelog_tool.lint.gather import lint_findings

    settings = settings_module.load()
    repo = Repo.open(settings.root)
    try:
        snap = snapshot(repo, settings, base, None)
        findings = [
            *snap.changes.problems,
            *lint_findings(
                repo, Layout.of(settings, repo.root), snap, settings.severity, settings.max_bytes
            ),
        ]
    finally:
        repo.close()
    ok = not has_errors(findings)
    if format == "json":
        print(
            dump_json(
                {"ok": ok, "base": snap.changes.base, "findings": [f.to_json() for f in findings]}
            )
        )
    else:
        text = format_github(findings) if format == "github" else format_text(findings)
        if text:
            print(text)
        print(f"lint: {len(findings)} finding(s)" if findings else "lint: nothing to report")
    return 0 if ok else 1
