"""``changelog lint [--base REF]``: the master-config problems the branch introduced and the
review lints, without the changelog checks, for a pre-commit hook; read as ``verify --base``
reads them."""

from __future__ import annotations

import argparse
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format
from changelog_tool.diff.engine import Layout, snapshot
from changelog_tool.diff.trust import gather_from_base
from changelog_tool.findings import dump_json, format_github, format_text, has_errors
from changelog_tool.gate.verdict import settings_change
from changelog_tool.gitrepo import Repo
from changelog_tool.lint.gather import lint_findings


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base",
        metavar="REF",
        help="compare with REF's merge-base, with the settings found there (default: the "
        "protected ref, with the work tree's settings)",
    )
    parser.add_argument(
        "--allow-settings-change",
        action="store_true",
        help="with --base: a branch that changes the settings gets a warning, not an error "
        "(the base's settings are used either way)",
    )
    add_format(parser, github=True)


def run(*, base: str | None, format: str, allow_settings_change: bool = False) -> int:
    # with --base, the base's settings (the branch's change a finding); else the work tree's
    work_tree = settings_module.load() if base is None else None
    with Repo.open(work_tree.root if work_tree else Path.cwd()) as repo:
        if base is not None:
            settings, snap = gather_from_base(repo, Path.cwd(), base=base)
        else:
            assert work_tree is not None
            settings, snap = work_tree, snapshot(repo, work_tree, None, None)
        findings = [*settings_change(snap, allow_settings_change), *snap.changes.problems]
        findings += lint_findings(
            repo, Layout.of(settings, repo.root), snap, settings.severity, settings.max_bytes
        )
    ok = not has_errors(findings)
    if format == "json":
        document = {
            "ok": ok,
            "base": snap.changes.base,
            "findings": [f.to_json() for f in findings],
        }
        print(dump_json(document))
    else:
        text = format_github(findings) if format == "github" else format_text(findings)
        if text:
            print(text)
        print(f"lint: {len(findings)} finding(s)" if findings else "lint: nothing to report")
    return 0 if ok else 1
