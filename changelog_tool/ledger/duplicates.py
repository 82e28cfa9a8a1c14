"""Is an appended entry a copy of an existing one? Found without parsing history.

Candidate blocks are found by a byte search (from the end) for the entry's
longest needle (a config key or description word); a block is read (by
:func:`~changelog_tool.ledger.edits.parse_entry`) only when it also holds every other key,
scenario type and description word (runs of characters YAML never escapes or
folds). The cost follows the number of look-alike entries, not the history's length.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from changelog_tool.ledger.edits import parse_entry
from changelog_tool.ledger.entry import same_entry
from changelog_tool.ledger.items import YamlProblem
from changelog_tool.ledger.revision import REGION, Kept

_WORD = re.compile(r"[A-Za-z0-9._/+=:-]+")


def _block_start(data: bytes, pos: int) -> int:
    while True:
        index = data.rfind(b"\n-", 0, pos)
        if index < 0:
            return 0
        if data[index + 2 : index + 3] in (b" ", b"\n", b""):
            return index + 1
        pos = index


def _block_end(data: bytes, pos: int) -> int:
    while True:
        index = data.find(b"\n-", pos)
        if index < 0:
            return len(data)
        if data[index + 2 : index + 3] in (b" ", b"\n", b""):
            return index + 1
        pos = index + 2


def needles(entry: Mapping[str, Any]) -> list[bytes]:
    """Byte strings every YAML spelling of an equal entry contains (first key first)."""
    keys = entry.get("config-keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
        return []
    found = [k.encode("utf-8") for k in keys]
    for name in ("scenario-type", "description"):
        values = entry.get(name)
        for text in values if isinstance(values, list) else ():
            if isinstance(text, str):
                found.extend(w.encode("utf-8") for w in _WORD.findall(text))
    unique = list(dict.fromkeys(found[1:]))
    return [found[0], *sorted(unique, key=len, reverse=True)]


def duplicate_at(data: bytes, entry: Mapping[str, Any]) -> int | None:
    """The offset of the last entry in ``data`` equal to ``entry`` but for pr-link."""
    wanted = needles(entry)
    if not wanted:
        return None
    # every needle is in every spelling of an equal entry: search by the longest
    # (the most telling), check the others in each block it is found in
    first = max(wanted, key=len)
    rest = [w for w in wanted if w is not first]
    find = data.find
    pos = len(data)
    while True:
        hit = data.rfind(first, 0, pos)
        if hit < 0:
            return None
        start = _block_start(data, hit)
        pos = start
        end = _block_end(data, hit + len(first))
        for word in rest:  # looked up in place: most look-alikes fail here
            if find(word, start, end) < 0:
                break
        else:
            if _equal(data[start:end], entry):
                return start
        if start == 0:
            return None


def _equal(block: bytes, entry: Mapping[str, Any]) -> bool:
    """The block (one entry and the blank lines after it) reads as ``entry`` but for
    pr-link; a look-alike in the emitter's layout is read without the YAML parser."""
    try:
        value = parse_entry(block.rstrip(b" \n"), 1)
    except YamlProblem:
        return False
    return isinstance(value, dict) and same_entry(value, entry)


def duplicate_in(kept: Kept, entry: Mapping[str, Any], region: int = REGION) -> int | None:
    """The 1-based line of the last kept entry equal to ``entry`` but for pr-link
    (:func:`duplicate_at`), or ``None``: searched ``region`` bytes at a time from the
    newest (a long history is searched without being held whole, and its lines are
    counted only back to a duplicate, when there is one)."""
    if not needles(entry):
        return None
    for data, start in kept.regions(region):
        found = duplicate_at(data, entry)
        if found is not None:
            return kept.line_at(start + found)
    return None
