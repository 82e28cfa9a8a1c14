"""What a branch did to the changelog between base and head bytes (pure): an append costs one
prefix comparison and a parse of the tail. See docs/design.md, "One comparison"."""

from __future__ import annotations

import bisect
import dataclasses
import itertools

from changelog_tool.errors import see
from changelog_tool.findings import Finding
from changelog_tool.ledger.document import BOM, Entry, Ledger, first_line_difference
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.ledger.pairing import (
    EDITED,
    PR_LINK_LINE,
    RELINKED,
    Pairing,
    pair,
    preamble,
    relinked,
)
from changelog_tool.ledger.revision import (
    ABSENT,
    APPEND,
    CORRECTION,
    MODIFIED,
    NEW,
    OFFSET,
    UNCHANGED,
    History,
    check_entry,
    check_tail,
    form_warning,
)
from changelog_tool.yaml.items import Item

_MAX_HISTORY_FINDINGS = 10
NUL_REFUSED = "unacceptable character #x0000"
"""How the YAML reader refuses a NUL byte: it only restates the ``encoding`` finding."""


def compare(
    base: bytes | None, head: bytes | None, path: str, restore_from: str | None = None
) -> History:
    """Classify the change and check every byte the branch added; ``restore_from`` names the base
    commit in the advice to restore a deleted file."""
    if head is None:
        if base is None:
            return History(ABSENT)
        message = (
            f"{path} was deleted at head; the file is append-only: restore it (`git checkout "
            f"{restore_from or '<base commit>'} -- {path}`) and append new entries to it"
        )
        return History(MODIFIED, findings=[Finding("history-modified", message, path, None)])
    if not base:
        return _new_file(head, path)
    raw = head
    head, conversions = undo_conversions(base, head, path)
    if head == base:
        return History(UNCHANGED, findings=conversions)  # nothing appended: no prefix needed
    if head.startswith(base):
        history = History(APPEND, prefix=base)
    else:
        corrected = pr_link_corrections(base, head)
        if corrected is not None:
            kept = head[: corrected[0]]
            history = History(CORRECTION, prefix=kept, corrections=corrected[1])
        else:
            history = _modified(base, head, path, restore_from or "<base commit>")
    check_tail(head[len(history.prefix) :], history, path)
    if history.kind == CORRECTION and history.appended:
        history.findings.insert(0, _mixed(history, path, history.appended[0].line))
    history.findings[:0] = conversions
    if raw is not head:
        offsets_in(raw, history.findings)
    return history


def undo_conversions(base: bytes, head: bytes, path: str) -> tuple[bytes, list[Finding]]:
    """Head without a BOM or CRLF line endings the base lacks, and one ``encoding`` finding each."""
    found: list[tuple[str, int, str]] = []
    if head.startswith(BOM) and not base.startswith(BOM):
        head = head[len(BOM) :]
        fix = f"remove its first 3 bytes (`sed -i '1s/^\\xEF\\xBB\\xBF//' {path}`)"
        found.append(("the file now starts with a UTF-8 byte-order mark (BOM)", 1, fix))
    crlf = head.find(b"\r\n")
    if crlf >= 0 and b"\r" not in base:
        line, count = head.count(b"\n", 0, crlf) + 1, head.count(b"\r\n")
        head = head.replace(b"\r\n", b"\n")
        what = f"CRLF line endings: {count} line(s) end in CR LF (the first is line {line})"
        fix = (
            f"convert them back to LF (`sed -i 's/\\r$//' {path}`); "
            "an editor or git's core.autocrlf made them"
        )
        found.append((what, line, fix))
    same = "; the file is otherwise unchanged" if found and head == base else ""
    return head, [
        Finding("encoding", f"{what}{same}; {fix}", path, line) for what, line, fix in found
    ]


def offsets_in(raw: bytes, findings: list[Finding]) -> None:
    """Byte offsets in messages counted in the file as it is (before undoing a BOM or CRLF)."""
    for index, finding in enumerate(findings):
        if finding.code != "encoding" or finding.line is None or not OFFSET.search(finding.message):
            continue
        start = Ledger(raw).line_start(finding.line)
        try:
            raw[start:].decode("utf-8")
        except UnicodeDecodeError as exc:
            findings[index] = dataclasses.replace(
                finding, message=OFFSET.sub(f"at offset {start + exc.start}", finding.message)
            )


def _new_file(head: bytes, path: str) -> History:
    """A changelog the branch creates: every entry is appended (the gate judges their fields)."""
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
    blocks = Ledger(head).blocks
    items = report.items if report.parsed else [block.item for block in blocks]
    for index, item in enumerate(items):  # each item at its line, in its entry's bytes
        if isinstance(item, Item) and isinstance(item.value, dict):
            entry = blocks[index] if index < len(blocks) else Entry(head, index, 0, 0, 0, 0)
            entry = dataclasses.replace(entry, line=item.line)
            entry.item = item
            history.appended.append(entry)
    return history


def pr_link_corrections(base: bytes, head: bytes) -> tuple[int, list[tuple[int, str]]] | None:
    """When head only changes old entries' pr-links: (length of the corrected base inside head,
    each correction's ``pr-link:`` line and new link); else ``None``."""
    old, new = base.split(b"\n"), head.split(b"\n")
    if len(new) < len(old):
        return None
    changed: list[int] = []
    for number, (a, b) in enumerate(zip(old[:-1], new, strict=False), 1):
        if a != b:
            if not (PR_LINK_LINE.match(a) and PR_LINK_LINE.match(b)):
                return None
            changed.append(number)
    last_old, last_new = old[-1], new[len(old) - 1]
    before = sum(len(line) + 1 for line in new[: len(old) - 1])
    if last_new.startswith(last_old):
        length = before + len(last_old)
    elif PR_LINK_LINE.match(last_old) and PR_LINK_LINE.match(last_new):
        changed.append(len(old))
        length = before + len(last_new)
    else:
        return None
    links = _relinks(Ledger(base), Ledger(head[:length]), changed)
    return (length, links) if changed and links is not None else None


def _relinks(old: Ledger, new: Ledger, lines: list[int]) -> list[tuple[int, str]] | None:
    """``(line, new link)`` of each changed line's entry if each is its entry relinked, else None."""
    out: list[tuple[int, str]] = []
    starts = [b.line for b in old.blocks]
    for number in lines:
        index = bisect.bisect_right(starts, number)  # the entry that holds the line, + 1
        if index == 0 or index > len(new.blocks):
            return None
        before, after = old.blocks[index - 1].value, new.blocks[index - 1].value
        if not relinked(before, after) or not isinstance(after, dict):
            return None
        link = after["pr-link"]
        if not isinstance(link, str):
            return None
        out.append((number, link))
    return out


def _modified(base: bytes, head: bytes, path: str, source: str) -> History:
    """History changed: edits and removals are errors, relinks corrections, whitespace and order
    form warnings; own entries before the last base entry are checked one by one."""
    old, new = Ledger(base), Ledger(head)
    pairing = pair(old, new)
    tail = pairing.tail_start
    prefix_end = new.blocks[tail - 1].sep_end if tail > 0 else new.preamble_end
    history = History(MODIFIED, prefix=head[:prefix_end], base=base)
    errors: list[Finding] = []
    if preamble(old) != preamble(new):
        errors.append(_edited("changed the lines before the first entry", source, path, 1))
    for p in pairing.pairs:
        block = new.blocks[p.head]
        if p.how == RELINKED:
            history.corrections.extend(_links(block))
        elif p.how == EDITED:
            before = old.blocks[p.base]
            at = block.line + first_line_difference(before.text, block.text)
            errors.append(_edited(f"changed {before.name('the base')}", source, path, at))
    for index in pairing.removed:
        # placed where it was: at the base entry that followed it, or the end
        after = min((p.head for p in pairing.pairs if p.base > index), default=None)
        at = new.blocks[after].line if after is not None else new.line_of(len(head.rstrip()))
        errors.append(_edited(f"removed {old.blocks[index].name('the base')}", source, path, at))
    history.findings.extend(errors[:_MAX_HISTORY_FINDINGS])
    if len(errors) > _MAX_HISTORY_FINDINGS:
        more = f"... and {len(errors) - _MAX_HISTORY_FINDINGS} more edited or removed entries"
        history.findings.append(Finding("history-modified", more, path, errors[0].line))
    history.findings.extend(_form(pairing, path))
    # corrections mixed with any change but relinked entries and blank lines
    if history.corrections and (
        pairing.own
        or pairing.removed
        or any(p.how != RELINKED and not pairing.exact(p) for p in pairing.pairs)
    ):
        history.findings.insert(
            0, _mixed(history, path, new.blocks[pairing.own[0]].line if pairing.own else 1)
        )
    for index in pairing.own:
        if index < tail:
            block = new.blocks[index]
            check_entry(block, history, path)
            mid_file = (
                "this branch's entry stands before entries the base already holds (a "
                "merge of the base left it mid-file); it is read wherever it stands, "
                "but the file is append-only"
            )
            history.findings.append(form_warning("entry-order", mid_file, path, block.line))
    return history  # the entries after the last base entry: compare's check_tail


def _mixed(history: History, path: str, line: int) -> Finding:
    message = (
        f"this change corrects {len(history.corrections)} pr-link(s) of old entries and "
        "also changes or appends others; do the two in separate pull requests"
    )
    return Finding("mixed-correction", message, path, line)


def _edited(what: str, source: str, path: str, line: int) -> Finding:
    """An edit of the base's entries, undone by the base's file and this branch's entries again."""
    message = (
        f"this branch {what}; the file is append-only, only a pr-link may be corrected "
        f"(restore it with `git checkout {source} -- {path}`, then add this branch's "
        f"entries again with `changelog add`; {see('Entries lost after -X theirs')})"
    )
    return Finding("history-modified", message, path, line)


def _links(block: Entry) -> list[tuple[int, str]]:
    """A relinked entry's least indented ``pr-link:`` line and its new link."""
    link = block.value.get("pr-link") if isinstance(block.value, dict) else None
    lines = enumerate(block.text.split(b"\n"))
    found = [
        (len(line) - len(line.lstrip(b" ")), n) for n, line in lines if PR_LINK_LINE.match(line)
    ]
    return [(block.line + min(found, default=(0, 0))[1], str(link))]


def _form(pairing: Pairing, path: str) -> list[Finding]:
    """Whitespace, blank-line and order differences: one warning per kind, at its first place."""
    old, new = pairing.old, pairing.new
    out: list[Finding] = []
    if old.data[: old.preamble_end] != new.data[: new.preamble_end] and (
        preamble(old) == preamble(new)
    ):
        out.append(_whitespace("the lines before the first entry", 1, path))
    for p in pairing.pairs:  # the first kept entry whose whitespace changed
        if p.how not in (RELINKED, EDITED) and not pairing.exact(p):
            where = f"entry {p.base + 1} of the base"
            out.append(_whitespace(where, new.blocks[p.head].line, path))
            break
    last = len(old.blocks) - 1
    for p in pairing.pairs:
        if p.base == last or p.head == len(new.blocks) - 1 or p.how == EDITED:
            continue
        a, b = old.blocks[p.base], new.blocks[p.head]
        if old.data[a.end : a.sep_end] != new.data[b.end : b.sep_end]:
            what = f"the blank line(s) after entry {p.base + 1} of the base changed"
            out.append(form_warning("separator", what, path, new.line_of(b.end)))
            break
    heads = [p.head for p in sorted(pairing.pairs, key=lambda p: p.base)]
    if any(a > b for a, b in itertools.pairwise(heads)):
        moved = (
            "entries the base holds stand in another order (a reader of the added lines "
            "takes the moved ones as new)"
        )
        first = new.blocks[pairing.pairs[0].head].line
        out.append(form_warning("entry-order", moved, path, first))
    return out


def _whitespace(what: str, line: int, path: str) -> Finding:
    message = f"whitespace-only changes to {what} (the same entries, other spaces or blank lines)"
    return form_warning("whitespace", message, path, line)
