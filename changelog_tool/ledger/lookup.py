"""Looking entries up: every entry with its line (broken ones skipped), and those that apply to
some keys, newest first, for ``log`` and the TUI's history pane."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from changelog_tool.findings import Finding, escape_controls
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.entry import matching_keys
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items


@dataclass(frozen=True)
class Applied:
    """An entry that applies to a key: its start, the matching patterns and the keys it applies
    to."""

    line: int
    entry: dict[str, object]
    patterns: tuple[str, ...]
    keys: tuple[str, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "line": self.line,
            "matched-by": list(self.patterns),
            "applies-to": list(self.keys),
            **self.entry,
        }


def entries(data: bytes) -> tuple[list[tuple[int, dict[str, object]]], list[str]]:
    """``(line, entry)`` for every entry in file order, and problems; a file that does not parse
    whole is read entry by entry."""
    problems = []
    try:
        root = load_items(data)
    except YamlProblem:
        root = [block.item for block in Ledger(data).blocks]
        problems = [
            f"line {p.line}: {p.message} (entry skipped)"
            for p in root
            if isinstance(p, YamlProblem)
        ]
    if not isinstance(root, list):
        return [], ["the YAML root is not a list of entries"]
    return [
        (i.line, i.value) for i in root if isinstance(i, Item) and isinstance(i.value, dict)
    ], problems


def file_entries(
    data: bytes, keep: Callable[[dict[str, object]], bool] | None = None
) -> tuple[list[tuple[int, dict[str, object]]], list[str], list[Finding], bool]:
    """:func:`entries` of a file's bytes that ``keep`` takes, its byte problems, and whether any
    entry could be read."""
    found, problems = entries(data)
    kept = [(line, entry) for line, entry in found if keep is None or keep(entry)]
    return kept, problems, Ledger(data).byte_problems(), bool(found)


def applying(
    items: Iterable[tuple[int, dict[str, object]]],
    keys: Iterable[str],
    verbatim: Iterable[str] = (),
) -> list[Applied]:
    """Entries whose config-keys match ``keys`` or name one of ``verbatim``, newest first, with
    the keys each applies to."""
    wanted = list(dict.fromkeys(keys))
    exact = set(verbatim)
    out = []
    for line, entry in items:
        patterns = entry.get("config-keys")
        if not isinstance(patterns, list):
            continue
        applies: set[str] = set()
        hits = []
        for pattern in (p for p in patterns if isinstance(p, str)):
            found = matching_keys(pattern, wanted) + ([pattern] if pattern in exact else [])
            if found:
                hits.append(pattern)
                applies.update(found)
        if hits:
            out.append(Applied(line, entry, tuple(hits), tuple(sorted(applies))))
    out.reverse()
    return out


_SHOWN_ABOVE = ("pr-link", "config-keys", "scenario-type", "description")


def format_text(found: list[Applied], path: str, keys: list[str], show_keys: bool = False) -> str:
    lines = []
    for applied in found:
        entry = applied.entry
        lines.append(f"{path}:{applied.line}: {entry.get('pr-link', '')}")
        listed = entry.get("config-keys")
        patterns = [str(p) for p in listed] if isinstance(listed, list) else []
        shown = ", ".join(patterns[:4]) + (
            f", +{len(patterns) - 4} more" if len(patterns) > 4 else ""
        )
        via = [p for p in applied.patterns if p not in keys]
        lines.append(
            f"  config-keys: {shown}" + (f"  (matched by {', '.join(via)})" if via else "")
        )
        if show_keys:
            lines.append(f"  applies to: {', '.join(applied.keys)}")
        scenarios = entry.get("scenario-type")
        if isinstance(scenarios, list) and scenarios:
            lines.append(f"  scenario-type: {', '.join(str(s) for s in scenarios)}")
        for key, value in entry.items():  # the flags and other fields, as written
            if key not in _SHOWN_ABOVE:
                lines.append(f"  {key}: {value}")
        descriptions = entry.get("description")
        for text in descriptions if isinstance(descriptions, list) else [descriptions]:
            lines.append(f"  - {text}")
        lines.append("")
    # (an entry's text is the branch's: a line break or an escape sequence in it must
    # not start a line of its own, which CI could read as a workflow command)
    return "\n".join(escape_controls(line) for line in lines).rstrip("\n")
