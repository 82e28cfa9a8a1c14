"""The conflict left when a merge is refused: git's own, unless its text merge rewrote the
protected side outside its markers; then one conflict holding both sides whole."""

from __future__ import annotations

from collections.abc import Sequence

from changelog_tool.ledger.document import Ledger, begins_entry
from changelog_tool.merge.replay import common_prefix
from changelog_tool.merge.threeway import Side

_SECTIONS = {b"<<<<<<<": "ours", b"|||||||": "base", b"=======": "theirs", b">>>>>>>": None}


def _is_marker(line: bytes) -> bool:
    head = line[:7]
    if head == b"=======":
        return line.rstrip(b"\n") == head
    return head in _SECTIONS and line[7:8] in (b" ", b"\n", b"")


def resolved_to(text: bytes, side: Side) -> bytes:
    """``text`` with each of git's conflicts replaced by its ``side`` section."""
    out: list[bytes] = []
    section: str | None = None  # None: outside a conflict
    for line in text.splitlines(keepends=True):
        if _is_marker(line) and (section is not None or line.startswith(b"<<<<<<<")):
            section = _SECTIONS[line[:7]]
        elif section is None or section == side:
            out.append(line)
    return b"".join(out)


def whole_conflict(ours: bytes, theirs: bytes) -> bytes:
    """One conflict in git's markers: the lines both sides begin with (cut back to the start
    of an entry), then ours and theirs from there to their ends."""
    a, b = ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    k = common_prefix(a, b)
    while k > 0 and k < len(a) and not begins_entry(a[k], 0):
        k -= 1
    ours_part, theirs_part = _lines(a[k:]), _lines(b[k:])
    return b"".join(
        [*a[:k], b"<<<<<<< ours\n", ours_part, b"=======\n", theirs_part, b">>>>>>> theirs\n"]
    )


def _lines(lines: list[bytes]) -> bytes:
    text = b"".join(lines)
    return text if not text or text.endswith(b"\n") else text + b"\n"


def unread_entries(text: bytes, sides: Sequence[bytes]) -> list[tuple[int, bytes]]:
    """The entries (and preamble) of the conflicted file ``text``, with their lines, that none
    of ``sides`` (the stages, git's text merges of them) holds: a merge of the stages would
    drop them. Each conflict is read both ways, so only what stands outside one counts."""
    known: set[bytes] = set()
    preambles: set[bytes] = set()
    for stage in sides:
        for view in _views(stage):
            known.update(block.raw for block in view.blocks)
            preambles.add(view.data[: view.preamble_end].strip())
    found: dict[bytes, int] = {}
    for view in _views(text):
        head = view.data[: view.preamble_end].strip()
        if head and head not in preambles:
            found.setdefault(head, _line_in(text, head, 1))
        for block in view.blocks:
            if block.raw not in known:
                found.setdefault(block.raw, _line_in(text, block.raw, block.line))
    return sorted((line, raw) for raw, line in found.items())


def _views(text: bytes) -> list[Ledger]:
    """``text`` with each conflict resolved to ours, and to theirs (one view without any)."""
    ours = resolved_to(text, "ours")
    if ours == text:
        return [Ledger(text)]
    return [Ledger(ours), Ledger(resolved_to(text, "theirs"))]


def _line_in(text: bytes, part: bytes, fallback: int) -> int:
    """The line ``part`` starts on in ``text`` (``fallback`` when markers split it)."""
    at = text.find(part)
    return fallback if at < 0 else text.count(b"\n", 0, at) + 1
