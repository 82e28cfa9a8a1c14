"""File-level checks of a changelog (``verify --file``), and the writer's gate."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from changelog_tool.errors import ChangelogError
from changelog_tool.findings import WARNING, Finding, format_text
from changelog_tool.ledger.document import ENTRY_HEAD, Ledger
from changelog_tool.ledger.entry import schema_errors
from changelog_tool.ledger.strictyaml import Item, YamlProblem


@dataclass
class FileReport:
    findings: list[Finding] = field(default_factory=list)
    items: list[Item] = field(default_factory=list)
    parsed: bool = False


def _byte_findings(ledger: Ledger, path: str) -> list[Finding]:
    return [Finding(p.code, p.message, path, p.line) for p in ledger.byte_problems()]


def _separator_findings(ledger: Ledger, path: str) -> list[Finding]:
    findings = []
    data = ledger.data
    if data.endswith(b"\n\n") or (data.endswith(b"\n") and not data.rstrip(b" \n")):
        stripped = data.rstrip(b"\n")
        findings.append(
            Finding(
                "separator",
                "the file ends with an empty line; the next entry appended after it "
                "must begin directly with '- config-keys:'",
                path,
                ledger.line_of(len(stripped)) + 1,
                WARNING,
            )
        )
    for block in ledger.blocks[1:]:
        previous = ledger.blocks[block.index - 1]
        if previous.end == previous.sep_end:
            findings.append(
                Finding(
                    "separator",
                    "no empty line between this entry and the previous one",
                    path,
                    block.line,
                    WARNING,
                )
            )
    return findings


def check_file(data: bytes, path: str) -> FileReport:
    """Every file-level check, collecting all findings (never raises)."""
    ledger = Ledger(data)
    byte_problems = ledger.byte_problems()
    report = FileReport(findings=[Finding(p.code, p.message, path, p.line) for p in byte_problems])
    if any(p.unreadable for p in byte_problems):
        return report  # a YAML error on top would only repeat the encoding problem
    try:
        root = ledger.parse()
    except YamlProblem as problem:
        report.findings.append(Finding(problem.code, problem.message, path, problem.line))
        _check_blocks_one_by_one(ledger, path, report, skip_line=problem.line)
        return report
    report.parsed = True
    if not isinstance(root, list):
        kind = "empty" if root is None else type(root).__name__
        report.findings.append(
            Finding("not-a-list", f"the YAML root must be a list of entries, found {kind}", path, 1)
        )
        return report
    report.items = root
    _check_items(ledger, path, root, report)
    if not any(p.code == "encoding" for p in byte_problems):
        # with CR line endings every entry would look unseparated: one finding is enough
        report.findings.extend(_separator_findings(ledger, path))
    return report


def _check_items(ledger: Ledger, path: str, items: list[Item], report: FileReport) -> None:
    for number, item in enumerate(items, 1):
        if not ledger.data.startswith(ENTRY_HEAD, ledger.line_start(item.line)):
            report.findings.append(
                Finding(
                    "entry-count",
                    f"entry {number} does not begin with '{ENTRY_HEAD.decode()}'",
                    path,
                    item.line,
                )
            )
        for field_path, message in schema_errors(item.value):
            line = _field_line(item, field_path)
            report.findings.append(
                Finding(
                    "schema",
                    f"entry {number} (line {item.line}), {field_path}: {message}",
                    path,
                    line,
                )
            )


def _field_line(item: Item, field_path: str) -> int:
    lines = item.key_lines
    return lines.get(field_path) or lines.get(field_path.split("/")[0]) or item.line


def _check_blocks_one_by_one(ledger: Ledger, path: str, report: FileReport, skip_line: int) -> None:
    """After a whole-file parse failed: report each other broken entry too."""
    for block, result in zip(ledger.blocks, ledger.parse_blocks(ledger.blocks), strict=True):
        if isinstance(result, YamlProblem):
            if result.line != skip_line:
                report.findings.append(Finding(result.code, result.message, path, result.line))
            continue
        for field_path, message in schema_errors(result.value):
            report.findings.append(
                Finding(
                    "schema",
                    f"entry {block.index + 1} (line {block.line}), {field_path}: {message}",
                    path,
                    _field_line(result, field_path),
                )
            )


_NO_FINAL_NEWLINE = (
    "the file does not end with a newline, so no appended entry can follow exactly one "
    "empty line; add the final newline on its own first (that keeps every old byte)"
)


def check_appendable(data: bytes, path: str = "perf-changelog.yaml") -> None:
    """The writer's gate: refuse a file we must not append to, because the result
    would fail the repository's CI whatever is appended: bad bytes, no final
    newline, a last entry that does not parse or that the schema rejects. Reads
    bytes over the whole file but parses only the last entry, so it stays fast on
    long histories."""
    ledger = Ledger(data)
    problems = [
        replace(f, message=_NO_FINAL_NEWLINE) if f.code == "final-newline" else f
        for f in _byte_findings(ledger, path)
    ]
    if not problems and data.strip():
        last = ledger.last_block()
        if last is None:
            problems.append(
                Finding("not-a-list", "no entry found (no line begins with '- ')", path, 1)
            )
        else:
            try:
                item = ledger.parse_block(last)
            except YamlProblem as problem:
                problems.append(Finding(problem.code, problem.message, path, problem.line))
            else:
                problems.extend(
                    Finding(
                        "schema",
                        f"the last entry (line {last.line}), {field}: {message}",
                        path,
                        _field_line(item, field),
                    )
                    for field, message in schema_errors(item.value)
                )
            if not data[last.start :].startswith(ENTRY_HEAD):
                problems.append(
                    Finding(
                        "entry-count",
                        f"the last entry does not begin with '{ENTRY_HEAD.decode()}'",
                        path,
                        last.line,
                    )
                )
    if problems:
        raise ChangelogError(
            f"refusing to append to {path}; fix these first (nothing was written):\n"
            + format_text(problems)
        )
