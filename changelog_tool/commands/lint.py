"""``changelog lint [--base REF]``: the master-config problems the branch introduced and the
review lints, without the changelog checks, for a pre-commit hook; read as ``verify --base``
reads them."""

from __future__ import annotations

import argparse
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format
from changelog_tool.diff.engine import Layout, Snapshot, snapshot
from changelog_tool.diff.trust import gather_from_base
from changelog_tool.findings import dump_json, format_github, format_text, has_errors
from changelog_tool.gate.verdict import settings_change
from changelog_tool.gitrepo import Repo
from changelog_tool.lint.gather import lint_findings
from changelog_tool.settings import Settings


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
    repo, settings, snap = _read(base)
    try:
        findings = [*snap.changes.problems]
        if snap.settings_change is not None:
            findings[:0] = filter(None, [settings_change(snap, allow_settings_change)])
        findings += lint_findings(
            repo, Layout.of(settings, repo.root), snap, settings.severity, settings.max_bytes
        )
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


def _read(base: str | None) -> tuple[Repo, Settings, Snapshot]:
    """With ``--base``, the base's settings (the branch's change a finding); without it, the work
    tree's."""
    if base is not None:
        repo = Repo.open(Path.cwd())
        try:
            settings, snap = gather_from_base(repo, Path.cwd(), base=base)
        except BaseException:
            repo.close()
            raise
        return repo, settings, snap
    settings = settings_module.load()
    repo = Repo.open(settings.root)
    try:
        return repo, settings, snapshot(repo, settings, None, None)
    except BaseException:
        repo.close()
        raise
