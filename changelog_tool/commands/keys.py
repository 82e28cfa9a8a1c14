"""``changelog keys``: what the branch changed in the master configs and recipes, with
``verify``'s output contract; exit 1 when a touched master config does not parse."""

from __future__ import annotations

import argparse
import dataclasses
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format, add_range
from changelog_tool.diff.engine import collect
from changelog_tool.diff.keychange import change_lines, notices
from changelog_tool.diff.trust import gather_from_base
from changelog_tool.findings import (
    WARNING,
    dump_json,
    format_github,
    format_text,
    github_log,
    has_errors,
    text_log,
)
from changelog_tool.gitrepo import Repo


def configure(parser: argparse.ArgumentParser) -> None:
    add_range(parser, "the work tree, uncommitted edits included")
    add_format(parser, github=True)


def run(*, base: str | None, head: str | None, format: str) -> int:
    if base is not None:  # read as `verify --base` reads, the settings change a warning
        with Repo.open(Path.cwd()) as repo:
            _, found = gather_from_base(repo, Path.cwd(), base=base, head=head)
        changes, findings = found.changes, found.changes.problems
        if found.settings_change is not None:
            warning = dataclasses.replace(found.settings_change, severity=WARNING)
            findings = [warning, *findings]
    else:  # with the work tree's settings
        changes = collect(settings_module.load(), base=None, head=head)
        findings = changes.problems
    if format == "json":
        document: dict[str, object] = {
            "ok": not has_errors(findings),
            "base": changes.base,
            "head": changes.head,
            "changed": changes.to_json(),
            "keys": changes.keys_json(),
            "appended": changes.appended,
            "findings": [f.to_json() for f in findings],
        }
        print(dump_json(document))
    elif format == "github":
        annotations = format_github([*findings, *notices(changes)])
        if annotations:
            print(annotations)
        print(github_log(change_lines(changes)))
    else:
        print(text_log(change_lines(changes)))
        if findings:
            print(format_text(findings))
    return 1 if has_errors(findings) else 0
