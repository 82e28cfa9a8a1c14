"""A branch's revision of the changelog: its kind, the bytes kept from the base, its appended
entries checked byte by byte, and the one append rule (:func:`append_break`)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from changelog_tool.findings import WARNING, Finding
from changelog_tool.ledger.document import (
    ENTRY_HEAD,
    ENTRY_START,
    UNPARSED,
    Entry,
    Ledger,
    readable,
    separator_before_append,
)
from changelog_tool.ledger.filecheck import entry_count
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items
from changelog_tool.yaml.values import same

OFFSET = re.compile(r"at offset (\d+)")

NEW, UNCHANGED, APPEND = "new", "unchanged", "append"
CORRECTION, MODIFIED, ABSENT = "correction", "modified", "absent"


SYNC = "`changelog sync` rewrites it as the base's bytes, then this branch's own entries"
"""The fix every form warning names (blank lines, whitespace, an entry not at the tail)."""


def form_warning(code: str, what: str, path: str, line: int) -> Finding:
    return Finding(code, f"{what}: {SYNC}", path, line, WARNING)


FORM = frozenset({"separator", "whitespace", "entry-order", "re-land"})
"""The codes of form: warnings, unless the settings' ``format = "error"`` says otherwise."""


@dataclass
class History:
    kind: str
    prefix: bytes = b""
    """The bytes head keeps from the base (the base, or the base corrected)."""
    appended: list[Entry] = field(default_factory=list)
    """The branch's own entries that read as mappings where they stand."""
    corrections: list[tuple[int, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    base: bytes | None = None
    """The base's bytes when head does not begin with them (where a copy of an own
    entry is looked for); else the :attr:`prefix` is the base."""


def check_tail(tail: bytes, history: History, path: str) -> None:
    """The bytes after the (maybe corrected) base: separator, entries, then the append rule."""
    if not tail:
        return
    found = len(history.findings)
    _check_tail(tail, history, path)
    new = history.findings[found:]
    if not any(f.severity != WARNING for f in new) and history.appended:
        broken = append_break(history.prefix, tail)
        if broken is not None:
            history.findings.append(Finding(broken.code, broken.message, path, broken.line))


def _check_tail(tail: bytes, history: History, path: str) -> None:
    prefix = history.prefix
    before = prefix.count(b"\n")  # head line = tail line + before
    findings = history.findings
    for problem in Ledger(tail).byte_problems(path):
        # an offset counted from the file's start, not the tail's
        message = OFFSET.sub(lambda at: f"at offset {len(prefix) + int(at[1])}", problem.message)
        findings.append(replace(problem, message=message, line=(problem.line or 0) + before))
    if prefix and not prefix.endswith(b"\n") and not tail.startswith(b"\n"):
        changed = (
            "the last line of the existing file was changed "
            "(bytes were added to it); append entries on new lines"
        )
        findings.append(Finding("history-modified", changed, path, before + 1))
        return
    match = ENTRY_START.search(tail)
    lead = tail[: match.start()] if match else tail
    if lead.strip(b" \n"):
        offset = len(lead) - len(lead.lstrip(b" \n"))
        line = before + tail.count(b"\n", 0, offset) + 1
        if prefix and lead.lstrip(b"\n").startswith(b" "):
            code = "history-modified"
            what = "lines were added to the last existing entry; append a new entry instead"
        else:
            code = "entry-count"
            what = (
                f"appended text that is not an entry; every entry begins "
                f"with '{ENTRY_HEAD.decode()}' at column 0"
            )
        findings.append(Finding(code, what, path, line))
        if match is None:
            return
    elif match is None:
        if (prefix[-1:] + tail).endswith(b"\n\n"):
            findings.append(_ends_empty(path, before + tail.count(b"\n")))
        return
    elif prefix and lead != separator_before_append(prefix):
        found = lead.decode("utf-8", "replace")
        what = (
            "the first new entry should follow exactly one empty line "
            f"(found {found!r} between the last existing entry and it)"
        )
        line = before + tail.count(b"\n", 0, match.start()) + 1
        findings.append(form_warning("separator", what, path, line))
    first = before + tail.count(b"\n", 0, match.start()) + 1
    _check_entries(Ledger(tail[match.start() :], first), history, path)


def _check_entries(ledger: Ledger, history: History, path: str) -> None:
    data, blocks = ledger.data, ledger.blocks
    for block in blocks:
        check_entry(block, history, path)
        separator = data[block.end : block.sep_end]
        if block.index < len(blocks) - 1 and separator != b"\n":
            what = "new entries should be separated by exactly one empty line"
            at = ledger.line_of(block.end)
            history.findings.append(form_warning("separator", what, path, at))
        elif block.index == len(blocks) - 1 and data.endswith(b"\n\n"):
            history.findings.append(_ends_empty(path, ledger.line_of(block.end)))


def _ends_empty(path: str, line: int) -> Finding:
    return form_warning("separator", "the file ends with an empty line", path, line)


def check_entry(entry: Entry, history: History, path: str) -> None:
    """One of the branch's own entries, wherever it stands: it begins like one and reads as one."""
    if not entry.text.startswith(ENTRY_HEAD):
        history.findings.append(entry_count("a new entry", entry.line, path))
    read = entry.item
    if isinstance(read, YamlProblem):
        if read.code == "entry-count" or readable(entry.text):  # else the encoding finding says why
            history.findings.append(Finding(read.code, read.message, path, read.line))
    elif isinstance(read.value, dict):
        history.appended.append(entry)


_MARKER = re.compile(rb"^(?:---|\.\.\.)(?=[ \t\n]|$)|^%", re.MULTILINE)
_KEEP = re.compile(rb"(?:^|[ :-])[|>](?:[1-9]?\+|\+[1-9])[ \t]*(?:#[^\n]*)?$", re.MULTILINE)


@dataclass(frozen=True)
class Break:
    """Why an append breaks the file: what goes wrong (no final stop), and what to do instead."""

    code: str
    line: int
    what: str
    fix: str

    @property
    def message(self) -> str:
        return f"{self.what}; {self.fix}"


def append_break(
    old: bytes, appended: bytes, line: int = 1, whose: str = "the existing file's"
) -> Break | None:
    """Why appending ``appended`` (separator and entries) after ``old`` (the file, or its end
    from file line ``line``) breaks the file, or ``None``: only the end from the last entry on
    is read. An appended entry or an end that does not parse alone is not the append's doing:
    ``None`` (other checks name it)."""
    if not appended.strip(b" \n"):
        return None
    last = Ledger(old).last_block()
    start = last.start if last is not None else 0
    end, line = old[start:], line + old.count(b"\n", 0, start)
    whole = end + appended
    first = line + end.count(b"\n")  # the line the appended bytes begin on
    tail = Ledger(appended, first)
    own = [block.value for block in tail.blocks]
    if any(value is UNPARSED for value in own):
        return None  # the appended entry's own check says why
    entry_line = tail.blocks[0].line if tail.blocks else first
    try:
        alone = _as_list(load_items(end, line_offset=line - 1)) if end.strip(b" \n") else []
    except YamlProblem:
        return None  # the existing file's own problem, whatever follows it

    def broken(code: str, at: int, what: str) -> Break:
        cause, remedy = _cause(end, line)
        fix = (
            "nothing can be appended until that is fixed in a change of its own (an edit "
            f"of history, which a maintainer lands on purpose): {remedy}"
        )
        return Break(code, at, what + cause, fix)

    try:
        together = _as_list(load_items(whole, line_offset=line - 1))
    except YamlProblem as problem:
        return broken(
            "yaml-syntax",
            problem.line or 1,
            f"entries appended after {whose} end would not parse: {problem.message} "
            f"(line {problem.line})",
        )
    if alone is None or together is None or len(together) != len(alone) + len(own):
        found = "no list" if together is None else f"a list of {len(together)} items"
        return broken(
            "entry-count",
            entry_line,
            f"the appended entries would not join {whose} list of entries (the end "
            f"from line {line} on would read as {found})",
        )
    if alone and not same(alone[0].value, together[0].value):
        return broken(
            "entry-count",
            line,
            f"{whose} last entry (line {line}) reads differently once entries follow it",
        )
    for item, value in zip(together[len(alone) :], own, strict=True):
        if not same(item.value, value):
            return broken(
                "entry-count",
                item.line,
                f"the appended entry at line {item.line} would not read as it does on its "
                f"own after {whose} end",
            )
    return None


def _as_list(root: object) -> list[Item] | None:
    """The items of a document that is a list (empty or comments only: ``[]``), else ``None``."""
    if root is None:
        return []
    if isinstance(root, list) and all(isinstance(item, Item) for item in root):
        return root
    return None


def _cause(end: bytes, line: int) -> tuple[str, str]:
    """What in ``end`` takes in the appended bytes, when it is a known ending, and its remedy."""
    marker, keep = _MARKER.search(end), _KEEP.search(end)
    if marker is not None:
        at = line + end.count(b"\n", 0, marker.start())
        mark = end[marker.start() : marker.end()].decode("utf-8", "replace")
        return (
            f": it holds the YAML document marker {mark!r} at line {at}, and what "
            "follows a marker is another document, outside the list"
        ), "remove that marker line"
    if keep is not None:
        at = line + end.count(b"\n", 0, keep.start())
        return (
            f": its block scalar at line {at} keeps its trailing line breaks ('|+' or "
            "'>+'), so it takes in the empty line that separates entries"
        ), "change that indicator to '|' or '>' (the value then ends in one line break)"
    if not end.startswith(b"-"):
        return (
            ": no line of it begins a block list item ('- ' at column 0)",
            "rewrite the file as a block list (one '- config-keys:' entry after another)",
        )
    return "", "fix the end of the file"
