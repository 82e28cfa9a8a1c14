"""The branch's own entries a rebase replays, told from main's by git's record of the
operation, then the protected ref, then (as a guess) placeholder pr-links. See
docs/design.md, "Which side leads"."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from changelog_tool.findings import Finding
from changelog_tool.ledger.document import Entry, Ledger, label
from changelog_tool.settings import DEFAULT_PLACEHOLDERS, is_placeholder


@dataclass(frozen=True)
class Upstream:
    ref: str
    data: bytes

    @classmethod
    def of(cls, found: tuple[str, bytes] | None) -> Upstream | None:
        return cls(*found) if found is not None else None


@dataclass(frozen=True)
class Mainline:
    """What is known of which of the protected side's entries are main's: ``main``, the file
    git records as main's exact bytes (``source`` says which); else ``upstream``, a hint;
    ``replaying`` false when git records that no replay runs (all of it is main's)."""

    main: bytes | None = None
    source: str = ""
    upstream: Upstream | None = None
    replaying: bool = True


@dataclass(frozen=True)
class Split:
    """Both files cut before the replayed run (the base keeps the run's separator); the
    run's ``entries`` as the protected side holds them."""

    base: bytes
    protected: bytes
    entries: tuple[Entry, ...]
    why: str = ""  # what proved the run the branch's own


def possessive(name: str) -> str:
    """``ours'``, ``theirs'``, ``base's``."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


def common_prefix(a: list[bytes], b: list[bytes]) -> int:
    """How many items ``a`` and ``b`` begin with alike."""
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
    mainline: Mainline | Callable[[], Mainline] | None = None,
) -> Split | Finding | None:
    """The proven run; a :class:`Finding` saying why the run the other side rewrote is
    main's (by ``mainline``, else the guess); ``None`` when the other side did not
    rewrite the protected side's end."""
    prot_name, other_name = names
    base_l, prot_l, other_l = Ledger(base), Ledger(protected), Ledger(other)
    o = [b.raw for b in base_l.blocks]
    p = [b.raw for b in prot_l.blocks]
    first = common_prefix(o, [b.raw for b in other_l.blocks])
    count = len(o) - first
    shared = common_prefix(o, p)
    if count == 0 or first < shared or len(p) - count < shared or o[first:] != p[-count:]:
        return None
    known = mainline() if callable(mainline) else mainline or Mainline()
    run = prot_l.blocks[-count:]
    intro = (
        f"{other_name} changed or dropped entries that {prot_name} also ends with "
        f"(from line {run[0].line} of {prot_name})"
    )
    if not known.replaying or known.main is not None:
        why = (
            _beyond_main(known, protected, len(p) - count)
            if known.replaying
            else "no rebase or series of picks is running, so nothing on it is being replayed"
        )
        if why is not None:
            return Finding(
                "history-modified",
                f"{intro}; {label(run[0].value, run[0].raw)} at line {run[0].line} of "
                f"{prot_name} is main's own entry ({why}): it is kept as {prot_name} has it",
                prot_name,
                run[0].line,
            )
        reason = f"after main's entries in {known.source}"
    else:
        upstream = known.upstream
        held = entry_counts(upstream.data if upstream else b"")
        for block in run:
            value = block.value
            link = value.get("pr-link") if isinstance(value, dict) else None
            if upstream is not None and held[block.raw] > 0:
                because = f"{upstream.ref} holds it, so it is main's entry"
            elif not is_placeholder(link, placeholders):
                because = (
                    f"it has pr-link {link!r}, not a placeholder, so it may be the protected "
                    "branch's own published entry"
                )
            else:
                continue
            return Finding(
                "history-modified",
                f"{intro}; {label(value, block.raw)} at line {block.line} of {prot_name}: {because}; "
                f"it is kept as {prot_name} has it (git recorded no commit this operation "
                "builds on)",
                prot_name,
                block.line,
            )
        reason = "a guess, as git recorded no commit this operation builds on: placeholder pr-links"
        if upstream is not None:
            reason += f" that {upstream.ref} does not hold"
    before = prot_l.blocks[-count - 1].end if count < len(p) else prot_l.preamble_end
    return Split(base[: base_l.blocks[first].start], protected[:before], tuple(run), reason)


def _beyond_main(known: Mainline, protected: bytes, first: int) -> str | None:
    """Why the run (from the protected entry ``first``) is not all after main's entries."""
    assert known.main is not None
    main = Ledger(known.main)
    last = main.last_block()
    if last is None:
        return None
    if protected[: last.end] != known.main[: last.end]:
        return (
            f"the file does not begin with {possessive(known.source)} entries, so nothing is proven"
        )
    if first < len(main.blocks):
        return f"{known.source} holds it"
    return None


def entry_counts(data: bytes) -> Counter[bytes]:
    return Counter(b.raw for b in Ledger(data).blocks)
