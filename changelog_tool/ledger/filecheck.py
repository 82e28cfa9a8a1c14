"""A changelog file read whole: its checks (``verify --file``), and its entries that apply to some
keys, newest first (``log``, the TUI's history pane)."""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from changelog_tool.findings import ERROR, WARNING, Finding, escape_controls
from changelog_tool.ledger.document import BOM, ENTRY_HEAD, Ledger, read_file, readable
from changelog_tool.ledger.entry import matching_keys, schema_errors
from changelog_tool.settings import DEFAULT_MAX_BYTES
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items


@dataclass
class FileReport:
    findings: list[Finding] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    parsed: bool = False


def entry_count(which: str, line: int, path: str) -> Finding:
    """``which`` entry (``entry 3``, ``the last entry``) does not begin as entries do."""
    return Finding(
        "entry-count", f"{which} does not begin with '{ENTRY_HEAD.decode()}'", path, line
    )


def schema_findings(which: str, line: int, item: Item, path: str) -> list[Finding]:
    """The schema's refusals of ``which`` entry, each at its field's line."""
    lines = item.key_lines
    return [
        Finding(
            "schema",
            f"{which} (line {line}), {field}: {message}",
            path,
            lines.get(field) or lines.get(field.split("/")[0]) or item.line,
        )
        for field, message in schema_errors(item.value)
    ]


ENTRY_FLAWS = frozenset({"schema", "entry-count", "separator"})
"""Flaws of one entry of its own (its fields, its first line, its separator), as
against damage to the file (encoding, YAML, the final newline), which would make
the next appended bytes misread and refuses whoever's it is."""

HeldLines = Callable[[], Container[int]]
"""The file's lines in entries the protected branch already holds (asked only when
there is a flaw to place; :mod:`changelog_tool.gate.held`)."""


def as_history(findings: list[Finding], held: HeldLines | None) -> list[Finding]:
    """An entry flaw on a line the protected branch already holds (``held``) is a warning saying
    how to correct it; in a new entry it stays an error."""
    if held is None or not any(f.code in ENTRY_FLAWS and f.severity == ERROR for f in findings):
        return findings
    lines = held()
    return [
        replace(
            f,
            severity=WARNING,
            message=f"{f.message} (an entry the protected branch already holds: correct "
            "it in a pull request of its own; a pr-link-only change is allowed)",
        )
        if f.code in ENTRY_FLAWS and f.severity == ERROR and f.line is not None and f.line in lines
        else f
        for f in findings
    ]


def check_path(
    file: Path, path: str, limit: int = DEFAULT_MAX_BYTES, held: HeldLines | None = None
) -> FileReport:
    report = check_file(read_file(file, limit=limit), path)
    report.findings = as_history(report.findings, held)
    return report


def check_file(data: bytes, path: str) -> FileReport:
    """Every file-level check, collecting all findings (never raises), parsed entries kept: the
    whole file parsed at once, then each entry on its own if that failed."""
    ledger = Ledger(data)
    byte_problems = ledger.byte_problems(path)
    report = FileReport(findings=list(byte_problems))
    if not readable(data):
        return report  # a YAML error on top would only repeat the encoding problem
    try:
        root = load_items(data)
    except YamlProblem as problem:
        report.findings.append(Finding(problem.code, problem.message, path, problem.line))
        for block in ledger.blocks:  # then each other broken entry too
            read = block.item
            if not isinstance(read, YamlProblem):
                which = f"entry {block.index + 1}"
                report.findings.extend(schema_findings(which, block.line, read, path))
            elif read.line != problem.line:
                report.findings.append(Finding(read.code, read.message, path, read.line))
        return report
    report.parsed = True
    if root is None and _BLANK_OR_COMMENT.fullmatch(data):
        return report  # nothing but empty lines and comments: a history of no entries
    if not isinstance(root, list):
        kind = "empty" if root is None else type(root).__name__
        message = (
            f"the YAML root must be a list of entries, found {kind}; each entry is a "
            "list item that begins with `- config-keys:` at column 0 (`changelog add` "
            "appends one)"
        )
        report.findings.append(Finding("not-a-list", message, path, 1))
        return report
    report.items = root
    for number, item in enumerate(root, 1):
        start = ledger.line_start(item.line)
        if start == 0 and data.startswith(BOM):  # its own encoding finding says so
            start = len(BOM)
        if not data.startswith(ENTRY_HEAD, start):
            report.findings.append(entry_count(f"entry {number}", item.line, path))
        report.findings.extend(schema_findings(f"entry {number}", item.line, item, path))
    if not any(p.code == "encoding" for p in byte_problems):
        # with CR line endings every entry would look unseparated: one finding is enough
        report.findings.extend(_separator_findings(ledger, path))
    return report


def _separator_findings(ledger: Ledger, path: str) -> list[Finding]:
    findings = []
    data = ledger.data
    if data.endswith(b"\n\n") or (data.endswith(b"\n") and not data.rstrip(b" \n")):
        message = (
            "the file ends with an empty line; the next entry appended after it "
            "must begin directly with '- config-keys:'"
        )
        line = ledger.line_of(len(data.rstrip(b"\n"))) + 1
        findings.append(Finding("separator", message, path, line, WARNING))
    for block in ledger.blocks[1:]:
        previous = ledger.blocks[block.index - 1]
        if previous.end == previous.sep_end:
            message = "no empty line between this entry and the previous one"
            findings.append(Finding("separator", message, path, block.line, WARNING))
    return findings


_BLANK_OR_COMMENT = re.compile(rb"(?: *(?:#[^\n]*)?\n)*")


# --- the entries that apply to keys --------------------------------------------------


@dataclass(frozen=True)
class Applied:
    """An entry that applies to a key: its line, the patterns that match and the keys it names."""

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
