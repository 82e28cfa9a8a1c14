"""Naming what the other side of a merge did to history, entry by entry.

Used only when the other side is not "the base's bytes, then new entries":
the entries of both files are aligned (difflib) and each change is named with
the entry, its config-keys and its line, so a human can fix it.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.entry import same_entry
from changelog_tool.merge.side_changes import Problem, content, label, parse

MAX_LISTED = 5


def _extends(base: Ledger, other: Ledger) -> bool:
    """``other`` holds the base's entries byte for byte (separators between them
    included), possibly followed by more."""
    n = len(base.blocks)
    if len(other.blocks) < n:
        return False
    if n == 0:
        return other.data[: other.preamble_end].rstrip(b" \n") == base.data.rstrip(b" \n")
    last = base.blocks[-1]
    # the base's last entry must also start where it did: one more blank line
    # before it is a change to a historical separator, not an append
    return (
        other.blocks[n - 1].start == last.start
        and other.data[: last.start] == base.data[: last.start]
        and content(other, other.blocks[n - 1]) == content(base, last)
    )


def history_problems(base: Ledger, other: Ledger, side: str) -> list[Problem]:
    if _extends(base, other):
        return []
    return _describe_history_edits(base, other, side)


def _describe_history_edits(base: Ledger, other: Ledger, side: str) -> list[Problem]:
    """Name each historical entry the other side changed, removed or inserted."""
    old = [content(base, b) for b in base.blocks]
    new = [content(other, b) for b in other.blocks]
    problems: list[Problem] = []
    if base.data[: base.preamble_end].rstrip(b" \n") != other.data[
        : other.preamble_end
    ].rstrip(b" \n"):
        problems.append(
            Problem("history-modified", side, 1, f"{side} changed the lines before the first entry")
        )
    matcher = SequenceMatcher(None, old, new, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "insert" and i1 == len(old)):
            continue
        if tag == "insert":
            block = other.blocks[j1]
            value = parse(new[j1], block.line)
            problems.append(
                Problem("history-modified", side, block.line,
                        f"{side} inserted {label(value, new[j1])} at its line {block.line}, "
                        "before the base's last entry; entries may only be appended at the end")
            )
            continue
        for k in range(i1, i2):
            block = base.blocks[k]
            value = parse(old[k], block.line)
            name = f"entry {k + 1} ({label(value, old[k])}, line {block.line} of base)"
            partner = j1 + (k - i1)
            if tag == "replace" and partner < j2:
                changed = other.blocks[partner]
                new_value = parse(new[partner], changed.line)
                relinked = (isinstance(value, dict) and isinstance(new_value, dict)
                            and same_entry(value, new_value))
                what = "corrected the pr-link of" if relinked else "changed"
                problems.append(
                    Problem("history-modified", side, changed.line,
                            f"{side} {what} {name}, at its line {changed.line}; "
                            "only appending is allowed when merging")
                )
            else:
                problems.append(
                    Problem("history-modified", side, block.line,
                            f"{side} removed {name}; only appending is allowed when merging")
                )
    if not problems:
        problems.extend(_separator_edits(base, other, side))
    if len(problems) > MAX_LISTED:
        rest = len(problems) - MAX_LISTED
        problems = [*problems[:MAX_LISTED],
                    Problem("history-modified", side, None, f"... and {rest} more change(s)")]
    return problems


def _separator_edits(base: Ledger, other: Ledger, side: str) -> list[Problem]:
    for block in base.blocks[:-1]:
        theirs = other.blocks[block.index]
        if base.data[block.end : block.sep_end] != other.data[theirs.end : theirs.sep_end]:
            return [
                Problem("history-modified", side, other.line_of(theirs.end),
                        f"{side} changed the blank line(s) after entry {block.index + 1} "
                        f"(line {block.line} of base); historical separators must stay "
                        "byte-for-byte")
            ]
    return [Problem("history-modified", side, None, f"{side} changed historical bytes")]
