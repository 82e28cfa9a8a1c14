"""What a branch did to the changelog between base and head bytes (pure).

The common case costs one prefix comparison and a parse of the appended tail,
whatever the length of the history: the base bytes were checked when they were
appended, and a branch may only add bytes after them. The rare cases (pr-link
corrections, edited history) compare lines or entry blocks.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher

from changelog_tool.findings import Finding
from changelog_tool.ledger.conversions import (
    NUL_REFUSED,
    offsets_in,
    undo_conversions,
)
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import INSERTED, Edit, history_edits
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.ledger.revision import (
    ABSENT,
    APPEND,
    CORRECTION,
    MODIFIED,
    NEW,
    UNCHANGED,
    Appended,
    History,
    Kept,
    check_tail,
)
from changelog_tool.yaml.items import Item, YamlProblem

_PR_LINK_LINE = re.compile(rb"^ *pr-link:")
_MAX_HISTORY_FINDINGS = 10


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
        return History(UNCHANGED, findings=conversions)  # nothing appended: no prefix needed
    if head.startswith(base):
        history = History(APPEND, prefix=Kept.of(base))
    else:
        corrected = pr_link_corrections(base, head)
        if corrected is not None:
            kept = Kept.of(head[: corrected[0]])
            history = History(CORRECTION, prefix=kept, corrections=corrected[1])
        else:
            history = _modified(base, head, path, restore_from or "<base commit>")
    check_tail(head[history.prefix.size :], history, path)
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
    """A changelog the branch creates: every entry is appended (the gate's acceptance
    rule judges their fields, so the schema findings are not repeated here)."""

    report = check_file(head, path)
    nul = any(f.code == "encoding" and "NUL" in f.message for f in report.findings)
    history = History(
        NEW,
        findings=[
            f
            for f in report.findings
            if f.code != "schema"
            and not (nul and f.code == "yaml-syntax" and f.message.startswith(NUL_REFUSED))
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


def pr_link_corrections(base: bytes, head: bytes) -> tuple[int, list[tuple[int, str]]] | None:
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


def _repair(edit: Edit, source: str, path: str) -> str:
    """How to undo ``edit``: an entry of the branch's own placed among the base's is
    moved to the end by `changelog sync`; an edit of the base's bytes, which sync
    refuses to carry, is undone by taking the base's file and adding again."""
    if edit.what.startswith(INSERTED):
        return "(`changelog sync` rebuilds it as base bytes + this branch's entries)"
    return (
        f"(restore it with `git checkout {source} -- {path}`, then add this branch's "
        "entries again with `changelog add`)"
    )


def _modified(base: bytes, head: bytes, path: str, source: str) -> History:
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
    history = History(MODIFIED, prefix=Kept.of(head[:prefix_end]))
    first = _line_at(head, _first_difference(base, head))
    edits = history_edits(old, new) or [
        Edit(first, "changed existing bytes (whitespace or separators); restore them exactly")
    ]
    for edit in edits[:_MAX_HISTORY_FINDINGS]:
        history.findings.append(
            Finding(
                "history-modified",
                f"this branch {edit.what}; the file is append-only {_repair(edit, source, path)}",
                path,
                first if edit.line is None else edit.line,
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
