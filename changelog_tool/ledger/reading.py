"""The changelog as the benchmark CI reads a change: InferenceX's ``get_added_lines`` restated on
git's own diff. Apart from the append rule, so the merge and the writer never load PyYAML."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from changelog_tool.yaml import yaml11
from changelog_tool.yaml.items import YamlProblem

_HUNK = re.compile(r"^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@")


@dataclass
class Deleted:
    """A deleted line the reader refuses: its number in base and head, and its text."""

    base_line: int
    head_line: int
    text: str
    unterminated: bool = False
    """The base's last line, which had no line break (git: ``\\ No newline``)."""


@dataclass
class Reading:
    deleted: list[Deleted] = field(default_factory=list)
    first_added: int | None = None
    """Head's line number of the first added line."""
    entries: list[dict[str, object]] = field(default_factory=list)
    problem: str | None = None
    """Why the added lines do not load as a list of entries (``None``: they do)."""


def read_diff(diff: bytes) -> Reading:
    out = Reading()
    added: list[str] = []
    old = new = 0
    previous = ""
    for line in diff.decode("utf-8", "replace").split("\n"):
        hunk = _HUNK.match(line)
        if hunk:
            old, new = int(hunk.group(1)), int(hunk.group(2))
        elif line.startswith("-") and not line.startswith("---"):
            if line[1:].strip():
                out.deleted.append(Deleted(old, new, line[1:]))
            old += 1
        elif line.startswith("+") and not line.startswith("+++"):
            if out.first_added is None:
                out.first_added = new
            added.append(line[1:])
            new += 1
        elif line.startswith(" "):
            old, new = old + 1, new + 1
        elif line.startswith("\\") and previous.startswith("-") and out.deleted:
            last = out.deleted[-1]
            last.unterminated = last.unterminated or last.base_line == old - 1
        previous = line
    text = "\n".join(added)
    if text.strip():
        out.entries, out.problem = _entries(text)
    return out


def _entries(text: str) -> tuple[list[dict[str, object]], str | None]:
    """The added text as the list of entries it loads to, or why it does not."""
    try:
        value = yaml11.load(text.encode("utf-8"))
    except YamlProblem as exc:
        return [], exc.message.strip().splitlines()[0]
    if not value:
        return [], None
    if not isinstance(value, list):
        return [], f"they load as a {type(value).__name__}, not a list of entries"
    if not all(isinstance(item, dict) for item in value):
        return [], "they load as a list whose items are not all entries (mappings)"
    return value, None
