"""The conflict left for a human when a merge is refused, and whether it keeps the
protected side's bytes.

A refused merge leaves git's own textual merge (``git merge-file``) in the file.
Git applies every change of the other side that does not touch a change of the
protected side, so outside its markers it may already have rewritten or dropped
one of the protected side's entries: resolved towards the protected side, such a
file no longer begins with the protected bytes, and one ``git add`` would publish
the rewrite. That file is replaced by one conflict between the two sides, from
the first entry where they differ to the end: each side's bytes, intact, in its
own section.
"""

from __future__ import annotations

from typing import Literal

from changelog_tool.ledger.boundaries import begins_entry

Side = Literal["ours", "theirs"]
_NEXT = {b"|||||||": "base", b"=======": "theirs", b">>>>>>>": None}


def _marker(line: bytes) -> bytes | None:
    head = line[:7]
    if head == b"=======":
        return head if line.rstrip(b"\n") == head else None
    if head in (b"<<<<<<<", b"|||||||", b">>>>>>>") and line[7:8] in (b" ", b"\n", b""):
        return head
    return None


def resolved_to(text: bytes, side: Side) -> bytes:
    """``text`` with each of git's conflicts replaced by its ``side`` section."""
    out: list[bytes] = []
    section: str | None = None  # None: outside a conflict
    for line in text.splitlines(keepends=True):
        marker = _marker(line)
        if marker == b"<<<<<<<":
            section = "ours"
        elif marker is not None and section is not None:
            section = _NEXT[marker]
        elif section is None or section == side:
            out.append(line)
    return b"".join(out)


def keeps_protected(text: bytes, protected: bytes, side: Side) -> bool:
    """Resolved towards the protected ``side``, ``text`` begins with its bytes."""
    return resolved_to(text, side).startswith(protected)


def whole_conflict(ours: bytes, theirs: bytes) -> bytes:
    """One conflict in git's markers: the lines both sides begin with (cut back to
    the start of an entry), then ours and theirs from there to their ends."""
    a, b = ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    k = 0
    while k < min(len(a), len(b)) and a[k] == b[k]:
        k += 1
    while k > 0 and k < len(a) and not begins_entry(a[k], 0):
        k -= 1
    return (
        b"".join(a[:k])
        + b"<<<<<<< ours\n"
        + _lines(a[k:])
        + b"=======\n"
        + _lines(b[k:])
        + b">>>>>>> theirs\n"
    )


def _lines(lines: list[bytes]) -> bytes:
    text = b"".join(lines)
    return text if not text or text.endswith(b"\n") else text + b"\n"
