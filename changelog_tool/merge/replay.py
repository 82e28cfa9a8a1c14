"""When the protected side's own last entries may change: the branch's entries replayed.

The merge keeps the protected side's bytes as given. The one exception is a
rebase replaying a commit that edits (or drops) an entry an earlier commit of
the same branch appended, e.g. turning its ``XXX`` pr-link into the real link.
At that step the base (O) is the commit's parent, which ends with the entry, and
the protected side (the rebased HEAD) ends with the copy the rebase already
replayed. That copy may be rewritten only when it is *proven* the branch's own,
from the three inputs alone (a protected ref is never consulted: a fork's
``origin/main`` is often stale, and a stale ref can prove nothing). The run of
entries the other side rewrites is proven the branch's own when all of this holds:

1. the other side holds the base's entries unchanged up to some entry; the run
   is the base's entries from the first one it changes, drops or inserts
   before, to the base's end;
2. the run lies after the place where the protected side's history departs from
   the base (the entries both begin with): the protected side does not hold
   these entries where the base does;
3. the protected side ends with the run, entry for entry, byte for byte;
4. every entry of the run carries a placeholder pr-link (``XXX`` or
   ``.../pull/XXX``). The protected branch never publishes a placeholder (its
   gate refuses one), so such an entry at the protected side's end was put
   there by the operation itself, replaying this branch.

Anything else is refused, even a real replay: an entry with a real pr-link at
the end of both the base and the protected side cannot be told, from O, A and
B alone, from the protected branch's newest entry (the same bytes reach main
when the branch is squash-merged, or when main reverts an entry and lands it
again), so it stays as the protected side has it and a human decides.
"""

from __future__ import annotations

from collections.abc import Sequence

from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import content, label, parse
from changelog_tool.merge.edits import Problem
from changelog_tool.records import record
from changelog_tool.settings import is_placeholder

DEFAULT_PLACEHOLDERS = ("XXX",)


@record(frozen=True)
class Split:
    """Both files cut before the replayed run: the base up to the run's first entry
    (its separator kept), the protected side up to its last line before the run;
    the run's ``entries`` (their own lines) and their first ``lines`` in the
    protected side."""

    base: bytes
    protected: bytes
    entries: tuple[bytes, ...]
    lines: tuple[int, ...]

    @property
    def count(self) -> int:
        return len(self.entries)


def _common_prefix(a: list[bytes], b: list[bytes]) -> int:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def replayed_run(
    base: bytes,
    protected: bytes,
    other: bytes,
    names: tuple[str, str],
    placeholders: Sequence[str] = DEFAULT_PLACEHOLDERS,
) -> Split | Problem | None:
    """The proven run (a :class:`Split`); a :class:`Problem` saying why the run the
    other side rewrote is not proven the branch's own (conditions 1 to 3 hold, 4
    does not); ``None`` when the other side did not rewrite the protected side's end."""
    prot_name, other_name = names
    base_l, prot_l, other_l = Ledger(base), Ledger(protected), Ledger(other)
    o = [content(base_l, b) for b in base_l.blocks]
    p = [content(prot_l, b) for b in prot_l.blocks]
    first = _common_prefix(o, [content(other_l, b) for b in other_l.blocks])
    count = len(o) - first
    shared = _common_prefix(o, p)
    if count == 0 or first < shared or len(p) - count < shared or o[first:] != p[-count:]:
        return None
    run = prot_l.blocks[-count:]
    for block in run:
        value = parse(content(prot_l, block), block.line)
        link = value.get("pr-link") if isinstance(value, dict) else None
        if not is_placeholder(link, placeholders):
            return Problem(
                "history-modified",
                prot_name,
                block.line,
                f"{other_name} changed or dropped entries that {prot_name} also ends with "
                f"(from line {run[0].line} of {prot_name}); {label(value, content(prot_l, block))} "
                f"at line {block.line} of {prot_name} has pr-link {link!r}, not a placeholder, "
                f"so it may be the protected branch's own published entry: it is kept as "
                f"{prot_name} has it",
            )
    before = prot_l.blocks[-count - 1].end if count < len(p) else prot_l.preamble_end
    return Split(
        base[: base_l.blocks[first].start],
        protected[:before],
        tuple(o[first:]),
        tuple(block.line for block in run),
    )
