"""``changelog log KEY``: the entries that apply to a key, newest first; ``*`` arguments expand
against the work tree's master keys, and unmatched arguments and encoding problems are named
on stderr."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format
from changelog_tool.confinement import confined
from changelog_tool.diff.local import work_tree_masters
from changelog_tool.errors import ChangelogError, UsageError, relative
from changelog_tool.findings import json_default
from changelog_tool.gate.acceptance import unmatched
from changelog_tool.ledger.document import Ledger, read_file
from changelog_tool.ledger.entry import matching_keys
from changelog_tool.ledger.filecheck import applying, entries, format_text
from changelog_tool.settings import DEFAULT_MAX_BYTES, Settings


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "key",
        metavar="KEY",
        nargs="+",
        help="a master-config key (several: entries for any of them)",
    )
    parser.add_argument(
        "--file", type=Path, metavar="PATH", help="changelog to read (default: from settings)"
    )
    parser.add_argument("--limit", type=int, metavar="N", help="show at most N entries")
    add_format(parser)


def run(*, key: list[str], file: Path | None, limit: int | None, format: str) -> int:
    if limit is not None and limit < 1:
        raise UsageError("--limit must be at least 1")
    settings: Settings | None = None
    hint = "" if file is not None else "; pass --file PATH"
    if file is None:
        settings = settings_module.load()
        file = confined(settings.root, settings.changelog)
    else:  # unreadable settings: no master keys, literal matching
        with contextlib.suppress(ChangelogError):
            settings = settings_module.load(file.parent)
    max_bytes = settings.max_bytes if settings is not None else DEFAULT_MAX_BYTES
    shown = relative(file)  # as the text output names it
    data = read_file(file, hint, max_bytes)  # a file that cannot be read is said first, alone
    masters = work_tree_masters(settings) if settings is not None else None
    expansion: dict[str, list[str]] | None = None
    searched, gone = key, []
    if masters is not None:  # each argument's master keys; the closest key for none
        keys, files = list(masters.owner), [m.path for m in masters.files]
        expansion = {arg: sorted(matching_keys(arg, keys)) for arg in key}
        for arg in (arg for arg, found in expansion.items() if not found):
            print(f"changelog: {unmatched(arg, keys, files)}", file=sys.stderr)
        searched = sorted({k for found in expansion.values() for k in found})
        # a key gone from the masters still finds the entries naming it, not patterns
        gone = [arg for arg, found in expansion.items() if not found and "*" not in arg]
    items, problems = entries(data)
    if not items and problems:
        raise ChangelogError(f"cannot read {shown}: {problems[0]}")
    for bad in Ledger(data).byte_problems():
        if bad.code == "encoding":
            print(f"changelog: {shown}:{bad.line}: {bad.message}", file=sys.stderr)
    for problem in problems:
        print(f"changelog: {shown}: {problem}", file=sys.stderr)
    found = applying(items, searched, verbatim=gone)
    total = len(found)
    code = 1 if expansion is not None and not total and not all(expansion.values()) else 0
    if limit is not None:
        found = found[:limit]
    if format == "json":
        document = {
            "ok": code == 0,
            "keys": key,
            "matched-keys": expansion,
            "path": str(file),
            "total": total,
            "entries": [a.to_json() for a in found],
        }
        print(json.dumps(document, indent=2, ensure_ascii=False, default=json_default))
        return code
    if not found:
        print(f"no entry applies to {', '.join(key)} in {shown}")
        return code
    show_keys = expansion is not None and searched != key
    print(format_text(found, shown, searched, show_keys=show_keys))
    shown = f"{len(found)} of {total}" if len(found) < total else str(total)
    noun = "entry applies" if total == 1 else "entries apply"
    print(f"\n{shown} {noun} to {describe(key, expansion)} (newest first)")
    return code


def describe(arguments: list[str], expansion: dict[str, list[str]] | None) -> str:
    """The arguments, each pattern with how many master keys it stands for."""

    def one(arg: str) -> str:
        if expansion is None or "*" not in arg:
            return arg
        n = len(expansion[arg])
        return f"{arg} ({n} key{'' if n == 1 else 's'})"

    return ", ".join(one(arg) for arg in arguments)
