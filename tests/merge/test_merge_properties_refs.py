"""Property tests of the trust boundary: the merge as the driver runs it (the side
decided, then merged), with the protected ref absent, fresh or stale (behind main,
holding an entry main has since removed, or a fork's own diverged main).

Generated: a published history (real pr-links, and main's own placeholder entries:
real main held one in about half of its states), a base (the branch's fork
point, sometimes with the branch's own entries already there: a rebase replaying
a later commit), a main that removed, corrected and appended entries since, and a
branch side that appended entries and often changed, dropped or inserted entries
(its own entries interleaved with main's), main's newest ones included. Git's
record is given as the driver reads it: a rebase's onto file, or no replay running.
For every case the merge is refused, or its result begins with the protected
side's bytes (only the replayed entries after the onto file's excepted), and no
entry of either side is lost without being reported.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass

from hypothesis import event, given, settings
from hypothesis import strategies as st
from merge_helpers import differs_only_in_carried_pr_links
from test_merge_properties import SEPARATORS, Item, items, items_with, published, render

from changelog_tool.ledger.document import Ledger, parse
from changelog_tool.ledger.entry import without_pr_link
from changelog_tool.merge.outcome import Outcome, merge_sides
from changelog_tool.merge.protected import Context
from changelog_tool.merge.replay import Mainline, Upstream
from changelog_tool.merge.threeway import Merged

EXAMPLES = int(os.environ.get("MERGE_PROPERTY_EXAMPLES", "300"))
ACTIONS = ["rebase (pick)", "merge main", None]


@dataclass(frozen=True)
class Case:
    base: bytes
    main: bytes  # the protected side, in truth
    branch: bytes
    ref: bytes | None
    ref_kind: str
    action: str | None
    main_is_ours: bool  # where main sits (the action says so, when there is one)
    onto: bytes  # main's file before a rebase replayed the branch's entries on it
    edits: tuple[str, ...] = ()  # what the branch did to the base's entries

    def mainline(self) -> Mainline:
        """Git's record, as the driver reads it: a rebase's onto commit; else no
        replay is running."""
        if self.action is not None and self.action.startswith("rebase"):
            return Mainline(self.onto, "the onto commit's file")
        return Mainline(replaying=False)

    @property
    def sides(self) -> tuple[bytes, bytes]:
        return (self.main, self.branch) if self.main_is_ours else (self.branch, self.main)


def own_item(n: int, link: str | int) -> Item:
    return Item(f"own-key-{n}", "Own change", link, 4)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    mains = st.one_of(published, published, items_with(["XXX"]))  # main's own, placeholders too
    history = draw(st.lists(st.tuples(mains, st.sampled_from(SEPARATORS)), max_size=6))
    replayed = [
        (own_item(n, draw(st.sampled_from(["XXX", "XXX", 5000 + n]))), b"\n")
        for n in range(draw(st.sampled_from([0, 0, 1, 2])))
    ]
    base_entries = history + replayed
    # main since the fork: removals (reverts), pr-link corrections, appends
    main_entries = []
    for item, separator in history:
        fate = draw(st.sampled_from(["keep"] * 4 + ["drop", "relink"]))
        if fate != "drop":
            link = 999 if fate == "relink" else item.link
            main_entries.append((Item(item.key, item.description, link, item.indent), separator))
    appended = draw(st.lists(st.tuples(mains, st.sampled_from(SEPARATORS)), max_size=3))
    onto = render(main_entries + appended, b"")
    main_entries += appended + replayed  # a rebase has replayed the branch's entries
    # the branch: edits anywhere (main's newest included), then appends
    branch_entries = list(base_entries)
    edits = []
    for _ in range(draw(st.sampled_from([0, 1, 1, 2]))):
        if not branch_entries:
            break
        at = draw(st.integers(0, len(branch_entries) - 1))
        item, separator = branch_entries[at]
        edit = draw(st.sampled_from(["drop", "reword", "fill-link", "relink", "insert"]))
        whose = (
            "main's newest" if at == len(history) - 1 else "own" if at >= len(history) else "old"
        )
        edits.append(f"{edit} {whose}" + ("" if appended else ", main appended nothing"))
        if edit == "drop":
            del branch_entries[at]
            continue
        if edit == "insert":
            branch_entries.insert(at, (draw(items), b"\n"))
            continue
        description = item.description + " (edited)" if edit == "reword" else item.description
        link = 7000 + at if edit == "fill-link" else 4242 if edit == "relink" else item.link
        branch_entries[at] = (Item(item.key, description, link, item.indent), separator)
    pool = [i for i, _ in appended] or [own_item(9, "XXX")]
    own = draw(st.lists(st.one_of(items, st.sampled_from(pool)), max_size=3))
    branch_entries += [(i, b"\n") for i in own]
    base = render(base_entries, b"")
    main = render(main_entries, draw(st.sampled_from([b"", b"", b"\n"])))
    branch = render(branch_entries, b"")
    ref_kind = draw(st.sampled_from(["absent", "fresh", "stale", "behind", "diverged"]))
    stale = {
        "fresh": main,
        "stale": render(history, b""),  # the fork point: may hold what main removed
        "behind": render(history[: draw(st.integers(0, len(history)))], b""),
        "diverged": render([*history, (own_item(8, 8008), b"\n")], b""),
    }
    action = draw(st.sampled_from(ACTIONS))
    main_is_ours = action == "rebase (pick)" if action else draw(st.booleans())
    ref = stale.get(ref_kind)
    return Case(base, main, branch, ref, ref_kind, action, main_is_ours, onto, tuple(edits))


def entries(data: bytes) -> list[bytes]:
    ledger = Ledger(data)
    return [b.raw for b in ledger.blocks]


def key(raw: bytes) -> str:
    value = parse(raw, 1)
    return repr(without_pr_link(value)) if isinstance(value, dict) else repr(raw)


def value(raw: bytes) -> str:
    """An entry's value, pr-link included: its whitespace is form."""
    return repr(parse(raw, 1))


def own(other: bytes, base: bytes) -> Counter[bytes]:
    """The other side's own entries: those the base lacks, but for the base's entries
    it only reformatted (the same value, other whitespace: form, not an entry)."""
    restyled = Counter(map(value, (Counter(entries(base)) - Counter(entries(other))).elements()))
    out: Counter[bytes] = Counter()
    for raw in (Counter(entries(other)) - Counter(entries(base))).elements():
        if restyled[value(raw)] > 0:
            restyled[value(raw)] -= 1
        else:
            out[raw] += 1
    return out


def check(case: Case, outcome: Outcome) -> None:
    """The trust boundary, whatever the ref held."""
    decision = outcome.decision
    if case.action is not None:  # the operation decides; the ref never overrides it
        assert decision.certain
        assert decision.side == ("ours" if case.main_is_ours else "theirs"), decision
    if not isinstance(outcome.result, Merged):
        event("refused")
        return
    event("merged")
    ours, theirs = case.sides
    prot, other = (ours, theirs) if decision.side == "ours" else (theirs, ours)
    report, data = outcome.result.report, outcome.result.data
    prot_entries, result_entries = entries(prot), entries(data)
    count = report.replayed
    head = len(prot_entries) - count
    if count:
        event("merged, replaying the branch's own entries")
        assert decision.certain
        run = prot_entries[head:]
        assert entries(case.base)[-count:] == run  # the base ends with them too
        assert head >= len(entries(case.onto))  # all after main's own entries
        ledger = Ledger(prot)
        cut = ledger.blocks[head - 1].end if head else ledger.preamble_end
        assert data.startswith(prot[:cut])
    elif report.corrected:  # the other side's canonical pr-link corrections, carried
        lines = [n.line for n in report.corrected]
        assert differs_only_in_carried_pr_links(prot, data, lines)
    else:
        assert data.startswith(prot)  # the protected side's bytes, exactly
    if not decision.certain:
        assert not report.removed  # nothing dropped on a guess
    # nothing lost silently: the protected side's entries are all there, but for
    # replayed ones the other side rewrote (reported) ...
    if report.corrected:  # equal but for the carried pr-links
        assert list(map(key, result_entries[:head])) == list(map(key, prot_entries[:head]))
    else:
        assert result_entries[:head] == prot_entries[:head]
    appended = Counter(result_entries[head:])
    gone = Counter(prot_entries[head:]) - appended
    assert sum(gone.values()) == len(report.rewritten)
    # ... and what the other side added is there, or is a reported duplicate of an
    # entry the protected side holds
    # (counted by bytes: a copy equal but for pr-link that the pairing took for an old
    # entry both sides changed alike is in the result already, wherever it stands)
    added = own(other, case.base) - Counter(result_entries)
    assert sum(added.values()) <= len(report.duplicates)
    assert all(key(raw) in {key(p) for p in prot_entries} for raw in added)
    # ... and the base's entries the other side kept are there (their pr-links maybe
    # corrected by the protected side), or the protected side removed them (reported)
    kept = Counter(entries(case.base)) & Counter(entries(other))
    missing = Counter(key(raw) for raw in kept.elements()) - Counter(map(key, result_entries))
    assert sum(missing.values()) <= len(report.removed) + len(report.rewritten)


@settings(max_examples=EXAMPLES, deadline=None)
@given(cases())
def test_a_merge_keeps_the_protected_bytes_and_every_entry_whatever_the_ref_holds(
    case: Case,
) -> None:
    event(f"ref {case.ref_kind}")
    event(f"action {case.action}")
    for edit in case.edits:
        event(f"branch: {edit}")
    ours, theirs = case.sides
    upstream = Upstream("origin/main", case.ref) if case.ref is not None else None
    outcome = merge_sides(
        "perf-changelog.yaml",
        case.base,
        ours,
        theirs,
        Context(upstream=upstream, action=case.action, mainline=case.mainline()),
    )
    check(case, outcome)
    if case.action is not None and isinstance(outcome.result, Merged):
        main, report = _without_replayed(case.main, outcome), outcome.result.report
        if report.corrected:  # an old entry's pr-link the branch corrected, carried over
            lines = [n.line for n in report.corrected]
            assert differs_only_in_carried_pr_links(main, outcome.result.data, lines)
        else:
            assert outcome.result.data.startswith(main)


def _without_replayed(main: bytes, outcome: Outcome) -> bytes:
    assert isinstance(outcome.result, Merged)
    count = outcome.result.report.replayed
    if not count:
        return main
    ledger = Ledger(main)
    head = len(ledger.blocks) - count
    return main[: ledger.blocks[head - 1].end if head else ledger.preamble_end]


@settings(max_examples=EXAMPLES, deadline=None)
@given(cases())
def test_main_s_newest_entries_survive_any_branch_edit_in_a_rebase(case: Case) -> None:
    """The fork scenario: whatever the ref, main's own entries (its placeholder ones
    included) are in the result, byte for byte, or the rebase stops."""
    rebase = Case(**{**case.__dict__, "action": "rebase (pick)", "main_is_ours": True})
    upstream = Upstream("origin/main", rebase.ref) if rebase.ref is not None else None
    outcome = merge_sides(
        "perf-changelog.yaml",
        rebase.base,
        rebase.main,
        rebase.branch,
        Context(upstream=upstream, action=rebase.action, mainline=rebase.mainline()),
    )
    for edit in case.edits:
        event(f"branch: {edit}")
    check(rebase, outcome)
    if isinstance(outcome.result, Merged):
        published_main = entries(rebase.onto)  # main's own, placeholder ones included
        result = Counter(entries(outcome.result.data))
        if outcome.result.report.corrected:
            # a pr-link the branch corrected on an old entry (unchanged on main since
            # the base): the entry is there, but for that one line
            published_main = [key(raw) for raw in published_main]
            result = Counter(key(raw) for raw in entries(outcome.result.data))
        assert not Counter(published_main) - result
