"""`changelog keys`: what the branch changed in the master configs and recipes.

Output follows the contract of ``verify``: ``--format json`` carries ``ok``, ``base``,
``head``, ``changed`` and ``findings`` (plus every key change in full under ``keys``);
``--format github`` annotates the findings and, as notices, the changed keys. Exit 1
when a master config the branch touched does not parse.
"""

from __future__ import annotations

import argparse
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--base",
        metavar="REF",
        help="compare with REF's merge-base (default: the protected ref, e.g. origin/main)",
    )
    parser.add_argument(
        "--head",
        metavar="REF",
        help="head commit (default: the work tree, uncommitted edits included)",
    )
    parser.add_argument("--format", choices=("text", "github", "json"), default="text")


def run(*, base: str | None, head: str | None, format: str) -> int:
    from changelog_tool import settings as settings_module
    from changelog_tool.diff.engine import collect
    from changelog_tool.findings import has_errors

    settings = settings_module.load()
    changes = collect(settings, base=base, head=head)
    findings = changes.problems
    ok = not has_errors(findings)
    if format == "json":
        from changelog_tool.findings import dump_json

        document: dict[str, Any] = {
            "ok": ok,
            "base": changes.base,
            "head": changes.head,
            "changed": changes.to_json(),
            "keys": changes.keys_json(),
            "appended": changes.appended,
            "findings": [f.to_json() for f in findings],
        }
        print(dump_json(document))
        return 0 if ok else 1
    from changelog_tool.diff.summary import change_lines, notices

    if format == "github":
        from changelog_tool.findings import format_github

        annotations = format_github([*findings, *notices(changes)])
        if annotations:
            print(annotations)
        print("\n".join(change_lines(changes)))
        return 0 if ok else 1
    from changelog_tool.findings import format_text

    print("\n".join(change_lines(changes)))
    if findings:
        print(format_text(findings))
    return 0 if ok else 1
