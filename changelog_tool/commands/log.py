"""`changelog log KEY`: the entries that apply to a key (patterns resolved), newest first."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from changelog_tool.errors import ChangelogError, UsageError


@dataclass(frozen=True)
class Applied:
    """An entry that applies to a key: where it starts and which patterns matched."""

    line: int
    entry: dict[str, Any]
    patterns: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "matched-by": list(self.patterns), **self.entry}


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("key", metavar="KEY", nargs="+",
                        help="a master-config key (several: entries for any of them)")
    parser.add_argument("--file", type=Path, metavar="PATH",
                        help="changelog to read (default: from settings)")
    parser.add_argument("--limit", type=int, metavar="N", help="show at most N entries")
    parser.add_argument("--format", choices=("text", "json"), default="text")


def entries(data: bytes) -> tuple[list[tuple[int, dict[str, Any]]], list[str]]:
    """``(line, entry)`` for every entry in file order, and problems with broken ones.

    A file that does not parse as a whole is read entry by entry, so one broken
    entry does not hide the others."""
    from changelog_tool.ledger import Ledger
    from changelog_tool.yamlload import Item, YamlProblem

    ledger = Ledger(data)
    try:
        root = ledger.parse()
    except YamlProblem:
        found: list[tuple[int, dict[str, Any]]] = []
        problems = []
        for result in ledger.parse_blocks(ledger.blocks):
            if isinstance(result, YamlProblem):
                problems.append(f"line {result.line}: {result.message} (entry skipped)")
            elif isinstance(result.value, dict):
                found.append((result.line, result.value))
        return found, problems
    if not isinstance(root, list):
        return [], ["the YAML root is not a list of entries"]
    return [(i.line, i.value) for i in root if isinstance(i, Item) and isinstance(i.value, dict)], []


def applying(items: Iterable[tuple[int, dict[str, Any]]], keys: Iterable[str]) -> list[Applied]:
    """The entries whose config-keys match any of ``keys``, newest first."""
    from changelog_tool.entry import matches

    wanted = list(keys)
    out = []
    for line, entry in items:
        patterns = entry.get("config-keys")
        if not isinstance(patterns, list):
            continue
        hits = tuple(p for p in patterns if isinstance(p, str)
                     and any(matches(p, key) for key in wanted))
        if hits:
            out.append(Applied(line, entry, hits))
    out.reverse()
    return out


def format_text(found: list[Applied], path: str, keys: list[str]) -> str:
    lines = []
    for applied in found:
        entry = applied.entry
        lines.append(f"{path}:{applied.line}: {entry.get('pr-link', '')}")
        patterns = [str(p) for p in entry.get("config-keys") or []]
        shown = ", ".join(patterns[:4]) + (f", +{len(patterns) - 4} more" if len(patterns) > 4
                                           else "")
        via = [p for p in applied.patterns if p not in keys]
        lines.append(f"  config-keys: {shown}" + (f"  (matched by {', '.join(via)})" if via
                                                   else ""))
        scenarios = entry.get("scenario-type")
        if isinstance(scenarios, list) and scenarios:
            lines.append(f"  scenario-type: {', '.join(str(s) for s in scenarios)}")
        for key in ("evals-only", "all-evals", "append-only", "eval-min-prefill-ep"):
            if key in entry:
                lines.append(f"  {key}: {entry[key]}")
        descriptions = entry.get("description")
        for text in descriptions if isinstance(descriptions, list) else [descriptions]:
            lines.append(f"  - {text}")
        lines.append("")
    return "\n".join(lines).rstrip("\n")


def run(*, key: list[str], file: Path | None, limit: int | None, format: str) -> int:
    if limit is not None and limit < 1:
        raise UsageError("--limit must be at least 1")
    if file is None:
        from changelog_tool import settings as settings_module

        file = settings_module.load().changelog_path
    from changelog_tool.ledger import read_file

    data = read_file(file, "; pass --file PATH")
    items, problems = entries(data)
    if not items and problems:
        raise ChangelogError(f"cannot read {file}: {problems[0]}")
    for problem in problems:
        print(f"changelog: {file}: {problem}", file=sys.stderr)
    found = applying(items, key)
    total = len(found)
    if limit is not None:
        found = found[:limit]
    if format == "json":
        print(json.dumps({"keys": key, "path": str(file), "total": total,
                          "entries": [a.to_json() for a in found]}, indent=2, ensure_ascii=False))
        return 0
    if not found:
        print(f"no entry applies to {', '.join(key)} in {file}")
        return 0
    print(format_text(found, str(file), key))
    shown = f"{len(found)} of {total}" if len(found) < total else str(total)
    noun = "entry applies" if total == 1 else "entries apply"
    print(f"\n{shown} {noun} to {', '.join(key)} (newest first)")
    return 0
