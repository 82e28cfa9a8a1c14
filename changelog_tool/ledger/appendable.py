"""The writer's gate: is a changelog one an append may extend (``add``, the TUI)."""

from __future__ import annotations

from dataclasses import dataclass, replace

from changelog_tool.errors import ChangelogError
from changelog_tool.findings import Finding, format_text, has_errors
from changelog_tool.ledger.boundaries import ENTRY_HEAD, Source, last_entry
from changelog_tool.ledger.document import ByteProblem, ByteScan, Ledger
from changelog_tool.ledger.filecheck import (
    HeldLines,
    as_history,
    byte_findings,
    entry_count,
    schema_findings,
)
from changelog_tool.ledger.streams import CHUNK
from changelog_tool.yaml.items import YamlProblem

_NO_FINAL_NEWLINE = (
    "the file does not end with a newline, so no appended entry can follow exactly one "
    "empty line; add the final newline on its own first (that keeps every old byte)"
)


@dataclass(frozen=True)
class Appendable:
    """A changelog :func:`check_appendable` accepted: its size, its line breaks, its
    last bytes (from its last entry on: all an append needs) and the warnings about
    main's own last entry."""

    size: int
    lines: int
    end: bytes
    warnings: tuple[Finding, ...] = ()

    @property
    def end_line(self) -> int:
        """The file line :attr:`end` begins on."""
        return self.lines - self.end.count(b"\n") + 1


def check_appendable(
    source: Source, path: str = "perf-changelog.yaml", held: HeldLines | None = None
) -> Appendable:
    """Refuse a file we must not append to, because the result would fail the
    repository's CI whatever is appended: bad bytes, no final newline, a last entry
    that does not parse or that the schema rejects, unless the protected branch
    already holds that entry (``held``: :func:`as_history`), which is then a
    warning. A file is read a piece at a time (a long history is never held): its
    bytes scanned in chunks, its last entry read from the end and parsed alone."""
    scan = ByteScan()
    for offset in range(0, source.size, CHUNK):
        scan.feed(source.read(offset, min(source.size, offset + CHUNK)))
    last, window = last_entry(source)
    before = 0 if last is None else scan.newlines - window.count(b"\n")
    warnings = _refuse_append(scan.problems(), window, before, path, held)
    return Appendable(scan.size, scan.newlines, window, tuple(warnings))


def _refuse_append(
    bytes_found: list[ByteProblem],
    window: bytes,
    before: int,
    path: str,
    held: HeldLines | None = None,
) -> list[Finding]:
    """The refusal of :func:`check_appendable`: the file's byte problems, then the
    checks of its last entry, read in ``window`` (the file's end, from a line
    start; ``before`` line breaks precede it)."""
    problems = [
        replace(p, message=_NO_FINAL_NEWLINE) if p.code == "final-newline" else p
        for p in byte_findings(bytes_found, path)
    ]
    ledger = Ledger(window)
    last = ledger.last_block() if not problems and window.strip() else None
    if not problems and window.strip() and last is None:
        problems.append(Finding("not-a-list", "no entry found (no line begins with '- ')", path, 1))
    elif last is not None:
        line = last.line + before
        try:  # read at its line in the file, so that messages name file lines too
            item = ledger.parse_block(replace(last, line=line))
        except YamlProblem as problem:
            problems.append(Finding(problem.code, problem.message, path, problem.line))
        else:
            problems.extend(schema_findings("the last entry", line, item, path))
        if not window[last.start :].startswith(ENTRY_HEAD):
            problems.append(entry_count("the last entry", line, path))
    problems = as_history(problems, held)
    if has_errors(problems):
        raise ChangelogError(
            f"refusing to append to {path}; fix these first (nothing was written):\n"
            + format_text(problems)
        )
    return problems
