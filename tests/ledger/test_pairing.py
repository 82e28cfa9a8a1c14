"""The one comparison of two versions of the changelog: entries paired by identity."""

from __future__ import annotations

from merge_helpers import changelog, entry

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.pairing import KEPT, RELINKED, pair

DRAFT = entry("a-vllm", "Update image")  # pr-link XXX
LINKED = entry("a-vllm", "Update image", link=7)


def test_equal_entries_relinked_alike_are_each_paired_not_removed() -> None:
    """Two equal entries whose placeholder both became the same link: both relinked,
    none removed, none the branch's own."""
    base = changelog(entry("b-vllm", link=1), DRAFT, DRAFT)
    head = changelog(entry("b-vllm", link=1), LINKED, LINKED)
    found = pair(Ledger(base), Ledger(head))
    assert [(p.base, p.head, p.how) for p in found.pairs] == [
        (0, 0, KEPT),
        (1, 1, RELINKED),
        (2, 2, RELINKED),
    ]
    assert found.removed == [] and found.own == []


def test_trailing_spaces_and_blank_lines_keep_an_entry_and_an_own_one_anywhere_is_own() -> None:
    spaced = b"\n".join(line + b" " if line else line for line in DRAFT.split(b"\n"))
    base = changelog(entry("b-vllm", link=1), DRAFT)
    head = changelog(entry("b-vllm", link=1), entry("own"), b"\n" + spaced)
    found = pair(Ledger(base), Ledger(head))
    assert [(p.base, p.head, p.how) for p in found.pairs] == [(0, 0, KEPT), (1, 2, KEPT)]
    assert found.own == [1] and found.removed == []
