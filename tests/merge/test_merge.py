"""The pure three-way merge: protected bytes first, then the other side's own entries."""

from __future__ import annotations

from pathlib import Path

import pytest
from merge_helpers import appended, changelog, entry

from changelog_tool.findings import has_errors
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.merge.replay import Mainline, Upstream
from changelog_tool.merge.threeway import Merged, Refused, merge

A, B, C = entry("a-fp8-b200-vllm"), entry("b-fp4-mi355x-sglang"), entry("c-fp8-h200-trt")
M1, M2 = entry("main-one", link=101), entry("main-two", link=102)
P1, P2 = entry("pr-one", link=201), entry("pr-two")
BASE = changelog(A, B, C)


def merged(base: bytes, ours: bytes, theirs: bytes, protected: str = "ours") -> Merged:
    result = merge(base, ours, theirs, protected)  # type: ignore[arg-type]
    assert isinstance(result, Merged), result
    return result


def refused(base: bytes, ours: bytes, theirs: bytes, protected: str = "ours") -> Refused:
    result = merge(base, ours, theirs, protected)  # type: ignore[arg-type]
    assert isinstance(result, Refused), result
    return result


def test_the_result_is_the_protected_bytes_then_the_other_sides_new_entries() -> None:
    main = appended(BASE, M1, M2)
    result = merged(BASE, main, appended(BASE, P1, P2))
    assert result.data == appended(main, P1, P2)
    assert [n.line for n in result.report.kept] == [
        main.count(b"\n") + 2,
        main.count(b"\n") + 2 + P1.count(b"\n") + 1,
    ]
    assert not has_errors(check_file(result.data, "perf-changelog.yaml").findings)


def test_a_merge_gives_the_same_bytes_as_a_rebase() -> None:
    main, branch = appended(BASE, M1), appended(BASE, P1)
    rebase = merged(BASE, main, branch, "ours")
    merge_main = merged(BASE, branch, main, "theirs")
    assert rebase.data == merge_main.data == appended(main, P1)


def test_an_entry_both_sides_appended_is_kept_once_and_reported() -> None:
    main = appended(BASE, M1, P1)
    result = merged(BASE, main, appended(BASE, P1, P2))
    assert result.data == appended(main, P2)
    [duplicate] = result.report.duplicates
    assert duplicate.where == "theirs"
    assert duplicate.other_line == main.count(b"\n") - P1.count(b"\n") + 1


def test_an_entry_equal_but_for_its_pr_link_counts_as_the_same_entry() -> None:
    main = appended(BASE, entry("pr-one", link=555))
    result = merged(BASE, main, appended(BASE, entry("pr-one", link="XXX")))
    assert result.data == main
    assert len(result.report.duplicates) == 1


def test_an_entry_that_repeats_an_old_entry_is_kept_to_re_run_a_sweep() -> None:
    main = appended(BASE, M1)
    result = merged(BASE, main, appended(BASE, A))
    assert result.data == appended(main, A)
    assert not result.report.duplicates


def test_a_re_append_that_main_also_made_since_the_base_is_dropped_once() -> None:
    main = appended(BASE, A)
    result = merged(BASE, main, appended(BASE, A, A))
    assert result.data == appended(main, A)
    assert len(result.report.duplicates) == 1


def test_a_reverted_duplicate_stays_removed() -> None:
    base = changelog(A, B, C, B)
    main = changelog(A, B, C)
    result = merged(base, main, appended(base, P1))
    assert result.data == appended(main, P1)
    assert result.data.count(B) == 1
    [removed] = result.report.removed
    assert removed.where == "base" and removed.line == changelog(A, B, C).count(b"\n") + 2


def test_pr_link_corrections_on_the_protected_side_are_kept() -> None:
    base = changelog(A, entry("fixme", link="XXX"), C)
    main = changelog(A, entry("fixme", link=77), C)
    result = merged(base, main, appended(base, P1))
    assert result.data == appended(main, P1)
    assert not result.report.removed and not result.report.duplicates


def test_a_historical_line_of_two_spaces_is_kept_and_one_empty_line_added() -> None:
    main = appended(BASE, M1) + b"  \n"
    result = merged(BASE, main, appended(BASE, P1))
    assert result.data == main + b"\n" + P1


def test_a_protected_side_without_a_final_newline_gets_an_empty_line_before_the_entry() -> None:
    main = appended(BASE, M1).rstrip(b"\n")
    result = merged(BASE, main, appended(BASE, P1))
    assert result.data == main + b"\n\n" + P1


def test_a_base_without_a_final_newline_is_history_not_a_refusal() -> None:
    base = BASE.rstrip(b"\n")
    result = merged(base, appended(base, M1), appended(base, P1))
    assert result.data == appended(base, M1, P1)


def test_a_protected_side_ending_with_an_empty_line_is_followed_directly() -> None:
    main = appended(BASE, M1) + b"\n"
    result = merged(BASE, main, appended(BASE, P1))
    assert result.data == main + P1


def test_own_entries_are_separated_by_exactly_one_empty_line() -> None:
    branch = BASE + b"\n\n\n" + P1 + b"\n  \n\n" + P2
    result = merged(BASE, appended(BASE, M1), branch)
    assert result.data == appended(BASE, M1, P1, P2)


def test_when_the_other_side_adds_nothing_new_the_protected_side_is_unchanged() -> None:
    main = appended(BASE, M1) + b"\n"
    assert merged(BASE, main, appended(BASE, M1)).data == main


def test_the_other_side_editing_an_old_entry_is_refused_naming_entry_and_line() -> None:
    branch = appended(BASE.replace(b"Update b-fp4", b"Tweak b-fp4"), P1)
    [problem] = refused(BASE, appended(BASE, M1), branch).problems
    assert problem.code == "history-modified"
    assert problem.line == branch[: branch.index(b"Tweak b-fp4")].count(b"\n") + 1
    start = A.count(b"\n") + 2
    assert f"line {start} of the base" in problem.message
    assert "entry 2" in problem.message and "b-fp4-mi355x-sglang" in problem.message


def test_the_other_side_removing_an_old_entry_is_refused() -> None:
    [problem] = refused(BASE, appended(BASE, M1), appended(changelog(A, C), P1)).problems
    assert "removed entry 2" in problem.message


def test_an_entry_the_other_side_inserted_mid_history_is_re_appended_after_main() -> None:
    main = appended(BASE, M1)
    result = merged(BASE, main, changelog(A, P1, B, C))
    assert result.data == appended(main, P1)
    [note] = result.report.reappended
    assert note.line == result.report.kept[0].line and "pr-one" in note.label


def test_entries_left_between_mains_entries_by_a_hand_merge_keep_their_order() -> None:
    # the branch merged main (A, B, C) by hand before, leaving its own entries among them
    main = appended(BASE, M1, M2)
    branch = appended(changelog(A, P1, B, C), P2)
    result = merged(BASE, branch, main, "theirs")
    assert result.data == appended(main, P1, P2)
    assert [n.label for n in result.report.reappended] == ["config-keys pr-one"]


def test_an_old_entry_the_other_side_only_moved_is_neither_lost_nor_doubled() -> None:
    main = appended(BASE, M1)
    result = merged(BASE, main, appended(changelog(B, A, C), P1))
    assert result.data == appended(main, P1)


def test_the_other_side_removing_an_entry_the_protected_side_holds_is_refused() -> None:
    [problem] = refused(BASE, appended(BASE, M1), appended(changelog(A, C), P1)).problems
    assert problem.code == "history-modified"
    assert "removed entry 2 (config-keys b-fp4-mi355x-sglang" in problem.message


def test_an_entry_both_sides_removed_stays_removed() -> None:
    main = appended(changelog(A, C), M1)
    result = merged(BASE, main, appended(changelog(A, C), P1))
    assert result.data == appended(main, P1)


def test_an_entry_both_sides_changed_is_refused() -> None:
    main = appended(BASE.replace(b"Update b-fp4", b"Mend b-fp4"), M1)
    branch = appended(BASE.replace(b"Update b-fp4", b"Tweak b-fp4"), P1)
    [problem] = refused(BASE, main, branch).problems
    assert "changed or removed too" in problem.message


def test_a_non_canonical_pr_link_correction_is_refused_and_named_as_such() -> None:
    base = changelog(A, entry("fixme", link="XXX"))
    branch = changelog(A, entry("fixme", link="https://example.com/77"))  # not a PR link
    [problem] = refused(base, appended(base, M1), branch).problems
    assert "corrected the pr-link of entry 2" in problem.message


def test_a_blank_line_changed_in_history_is_not_an_edit() -> None:
    base = A + b"  \n" + B + b"\n" + C
    main = appended(base, M1)
    result = merged(base, main, appended(A + b"\n" + B + b"\n" + C, P1))
    assert result.data == appended(main, P1)
    assert not result.report.reappended


def test_an_extra_blank_line_before_the_bases_last_entry_is_not_an_edit() -> None:
    main = appended(BASE, M1)
    result = merged(BASE, main, appended(changelog(A, B) + b"\n\n" + C, P1))
    assert result.data == appended(main, P1)


def test_changing_the_lines_before_the_first_entry_is_refused() -> None:
    base = b"# perf changelog\n" + BASE
    branch = appended(b"# the perf changelog\n" + BASE, P1)
    problems = refused(base, appended(base, M1), branch).problems
    assert any("before the first entry" in p.message for p in problems)


@pytest.mark.parametrize("side", ["ours", "theirs"])
def test_a_side_with_crlf_line_endings_is_refused(side: str) -> None:
    main, branch = appended(BASE, M1), appended(BASE, P1)
    sides = {"ours": main, "theirs": branch}
    sides[side] = sides[side].replace(b"\n", b"\r\n")
    problems = refused(BASE, sides["ours"], sides["theirs"]).problems
    assert any(p.path == side and "carriage return" in p.message for p in problems)


def test_an_appended_entry_that_is_not_valid_yaml_is_refused() -> None:
    branch = appended(BASE, b'- config-keys: [unclosed\n  description:\n    - "x"\n')
    [problem] = refused(BASE, appended(BASE, M1), branch).problems
    assert problem.code == "yaml-syntax" and problem.path == "theirs"


def test_a_protected_side_that_is_not_valid_yaml_is_refused() -> None:
    main = appended(BASE, M1).replace(b"  description:\n", b"  description: [open\n", 1)
    [problem] = refused(BASE, main, appended(BASE, P1)).problems
    assert problem.code == "yaml-syntax" and problem.path == "ours"


def test_a_duplicate_key_in_the_protected_sides_last_entry_is_refused() -> None:
    main = appended(BASE, M1)
    last = main.rindex(b"  description:\n")
    main = main[:last] + b"  description:\n" + main[last:]
    [problem] = refused(BASE, main, appended(BASE, P1)).problems
    assert problem.code == "duplicate-yaml-key" and problem.path == "ours"


def test_a_duplicate_key_in_the_protected_sides_history_stays_its_own_bytes() -> None:
    main = appended(BASE, M1).replace(b"  description:\n", b"  description:\n  description:\n", 1)
    assert merged(BASE, main, appended(BASE, P1)).data == appended(main, P1)


def test_the_other_side_without_a_final_newline_is_merged_with_one() -> None:
    """A missing final newline is form, not an edit: the entry is appended whole and
    the result ends in one newline."""
    main = appended(BASE, M1)
    branch = appended(BASE, P1).rstrip(b"\n")
    assert merged(BASE, main, branch).data == appended(main, P1)


def test_an_empty_base_keeps_only_what_the_protected_side_lacks() -> None:
    main = changelog(A, M1)
    result = merged(b"", main, changelog(A, P1))
    assert result.data == appended(main, P1)
    assert len(result.report.duplicates) == 1


# --- a rebase replaying the branch's own entries ----------------------------------
# One step of `git rebase main` replaying a branch commit: the base is the commit's
# parent, ours is main plus what the rebase already replayed, theirs the commit.
OWN_DRAFT = entry("own", link="XXX")


def test_a_rebase_may_rewrite_the_branchs_own_placeholder_entry_being_replayed() -> None:
    main = appended(BASE, M1)
    head = appended(main, OWN_DRAFT)  # main + the replayed entry
    parent = appended(BASE, OWN_DRAFT)  # the commit's parent on the branch
    commit = appended(BASE, entry("own", link=300))  # the commit fills in the link
    result = merge(parent, head, commit, "ours")
    assert isinstance(result, Merged), result
    assert result.data == appended(main, entry("own", link=300))
    assert result.report.replayed == 1
    [note] = result.report.rewritten
    assert (note.where, note.line, note.label) == ("ours", main.count(b"\n") + 2, "config-keys own")


def test_with_the_onto_file_recorded_a_replayed_entry_with_a_real_link_may_be_rewritten() -> None:
    main = appended(BASE, M1)
    own = entry("own", link=2391)  # finalized before the rebase: a real link
    head, parent = appended(main, own), appended(BASE, own)
    commit = appended(BASE, entry("own", "Reworded", 2391))
    assert isinstance(merge(parent, head, commit, "ours"), Refused)  # no record: refused
    onto = Mainline(main, "the onto commit's file")
    result = merge(parent, head, commit, "ours", mainline=onto)
    assert isinstance(result, Merged), result
    assert result.data == appended(main, entry("own", "Reworded", 2391))
    assert result.report.replayed_why == "after main's entries in the onto commit's file"


def test_with_no_replay_running_mains_placeholder_entry_at_its_end_is_kept() -> None:
    fork = appended(BASE, M1, OWN_DRAFT)  # main published a placeholder entry
    main = appended(changelog(A, C), M1, OWN_DRAFT)  # then removed an old entry
    commit = appended(BASE, M1, entry("own", "Reworded"))
    assert isinstance(merge(fork, main, commit, "ours"), Merged)  # the old guess
    result = merge(fork, main, commit, "ours", mainline=Mainline(replaying=False))
    assert isinstance(result, Refused)
    assert "nothing on it is being replayed" in result.problems[-1].message


def test_without_a_record_the_ref_holding_an_entry_makes_it_mains_and_else_it_is_a_guess() -> None:
    main = appended(BASE, M1)
    head, parent = appended(main, OWN_DRAFT), appended(BASE, OWN_DRAFT)
    commit = appended(BASE, entry("own", link=300))
    held = Mainline(upstream=Upstream("origin/main", head))  # a ref that holds the entry
    refused_ = merge(parent, head, commit, "ours", mainline=held)
    assert isinstance(refused_, Refused)
    assert "origin/main holds it, so it is main's entry" in refused_.problems[-1].message
    stale = Mainline(upstream=Upstream("origin/main", BASE))
    guessed = merge(parent, head, commit, "ours", mainline=stale)
    assert isinstance(guessed, Merged), guessed
    assert guessed.report.replayed_why.startswith("a guess, as git recorded no commit")


def test_a_replayed_placeholder_entry_the_commit_drops_leaves_mains_bytes_exactly() -> None:
    main = appended(BASE, M1)
    parent, head = appended(BASE, OWN_DRAFT, P2), appended(main, OWN_DRAFT, P2)
    result = merge(parent, head, appended(BASE, P2), "ours")
    assert isinstance(result, Merged), result
    assert result.data == appended(main, P2)
    assert [n.label for n in result.report.rewritten] == ["config-keys own"]


def test_an_entry_with_a_real_pr_link_at_the_end_of_both_is_never_rewritten() -> None:
    # the bytes could be main's newest entry as well as the branch's replayed one
    own = entry("own", link=2391)
    head = appended(BASE, M1, own)
    commit = appended(BASE, entry("own", "Reworded", 2391))
    result = merge(appended(BASE, own), head, commit, "ours")
    assert isinstance(result, Refused)
    line = head.count(b"\n") - own.count(b"\n") + 1
    *_, why = result.problems
    assert why.code == "history-modified" and why.line == line and why.path == "ours"
    assert "not a placeholder" in why.message and "config-keys own" in why.message


def test_a_run_that_holds_a_real_pr_link_after_a_placeholder_is_refused() -> None:
    draft, filled = entry("own", link="XXX"), entry("own-two", link=2400)
    head = appended(BASE, M1, draft, filled)
    commit = appended(BASE, entry("own", link=2391), filled)
    assert isinstance(merge(appended(BASE, draft, filled), head, commit, "ours"), Refused)


def test_main_removing_a_duplicate_does_not_make_its_newest_entries_the_branchs() -> None:
    # the branch forked after main's newest entries, then reworded one; main then
    # removed an older duplicate: its newest entries now end both files
    fork = appended(BASE, M1, M2)
    main = appended(changelog(A, C), M1, M2)
    reworded = appended(BASE, M1, entry("main-two", "Reworded", 102))
    for commit in (reworded, appended(BASE, M1), appended(BASE, M1, entry("main-two"))):
        result = merge(fork, main, commit, "ours")
        assert isinstance(result, Refused), commit
        assert any("config-keys main-two" in p.message for p in result.problems)


def test_an_old_placeholder_entry_in_the_shared_history_is_never_taken_as_replayed() -> None:
    main = appended(BASE, M1, C)  # main re-appended C, the base's last entry (XXX link)
    commit = appended(BASE.replace(b"Update c-fp8", b"Edit c-fp8"), P1)
    assert isinstance(merge(BASE, main, commit, "ours"), Refused)


def test_the_merge_is_deterministic() -> None:
    args = (BASE, appended(BASE, M1, P1), appended(BASE, P1, P2))
    first = merged(*args)
    assert all(merged(*args) == first for _ in range(3))


LINKED = changelog(entry("a-fp8-b200-vllm", link=1), entry("b-fp4", link="XXXX"))
FIXED = LINKED.replace(b"pr-link: XXXX", b"pr-link: https://github.com/acme/bench/pull/7")


def test_a_canonical_pr_link_correction_is_carried_onto_the_protected_bytes() -> None:
    main = appended(LINKED, M1, M2)
    result = merged(LINKED, main, FIXED)
    assert result.data == main.replace(
        b"pr-link: XXXX", b"pr-link: https://github.com/acme/bench/pull/7"
    )
    assert [n.line for n in result.report.corrected] == [11]
    assert result.report.to_json()["pr_link_corrections"][0]["line"] == 11
    for protected in ("ours", "theirs"):  # a merge of main into the branch, too
        sides = (main, FIXED) if protected == "ours" else (FIXED, main)
        assert merged(LINKED, *sides, protected).data == result.data


def test_a_correction_is_refused_when_main_changed_that_entry_or_the_link_is_not_canonical() -> (
    None
):
    main_relinked = appended(LINKED.replace(b"XXXX", b"https://github.com/acme/bench/pull/8"), M1)
    refused(LINKED, main_relinked, FIXED)
    refused(LINKED, appended(LINKED, M1), LINKED.replace(b"XXXX", b"https://example.com/7"))
    edited = FIXED.replace(b'"Update a-fp8-b200-vllm"', b'"Reworded"')
    refused(LINKED, appended(LINKED, M1), edited)  # a correction plus another edit: refused


def test_a_correction_of_an_entry_the_base_holds_twice_is_not_guessed() -> None:
    twin = entry("q-atom", link=1)
    base = changelog(twin, entry("d-sglang", link=1), twin)
    main = changelog(entry("d-sglang", link=1), twin)  # main dropped the first copy
    fixed = base.replace(b"pull/1\n", b"pull/999\n")  # the branch relinks both copies
    refused(base, main, fixed)


GATE_LINKS = [
    "https://github.com/acme/bench/pull/7",
    "https://github.com/acme/bench/pull/0",
    "https://github.com/acme/bench/pull/007",
    "https://github.com/ACME/Bench/pull/7",
    "https://github.com/someone/else/pull/7",
    "https://github.com/acme/bench/pull/99999999999",
    "https://github.com/acme/bench/pull/7/changes",
]


@pytest.mark.parametrize("link", GATE_LINKS)
def test_a_correction_is_carried_exactly_when_the_gate_accepts_its_link(link: str) -> None:
    from changelog_tool.gate import prlinks
    from changelog_tool.settings import Settings

    fixed = LINKED.replace(b"XXXX", link.encode())
    result = merge(LINKED, appended(LINKED, M1), fixed, "ours", slug="acme/bench")
    gate = prlinks.problem(link, Settings(Path(".")), "acme/bench", allow_placeholder=False)
    assert isinstance(result, Merged) == (gate is None), (link, gate)


def test_a_correction_to_another_repositorys_link_is_not_carried() -> None:
    fixed = LINKED.replace(b"XXXX", b"https://github.com/someone/else/pull/7")
    assert isinstance(
        merge(LINKED, appended(LINKED, M1), fixed, "ours", slug="acme/bench"), Refused
    )
    asked: list[bool] = []

    def slug() -> str:  # asked only when a correction is weighed
        asked.append(True)
        return "someone/else"

    assert isinstance(merge(LINKED, appended(LINKED, M1), fixed, "ours", slug=slug), Merged)
    assert asked == [True]


@pytest.mark.parametrize(
    ("main_value", "branch_value", "same"),
    [(b"1", b"1", True), (b"1", b"0x1", True), (b"1", b"1.0", False), (b"true", b"1", False)],
)
def test_the_merge_takes_entries_for_one_entry_exactly_when_the_gate_does(
    main_value: bytes, branch_value: bytes, same: bool
) -> None:
    """The gate's rule (``same_entry``): ``1``, ``1.0`` and ``true`` are different
    values (YAML 1.2 and JSON tell them apart), two spellings of one value are not."""
    from changelog_tool.ledger.document import parse
    from changelog_tool.ledger.entry import same_entry

    def spelled(value: bytes) -> bytes:
        return entry("pr-one", link=201).replace(
            b"  pr-link", b"  eval-min-prefill-ep: " + value + b"\n  pr-link"
        )

    mains, branchs = spelled(main_value), spelled(branch_value)
    assert same_entry(parse(mains, 1), parse(branchs, 1)) == same  # the gate
    main = appended(BASE, mains)
    result = merged(BASE, main, appended(BASE, branchs))
    assert result.data == (main if same else appended(main, branchs))
    assert len(result.report.duplicates) == (1 if same else 0)


def test_a_removal_is_named_at_the_entry_that_now_follows_it() -> None:
    branch = appended(changelog(A, C), P1)
    [problem] = refused(BASE, appended(BASE, M1), branch).problems
    assert problem.line == branch[: branch.index(C)].count(b"\n") + 1


def test_a_description_line_that_begins_with_pr_link_is_not_carried_as_a_correction() -> None:
    """What changed is judged on the parsed entries: a line of a description that
    begins with ``pr-link:`` is the description."""
    described = LINKED.replace(
        b'  description:\n    - "Update a-fp8-b200-vllm"\n',
        b"  description: |\n    pr-link: https://github.com/acme/bench/pull/5\n",
    )
    assert described != LINKED
    edit = described.replace(b"pull/5\n", b"pull/6\n")
    refused(described, appended(described, M1), edit)


def test_a_reindented_description_line_is_not_carried_with_a_real_correction() -> None:
    """A quoted description's continuation line that begins with ``pr-link:`` is
    re-indented (the same value) beside a real correction: each corrected line is judged
    as the entry it makes, so the description line refuses the carry."""
    base = b'- config-keys: [a.b]\n  description: "first line\n    pr-link: in the text"\n'
    base += b"  pr-link: XXX\n"
    ours = base + b"\n- config-keys: [c.d]\n  description: new\n"
    ours += b"  pr-link: https://github.com/o/r/pull/5\n"
    theirs = base.replace(b"    pr-link: in", b"      pr-link: in").replace(
        b"XXX", b"https://github.com/o/r/pull/123"
    )
    assert isinstance(merge(base, ours, theirs, "ours", slug="o/r"), Refused)
