"""The other side's pr-link corrections of old entries, carried onto the protected side's bytes
when they are its only history change and each is safe (:func:`carry`)."""

from __future__ import annotations

import re
from collections.abc import Callable

from changelog_tool.ledger.compare import pr_link_corrections
from changelog_tool.ledger.document import Ledger, parse
from changelog_tool.ledger.entry import pull_link_problem


def carry(
    base: bytes,
    protected: bytes,
    other: bytes,
    slug: str | Callable[[], str | None] | None = None,
) -> tuple[bytes, bytes, tuple[int, ...]] | None:
    """The other side's pr-link corrections of old entries carried onto the protected side:
    ``(corrected base, corrected protected side, lines corrected in it)`` when they are its
    only history change, each to a canonical link into ``slug`` (asked only here), in an entry
    each side holds exactly once, byte for byte; else ``None``."""
    found = pr_link_corrections(base, other)
    if found is None:
        return None
    length, corrected = found
    lines = other.split(b"\n")
    repository = slug() if callable(slug) else slug
    blocks = Ledger(base).blocks
    edits: list[tuple[int, int, bytes]] = []  # (start, end, new line) in the protected side
    for number, _ in corrected:
        new_line = lines[number - 1]
        block = next((b for b in reversed(blocks) if b.line <= number), None)
        if block is None:
            return None
        text = block.text
        if not _canonical(text, number - block.line, new_line, repository):
            return None
        at = _only_block_at(protected, text)
        if at is None or _only_block_at(base, text) is None:
            return None  # not exactly once on both sides: which copy is meant is a guess
        offset = sum(len(line) + 1 for line in text.split(b"\n")[: number - block.line])
        start = at + offset
        end = protected.find(b"\n", start)
        edits.append((start, len(protected) if end < 0 else end, new_line))
    result = protected
    for start, end, new_line in sorted(edits, reverse=True):
        result = result[:start] + new_line + result[end:]
    protected_lines = tuple(protected.count(b"\n", 0, start) + 1 for start, _, _ in edits)
    return other[:length], result, protected_lines


def _canonical(text: bytes, index: int, new_line: bytes, slug: str | None) -> bool:
    """The entry ``text`` with its line ``index`` (0-based) replaced by ``new_line``
    has a canonical pr-link, by the gate's rule."""
    entry_lines = text.split(b"\n")
    entry_lines[index] = new_line
    value = parse(b"\n".join(entry_lines).rstrip(b"\n"), 1)
    link = value.get("pr-link") if isinstance(value, dict) else None
    return isinstance(link, str) and pull_link_problem(link, slug) is None


def _only_block_at(data: bytes, text: bytes) -> int | None:
    """Where ``text`` starts a line of ``data``, when it does exactly once."""
    hits = [
        m.start()
        for m in re.finditer(re.escape(text), data)
        if m.start() == 0 or data[m.start() - 1 : m.start()] == b"\n"
    ]
    return hits[0] if len(hits) == 1 else None
