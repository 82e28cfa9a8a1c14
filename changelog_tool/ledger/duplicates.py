"""Is an appended entry a copy of an existing one? Found without parsing history: a byte search
for the entry's rarest needle, then a parse only of blocks that hold every needle."""

from __future__ import annotations

import re
from collections.abc import Mapping

from changelog_tool.ledger.document import entry_after, entry_before, parse
from changelog_tool.ledger.entry import same_entry

_WORD = re.compile(r"[A-Za-z0-9._/+=:-]+")


def needles(entry: Mapping[str, object]) -> list[bytes]:
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


SAMPLE = 64 << 10
"""How much of the newest history tells which needle is rarest."""


def search_order(wanted: list[bytes], sample: bytes) -> list[bytes]:
    """The needles rarest first in ``sample`` (the newest history), longer first among equals."""
    unique = list(dict.fromkeys(wanted))  # a key may also be a description word
    return sorted(unique, key=lambda word: (sample.count(word), -len(word)))


def duplicate_in(kept: bytes, entry: Mapping[str, object]) -> int | None:
    """The 1-based line of the last entry in ``kept`` equal to ``entry`` but for pr-link, or
    ``None``."""
    wanted = search_order(needles(entry), kept[-SAMPLE:])
    if not wanted:
        return None
    # every needle is in every spelling of an equal entry: search by the rarest,
    # check the others in each block it is found in
    first, rest = wanted[0], wanted[1:]
    pos = len(kept)
    while True:
        hit = kept.rfind(first, 0, pos)
        if hit < 0:
            return None
        start = pos = entry_before(kept, hit)
        end = entry_after(kept, hit + len(first))
        # looked up in place: most look-alikes fail on a missing word
        if all(kept.find(word, start, end) >= 0 for word in rest) and _equal(
            kept[start:end], entry
        ):
            return kept.count(b"\n", 0, start) + 1
        if start <= 0:
            return None


def _equal(block: bytes, entry: Mapping[str, object]) -> bool:
    """The block reads as ``entry`` but for pr-link (the emitter's layout is read without the
    parser)."""
    value = parse(block.rstrip(b" \n"), 1)
    return isinstance(value, dict) and same_entry(value, entry)
