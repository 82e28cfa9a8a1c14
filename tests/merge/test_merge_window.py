"""The merge done on the windows after the shared history is the merge of the whole
files: same bytes, same report at the same lines, same words, or it is not taken
(generated histories, as in test_merge_properties). And the protected ref's hint
found from the windows is the one the whole files give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from merge_helpers import appended, changelog, entry
from test_merge_properties import History, histories

from changelog_tool.findings import format_text
from changelog_tool.ledger.document import Ledger
from changelog_tool.merge.outcome import merge_sides
from changelog_tool.merge.protected import Decision, by_beginning, by_upstream
from changelog_tool.merge.threeway import Merged, Side
from changelog_tool.merge.window import UNKNOWN, Windows, merge_after, upstream_hint


def windows_of(base: bytes, ours: bytes, theirs: bytes) -> Windows | None:
    """The windows, when the three files share the base's bytes before its last entry."""
    last = Ledger(base).last_block()
    if last is None:
        return None
    cut = last.start
    if ours[:cut] != base[:cut] or theirs[:cut] != base[:cut]:
        return None
    return Windows(base[cut:], ours[cut:], theirs[cut:], cut, base.count(b"\n", 0, cut))


def sides_of(h: History, protected: Side) -> tuple[bytes, bytes]:
    return (h.protected, h.other) if protected == "ours" else (h.other, h.protected)


@settings(max_examples=300, deadline=None)
@given(histories(), st.sampled_from(["ours", "theirs"]), st.booleans())
def test_the_windows_merge_is_the_whole_files_merge_or_is_not_taken(
    h: History, protected: Side, certain: bool
) -> None:
    ours, theirs = sides_of(h, protected)
    windows = windows_of(h.base, ours, theirs)
    if windows is None:
        return
    decision = Decision(protected, "generated", certain)
    outcome = merge_after("p", windows, decision)
    whole = merge_sides("p", h.base, ours, theirs, upstream=None, decision=decision)
    if outcome is None:
        return
    assert isinstance(outcome.result, Merged) and isinstance(whole.result, Merged)
    assert h.base[: windows.cut] + outcome.result.data == whole.result.data
    assert outcome.result.report == whole.result.report
    assert outcome.summary() == whole.summary()
    assert format_text(outcome.findings()) == format_text(whole.findings())


@settings(max_examples=100, deadline=None)
@given(histories())
def test_a_pure_append_on_both_sides_is_taken_from_the_windows(h: History) -> None:
    """The generated other side only appends; with a protected side that only
    appends too, the windows' merge is taken whenever the whole merge succeeds."""
    protected = appended(h.base, *(item.bytes() for item in h.protected_items[-2:]))
    windows = windows_of(h.base, protected, h.other)
    if windows is None:
        return
    decision = Decision("ours", "generated")
    whole = merge_sides("p", h.base, protected, h.other, upstream=None, decision=decision)
    outcome = merge_after("p", windows, decision)
    assert (outcome is not None) == isinstance(whole.result, Merged)


@settings(max_examples=200, deadline=None)
@given(histories(), st.sampled_from(["ours", "theirs"]), st.data())
def test_the_protected_refs_hint_from_the_windows_is_the_whole_files_hint(
    h: History, protected: Side, data: st.DataObject
) -> None:
    ours, theirs = sides_of(h, protected)
    windows = windows_of(h.base, ours, theirs)
    if windows is None:
        return
    candidates = [ours, theirs, h.base, h.base[: windows.cut], ours[: len(ours) // 2]]
    upstream = data.draw(st.sampled_from(candidates))
    holds: dict[Side, bool] = {
        "ours": ours.startswith(upstream),
        "theirs": theirs.startswith(upstream),
    }
    found = upstream_hint(windows, len(upstream), holds, "main")
    if found == UNKNOWN:
        assert not any(holds.values())
        return
    assert found == by_upstream(ours, theirs, upstream, "main")


@settings(max_examples=200, deadline=None)
@given(histories(), st.sampled_from(["ours", "theirs"]), st.data())
def test_which_side_begins_with_the_ref_is_one_rule_on_windows_and_whole_files(
    h: History, protected: Side, data: st.DataObject
) -> None:
    """by_beginning answers on the windows what it answers on the whole files (the
    reason's byte count included), unless the ref's window holds no entry: then it
    says it cannot tell, and the driver reads the whole files."""
    ours, theirs = sides_of(h, protected)
    windows = windows_of(h.base, ours, theirs)
    if windows is None:
        return
    cut = windows.cut
    source = data.draw(st.sampled_from([ours, theirs, h.base]))
    upstream = source[: data.draw(st.integers(cut, len(source)))]
    in_windows = by_beginning(windows.ours, windows.theirs, upstream[cut:], "main", cut)
    whole = by_beginning(ours, theirs, upstream, "main")
    if in_windows == "neither":
        assert Ledger(upstream[cut:]).last_block() is None
    else:
        assert in_windows == whole


def test_the_side_that_begins_with_the_ref_alone_is_named() -> None:
    base = changelog(entry("a"), entry("b"))
    main, own = appended(base, entry("m", link=1)), appended(base, entry("own"))
    assert by_beginning(main, own, main, "main") == Decision(
        "ours", f"ours begins with main's file (every entry: its first {len(main):,} bytes)"
    )
    assert by_beginning(own, main + b"\n", main, "main", 7) == Decision(
        "theirs", f"theirs begins with main's file (every entry: its first {len(main) + 7:,} bytes)"
    )
    assert by_beginning(main, main, main, "main") == "both"
    assert by_beginning(own, own, main, "main") == "neither"
    assert by_beginning(main, own, b"# no entry yet\n", "main") == "neither"


def test_a_long_shared_history_moves_every_line_of_the_report() -> None:
    history = [entry(f"key-{n}", link=n) for n in range(50)]
    base = changelog(*history)
    main_new, own = entry("main-new", link=900), entry("own")
    ours, theirs = appended(base, main_new), appended(base, own, main_new)
    windows = windows_of(base, ours, theirs)
    assert windows is not None and windows.lines == 49 * 6
    decision = Decision("ours", "rebase")
    outcome = merge_after("p", windows, decision)
    whole = merge_sides("p", base, ours, theirs, upstream=None, decision=decision)
    assert outcome is not None and isinstance(outcome.result, Merged)
    assert outcome.result.report == whole.result.report  # type: ignore[union-attr]
    assert [n.line for n in outcome.result.report.kept] == [50 * 6 + 7]
    assert [n.other_line for n in outcome.result.report.duplicates] == [50 * 6 + 1]
