"""What a branch did to the changelog between base and head bytes (pure).

The common case costs one prefix comparison and a parse of the appended tail,
whatever the length of the history: the base bytes were checked when they were
appended, and a branch may only add bytes after them. The rare cases (pr-link
corrections, edited history) compare lines or entry blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from typing import Any

from changelog_tool.findings import Finding
from changelog_tool.ledger.conversions import (
    NUL_REFUSED,
    OFFSET,
    offsets_in,
    readable,
    undo_conversions,
)
from changelog_tool.ledger.document import ENTRY_HEAD, ENTRY_START, Ledger, separator_before_append
from changelog_tool.ledger.edits import Edit, history_edits
from changelog_tool.ledger.entry import schema_errors
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.ledger.strictyaml import Item, YamlProblem, load_items

_PR_LINK_LINE = re.compile(rb"^ *pr-link:")
NEW, UNCHANGED, APPEND, CORRECTION, MODIFIED, ABSENT = (
    "new",
    "unchanged",
    "append",
    "correction",
    "modified",
    "absent",
)
_MAX_HISTORY_FINDINGS = 10


@dataclass
class Appended:
    """One entry the branch appended: its block, first line in head, parsed value."""

    line: int
    text: bytes
    value: dict[str, Any] | None = None
    key_lines: dict[str, int] = field(default_factory=dict)

    def field_line(self, name: str) -> int:
        return self.key_lines.get(name, self.line)

    def line_of_text(self, text: str) -> int:
        """The first line of this block that contains ``text`` (else the entry's line)."""
        raw = text.encode("utf-8")
        for offset, line in enumerate(self.text.split(b"\n")):
            if raw in line:
                return self.line + offset
        return self.line


@dataclass
class History:
    kind: str
    prefix: bytes = b""
    appended: list[Appended] = field(default_factory=list)
    corrections: list[tuple[int, str]] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def _line_at(data: bytes, offset: int) -> int:
    return data.count(b"\n", 0, offset) + 1


def _first_difference(a: bytes, b: bytes) -> int:
    step = 1 << 16
    pos = 0
    while pos < min(len(a), len(b)) and a[pos : pos + step] == b[pos : pos + step]:
        pos += step
    while pos < min(len(a), len(b)) and a[pos] == b[pos]:
        pos += 1
    return pos


def compare(
    base: bytes | None, head: bytes | None, path: str, restore_from: str | None = None
) -> History:
    """Classify the change and check every byte the branch added. ``restore_from``
    names the base commit in the advice to restore a deleted file."""
    if head is None:
        if base is None:
            return History(ABSENT)
        source = restore_from or "<base commit>"
        return History(
            MODIFIED,
            findings=[
                Finding(
                    "history-modified",
                    f"{path} was deleted at head; the file is append-only: restore "
                    f"it (`git checkout {source} -- {path}`) and append new entries to it",
                    path,
                    None,
                )
            ],
        )
    if not base:
        return _new_file(head, path)
    raw = head
    head, conversions = undo_conversions(base, head, path)
    if head == base:
        return History(UNCHANGED, prefix=head, findings=conversions)
    if head.startswith(base):
        history = History(APPEND, prefix=base)
    else:
        corrected = _pr_link_corrections(base, head)
        if corrected is not None:
            history = History(CORRECTION, prefix=head[: corrected[0]], corrections=corrected[1])
        else:
            history = _modified(base, head, path)
    _check_tail(head, history, path)
    if history.kind == CORRECTION and history.appended:
        history.findings.insert(
            0,
            Finding(
                "mixed-correction",
                f"this change corrects {len(history.corrections)} pr-link line(s) "
                f"of old entries and also appends {len(history.appended)} entr(y/ies); "
                "do the two in separate pull requests",
                path,
                history.appended[0].line,
            ),
        )
    history.findings[:0] = conversions
    if raw is not head:
        offsets_in(raw, history.findings)
    return history


def _new_file(head: bytes, path: str) -> History:
    report = check_file(head, path)
    nul = any(f.code == "encoding" and "NUL" in f.message for f in report.findings)
    history = History(
        NEW,
        findings=[
            f
            for f in report.findings
            if not (nul and f.code == "yaml-syntax" and f.message.startswith(NUL_REFUSED))
        ],
    )
    ledger = Ledger(head)
    items: list[Item | YamlProblem] = (
        list(report.items) if report.parsed else ledger.parse_blocks(ledger.blocks)
    )
    blocks = ledger.blocks
    for index, item in enumerate(items):
        if isinstance(item, Item) and isinstance(item.value, dict):
            text = ledger.text(blocks[index]) if index < len(blocks) else b""
            history.appended.append(Appended(item.line, text, item.value, item.key_lines))
    return history


def _pr_link_corrections(base: bytes, head: bytes) -> tuple[int, list[tuple[int, str]]] | None:
    """When only ``pr-link:`` lines of the base changed: (length of the corrected
    base inside head, the corrected lines)."""
    old, new = base.split(b"\n"), head.split(b"\n")
    if len(new) < len(old):
        return None
    changed: list[tuple[int, str]] = []
    for number, (a, b) in enumerate(zip(old[:-1], new, strict=False), 1):
        if a != b:
            if not (_PR_LINK_LINE.match(a) and _PR_LINK_LINE.match(b)):
                return None
            changed.append((number, b.decode("utf-8", "replace")))
    last_old, last_new = old[-1], new[len(old) - 1]
    before = sum(len(line) + 1 for line in new[: len(old) - 1])
    if last_new.startswith(last_old):
        length = before + len(last_old)
    elif _PR_LINK_LINE.match(last_old) and _PR_LINK_LINE.match(last_new):
        changed.append((len(old), last_new.decode("utf-8", "replace")))
        length = before + len(last_new)
    else:
        return None
    return (length, changed) if changed else None


def _normal(text: bytes) -> bytes:
    """An entry block for matching: pr-link lines and trailing spaces do not count."""
    return b"\n".join(
        line.rstrip(b" ") for line in text.split(b"\n") if not _PR_LINK_LINE.match(line)
    )


def _modified(base: bytes, head: bytes, path: str) -> History:
    """History changed: align the entry blocks of both versions, say which entries
    were changed, removed or inserted, and take the entries after the last one
    that already existed (equal or changed in place) as the appended ones."""
    old, new = Ledger(base), Ledger(head)
    old_texts = [_normal(old.text(b)) for b in old.blocks]
    new_texts = [_normal(new.text(b)) for b in new.blocks]
    matcher = SequenceMatcher(None, old_texts, new_texts, autojunk=False)
    opcodes = matcher.get_opcodes()
    last = -1  # index of the last head block that already existed
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            last = j2 - 1
        elif tag == "replace":
            last = max(last, j1 + min(i2 - i1, j2 - j1) - 1)
    prefix_end = new.blocks[last].sep_end if last >= 0 else new.preamble_end
    history = History(MODIFIED, prefix=head[:prefix_end])
    first = _line_at(head, _first_difference(base, head))
    edits = history_edits(old, new) or [
        Edit(first, "changed existing bytes (whitespace or separators); restore them exactly")
    ]
    for edit in edits[:_MAX_HISTORY_FINDINGS]:
        history.findings.append(
            Finding(
                "history-modified",
                f"this branch {edit.what}; the file is append-only "
                "(`changelog sync` rebuilds it as base bytes + this branch's entries)",
                path,
                first if edit.line is None or edit.in_base else edit.line,
            )
        )
    if len(edits) > _MAX_HISTORY_FINDINGS:
        history.findings.append(
            Finding(
                "history-modified",
                f"... and {len(edits) - _MAX_HISTORY_FINDINGS} more "
                "changed, removed or inserted entries",
                path,
                first,
            )
        )
    return history


def _check_tail(head: bytes, history: History, path: str) -> None:
    """Check the bytes after the (possibly corrected) base: separator, entries."""
    prefix = history.prefix
    tail = head[len(prefix) :]
    if not tail:
        return
    before = prefix.count(b"\n")  # head line = tail line + before
    findings = history.findings
    for problem in Ledger(tail).byte_problems():
        message = problem.message
        at = OFFSET.search(message)
        if at:  # counted from the file's start, not the tail's
            offset = len(prefix) + int(at.group()[len("at offset ") :])
            message = OFFSET.sub(f"at offset {offset}", message)
        findings.append(
            Finding(
                problem.code,
                message,
                path,
                problem.line + before if problem.line is not None else None,
            )
        )
    if prefix and not prefix.endswith(b"\n") and not tail.startswith(b"\n"):
        findings.append(
            Finding(
                "history-modified",
                "the last line of the existing file was changed "
                "(bytes were added to it); append entries on new lines",
                path,
                before + 1,
            )
        )
        return
    match = ENTRY_START.search(tail)
    lead = tail[: match.start()] if match else tail
    if lead.strip(b" \n"):
        offset = len(lead) - len(lead.lstrip(b" \n"))
        line = before + tail.count(b"\n", 0, offset) + 1
        if prefix and lead.lstrip(b"\n").startswith(b" "):
            findings.append(
                Finding(
                    "history-modified",
                    "lines were added to the last existing entry; append a new entry instead",
                    path,
                    line,
                )
            )
        else:
            findings.append(
                Finding(
                    "entry-count",
                    f"appended text that is not an entry; every entry begins "
                    f"with '{ENTRY_HEAD.decode()}' at column 0",
                    path,
                    line,
                )
            )
        if match is None:
            return
    elif match is None:
        if (prefix[-1:] + tail).endswith(b"\n\n"):
            findings.append(
                Finding(
                    "separator",
                    "the file ends with an empty line; remove the trailing empty line(s)",
                    path,
                    before + tail.count(b"\n"),
                )
            )
        return
    elif prefix and history.kind != MODIFIED and lead != separator_before_append(prefix):
        found = lead.decode("utf-8", "replace")
        findings.append(
            Finding(
                "separator",
                "the first new entry must follow exactly one empty line "
                f"(found {found!r} between the last existing entry and it)",
                path,
                before + tail.count(b"\n", 0, match.start()) + 1,
            )
        )
    _check_entries(
        tail[match.start() :], before + tail.count(b"\n", 0, match.start()), history, path
    )


def _check_entries(data: bytes, before: int, history: History, path: str) -> None:
    ledger = Ledger(data)
    blocks = ledger.blocks
    for block in blocks:
        line = block.line + before
        text = ledger.text(block)
        if not text.startswith(ENTRY_HEAD):
            history.findings.append(
                Finding(
                    "entry-count",
                    f"a new entry does not begin with '{ENTRY_HEAD.decode()}'",
                    path,
                    line,
                )
            )
        separator = data[block.end : block.sep_end]
        if block.index < len(blocks) - 1 and separator != b"\n":
            history.findings.append(
                Finding(
                    "separator",
                    "new entries must be separated by exactly one empty line",
                    path,
                    ledger.line_of(block.end) + before,
                )
            )
        elif block.index == len(blocks) - 1 and data.endswith(b"\n\n"):
            history.findings.append(
                Finding(
                    "separator",
                    "the file ends with an empty line; remove the trailing empty line(s)",
                    path,
                    ledger.line_of(block.end) + before,
                )
            )
        try:
            items = load_items(text, line_offset=line - 1)
        except YamlProblem as problem:
            if readable(text):  # else the encoding finding already says why
                history.findings.append(Finding(problem.code, problem.message, path, problem.line))
            continue
        if not isinstance(items, list) or len(items) != 1 or not isinstance(items[0], Item):
            history.findings.append(
                Finding("entry-count", "this block is not exactly one list item", path, line)
            )
            continue
        item = items[0]
        number = len(history.appended) + 1
        for field_path, message in schema_errors(item.value):
            top = field_path.split("/")[0]
            history.findings.append(
                Finding(
                    "schema",
                    f"new entry {number} (line {line}), {field_path}: {message}",
                    path,
                    item.key_lines.get(top, line),
                )
            )
        if isinstance(item.value, dict):
            history.appended.append(Appended(line, text, item.value, item.key_lines))
