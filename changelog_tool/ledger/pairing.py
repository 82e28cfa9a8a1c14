"""Base and head entries paired by identity: the one comparison of two versions. See
docs/design.md, "One comparison"."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from changelog_tool.ledger.document import UNPARSED, Ledger
from changelog_tool.ledger.entry import entry_identity
from changelog_tool.yaml.values import same

PR_LINK_LINE = re.compile(rb"^ *pr-link:")

KEPT, RELINKED, REFORMATTED, EDITED = "kept", "relinked", "reformatted", "edited"


def _lines(text: bytes) -> list[bytes]:
    return [s for s in (line.rstrip(b" ") for line in text.split(b"\n")) if s]


def identity(text: bytes) -> bytes:
    """An entry's content: its lines without trailing spaces, blank lines dropped."""
    return b"\n".join(_lines(text))


def preamble(ledger: Ledger) -> bytes:
    """:func:`identity` of the lines before the first entry."""
    return identity(ledger.data[: ledger.preamble_end])


def unlinked(text: bytes) -> bytes:
    """:func:`identity` without the ``pr-link:`` line: the same entry, maybe relinked."""
    return b"\n".join(s for s in _lines(text) if not PR_LINK_LINE.match(s))


def relinked(old: object, new: object) -> bool:
    """``new`` is ``old`` with another pr-link and nothing else changed (parsed values decide)."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return False
    link = "pr-link"
    if old.keys() != new.keys() or link not in old or same(old[link], new[link]):
        return False
    return all(same(value, new[key]) for key, value in old.items() if key != link)


@dataclass(frozen=True)
class Pair:
    """A base entry and its head entry (``how``: kept, relinked, reformatted or edited)."""

    base: int
    head: int
    how: str


@dataclass
class Pairing:
    """How head entries relate to base entries (indexes into the ledgers' blocks)."""

    old: Ledger
    new: Ledger
    pairs: list[Pair] = field(default_factory=list)
    removed: list[int] = field(default_factory=list)
    own: list[int] = field(default_factory=list)

    @property
    def tail_start(self) -> int:
        """The first head index after the last base entry: where the tail of own entries begins."""
        return max((p.head for p in self.pairs), default=-1) + 1

    def exact(self, pair: Pair) -> bool:
        """The pair's entries are the same bytes (its last line's break aside)."""
        return self.old.blocks[pair.base].raw == self.new.blocks[pair.head].raw


def pair(old: Ledger, new: Ledger) -> Pairing:
    """Pair ``old``'s entries with ``new``'s by identity, then the same but for pr-link, the same
    value, the same config-keys."""
    out = Pairing(old, new)
    waiting: dict[bytes, list[int]] = defaultdict(list)
    for index, block in enumerate(old.blocks):
        waiting[identity(block.text)].append(index)
    for key in waiting:
        waiting[key].reverse()  # popped from the end: the first first
    unpaired: list[int] = []
    for index, block in enumerate(new.blocks):
        found = waiting.get(identity(block.text))
        if found:
            out.pairs.append(Pair(found.pop(), index, KEPT))
        else:
            unpaired.append(index)
    left = sorted(i for indexes in waiting.values() for i in indexes)
    if left and unpaired:
        left, unpaired = _pair_rest(out, left, unpaired)
    out.removed = left
    out.own = unpaired
    out.pairs.sort(key=lambda p: p.head)
    return out


def _pair_rest(out: Pairing, left: list[int], unpaired: list[int]) -> tuple[list[int], list[int]]:
    old, new = out.old, out.new
    history_end = max((p.head for p in out.pairs), default=-1)
    links: dict[bytes, list[int]] = defaultdict(list)
    for j in reversed(unpaired):  # popped from the end: the first first
        links[unlinked(new.blocks[j].text)].append(j)
    values = {j: new.blocks[j].value for j in unpaired}
    rest = []
    for i in left:
        candidates = links.get(unlinked(old.blocks[i].text)) or []
        while candidates and candidates[-1] not in values:  # taken by value already
            candidates.pop()
        found: int | None = candidates.pop() if candidates else None
        how = RELINKED
        if found is not None and not relinked(old.blocks[i].value, values[found]):
            candidates.append(found)  # (still free for the other base entries)
            found = None
        if found is None:
            found, how = _by_value(old.blocks[i].value, values, history_end)
        if found is None:
            rest.append(i)
            continue
        del values[found]
        out.pairs.append(Pair(i, found, how))
    return rest, [j for j in unpaired if j in values]


def _by_value(value: object, values: dict[int, object], history_end: int) -> tuple[int | None, str]:
    """The head entry that is ``value`` reformatted or edited (same pr-link, or same config-keys
    before ``history_end``)."""
    if not isinstance(value, dict):
        return None, EDITED
    link, keys = value.get("pr-link"), value.get("config-keys")
    twin = (entry_identity(value), link)  # the same value, its pr-link too
    for j, other in values.items():
        its_link = other.get("pr-link") if isinstance(other, dict) else None
        if other is not UNPARSED and (entry_identity(other), its_link) == twin:
            return j, REFORMATTED
    numbered = isinstance(link, str) and link[-1:].isdigit()  # a placeholder names no one
    for j, other in values.items():
        if not isinstance(other, dict):
            continue
        if numbered and other.get("pr-link") == link:
            return j, EDITED
        if keys is not None and j < history_end and other.get("config-keys") == keys:
            return j, EDITED
    return None, EDITED
