"""Why a merge is refused (:class:`Problem`), how the refusals name the sides, and
one side's entry as the merge carries it (:class:`Entry`)."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from changelog_tool.ledger.edits import UNPARSED
from changelog_tool.ledger.entry import entry_identity

MAX_LISTED = 5


def possessive(name: str) -> str:
    """``ours'``, ``theirs'``, ``base's``: the possessive of a side's name."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


@dataclass(frozen=True)
class Problem:
    """Why a merge is refused. ``side`` names the input the ``line`` refers to."""

    code: str
    side: str
    line: int | None
    message: str


@dataclass(frozen=True)
class Entry:
    """One entry of one side: its first line, its own lines (without the final
    newline) and, when it parses, its value."""

    line: int
    raw: bytes
    value: object

    def key(self) -> Hashable:
        """Identity for duplicate detection: the entry without its pr-link, equal
        exactly when the gate's :func:`~changelog_tool.ledger.entry.same_entry` says
        so (Python's ``==``); an entry that does not parse, by its bytes."""
        if self.value is UNPARSED:
            return ("raw", self.raw)
        return entry_identity(self.value)
