"""`changelog keys`: what the branch changed in the master configs and recipes."""

from __future__ import annotations

import argparse
from typing import Any


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", metavar="REF",
                        help="compare with REF's merge-base (default: the protected ref, "
                        "e.g. origin/main)")
    parser.add_argument("--head", metavar="REF",
                        help="head commit (default: the work tree, uncommitted edits included)")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def run(*, base: str | None, head: str | None, format: str) -> int:
    from changelog_tool import settings as settings_module
    from changelog_tool.changes import collect

    settings = settings_module.load()
    changes = collect(settings, base=base, head=head)
    if format == "json":
        from changelog_tool.findings import dump_json

        document: dict[str, Any] = {
            "base": changes.base, "head": changes.head, "changed": changes.to_json(),
            "keys": changes.keys_json(), "appended": changes.appended,
            "problems": [f.to_json() for f in changes.problems]}
        print(dump_json(document))
        return 0
    from changelog_tool.findings import format_text
    from changelog_tool.summary import change_lines

    print("\n".join(change_lines(changes)))
    if changes.problems:
        print(format_text(changes.problems))
    return 0
