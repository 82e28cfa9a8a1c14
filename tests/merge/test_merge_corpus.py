"""Every rebase-conflict scenario of the real corpus resolves to the expected bytes
(or is refused where the corpus expects an error), whichever side is ours."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

import pytest
from merge_helpers import Scenario, clone_bundle, read_blobs, scenarios, sep

from changelog_tool.findings import ERROR
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.merge.outcome import merge_sides
from changelog_tool.merge.protected import Context
from changelog_tool.merge.replay import Mainline
from changelog_tool.merge.threeway import Merged, Refused, merge


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import CORPUS

    if not (CORPUS / "inferencex-data.bundle").is_file():
        pytest.skip("../shared/corpus is absent")
    return clone_bundle(CORPUS, tmp_path_factory.mktemp("corpus") / "ix")


@pytest.fixture(scope="module")
def all_scenarios(clone: Path) -> list[Scenario]:
    from conftest import CORPUS

    return scenarios(CORPUS, clone)


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def errors(data: bytes) -> set[tuple[str, int | None]]:
    return {(f.code, f.line) for f in check_file(data, "p").findings if f.severity == ERROR}


def test_the_corpus_scenarios_rebuild_to_their_recorded_hashes(
    corpus: Path, all_scenarios: list[Scenario]
) -> None:
    assert len(all_scenarios) == 72
    for s in all_scenarios:
        assert (sha(s.base), sha(s.main), sha(s.pr)) == (
            s.record["sha256"]["base"],
            s.record["sha256"]["main"],
            s.record["sha256"]["pr"],
        ), s.id


@pytest.mark.parametrize("orientation", ["rebase", "merge"])
def test_every_scenario_resolves_to_the_expected_bytes_or_is_refused(
    corpus: Path, all_scenarios: list[Scenario], orientation: str
) -> None:
    outcomes = []
    for s in all_scenarios:
        if orientation == "rebase":  # git rebase main: ours is main
            result = merge(s.base, s.main, s.pr, "ours")
        else:  # git merge main from the branch: theirs is main
            result = merge(s.base, s.pr, s.main, "theirs")
        expected = s.record["expected_sha256"]
        if expected is None:
            assert isinstance(result, Refused), s.id
            outcomes.append("refused")
            continue
        assert isinstance(result, Merged), (s.id, result)
        assert sha(result.data) == expected, s.id
        flagged = bool(result.report.duplicates)
        assert flagged == (s.record.get("expect_flag") == "duplicate-entry"), s.id
        assert result.data.startswith(s.main), s.id
        outcomes.append("flagged" if flagged else "merged")
    assert outcomes.count("refused") == 1
    assert outcomes.count("flagged") == sum(
        s.record.get("expect_flag") == "duplicate-entry" for s in all_scenarios
    )


def test_no_resolved_file_has_an_error_that_main_did_not_already_have(
    corpus: Path, all_scenarios: list[Scenario]
) -> None:
    for s in all_scenarios:
        result = merge(s.base, s.main, s.pr, "ours")
        if isinstance(result, Merged):
            assert errors(result.data) <= errors(s.main), s.id


def test_the_history_edit_scenario_is_refused_naming_the_edited_entry_and_line(
    corpus: Path, all_scenarios: list[Scenario]
) -> None:
    [s] = [s for s in all_scenarios if s.record["kind"] == "pr-edits-history"]
    result = merge(s.base, s.main, s.pr, "ours")
    assert isinstance(result, Refused)
    [problem] = result.problems
    old = s.record["pr_edit"]["old"].encode()
    line = s.base[: s.base.index(old)].count(b"\n") + 1
    entry_line = (
        s.base[: s.base.rindex(b"\n- config-keys:", 0, s.base.index(old)) + 1].count(b"\n") + 1
    )
    assert problem.code == "history-modified"
    assert f"line {entry_line} of the base" in problem.message
    assert problem.line is not None and entry_line <= problem.line <= line


def test_the_reverted_duplicate_stays_removed_and_is_reported(
    corpus: Path, all_scenarios: list[Scenario]
) -> None:
    [s] = [s for s in all_scenarios if s.record["kind"] == "reverted-duplicate"]
    result = merge(s.base, s.main, s.pr, "ours")
    assert isinstance(result, Merged)
    assert len(result.report.removed) == 1
    assert "qwen3.5-fp8-mi355x-atom" in result.report.removed[0].label


def own_entries_of(s: Scenario) -> Counter[bytes]:
    """The pull request's own entries: what it holds that the base does not."""
    return entries(s.pr) - entries(s.base)


def entries(data: bytes) -> Counter[bytes]:
    ledger = Ledger(data)
    return Counter(block.raw for block in ledger.blocks)


def test_the_corpus_replay_as_the_driver_runs_it_loses_and_doubles_no_entry(
    corpus: Path, all_scenarios: list[Scenario]
) -> None:
    """Every scenario, rebased (ours is main, git's record: the onto file) and merged
    (theirs is main, no replay running), through the driver's own path: resolved, or
    refused with a reason; never an entry of main or of the branch lost or doubled.
    Run with ``-s`` for the tally."""
    tally: Counter[str] = Counter()
    for s in all_scenarios:
        for action in ("rebase (pick)", "merge main"):
            rebasing = action.startswith("rebase")
            sides = (s.main, s.pr) if rebasing else (s.pr, s.main)
            record = Mainline(s.main, "onto") if rebasing else Mainline(replaying=False)
            outcome = merge_sides(
                "perf-changelog.yaml", s.base, *sides, Context(action=action, mainline=record)
            )
            if not isinstance(outcome.result, Merged):
                codes = sorted({p.code for p in outcome.result.problems})
                tally[f"refused ({', '.join(codes)})"] += 1
                continue
            tally["resolved"] += 1
            report, result = outcome.result.report, entries(outcome.result.data)
            own = own_entries_of(s)
            added = result - entries(s.main)
            lost = entries(s.main) - result  # main's: none may go
            dropped = own - added  # the branch's: only as reported duplicates
            doubled = added - own
            tally["lost or doubled"] += sum((lost + doubled).values())
            tally["lost or doubled"] += sum(dropped.values()) - len(report.duplicates)
    print(f"\ncorpus replay ({len(all_scenarios)} scenarios x rebase and merge): {dict(tally)}")
    assert tally["lost or doubled"] == 0
    assert tally["resolved"] + sum(v for k, v in tally.items() if k.startswith("refused")) == (
        2 * len(all_scenarios)
    )


def test_hand_merged_corpus_branches_resolve_to_the_expected_bytes(
    corpus: Path, clone: Path, all_scenarios: list[Scenario]
) -> None:
    """Each regular scenario whose main appended in more than one step, as the branch
    a contributor's earlier hand merge left: main's first new state merged in with
    the pull request's entry *before* main's new entries. Merging main again (and
    rebasing) gives main's bytes, then the entry, re-appended. Run with ``-s`` for
    the tally."""
    stepped = [
        s
        for s in all_scenarios
        if s.record["kind"] == "regular"
        and s.record.get("first_main_appender_replay_sha") not in (None, s.record["main_sha"])
    ]
    spec = "{}:perf-changelog.yaml"
    blobs = read_blobs(
        clone, [spec.format(s.record["first_main_appender_replay_sha"]) for s in stepped]
    )
    tally: Counter[str] = Counter()
    for s in stepped:
        first = blobs[spec.format(s.record["first_main_appender_replay_sha"])]
        if not first.startswith(s.base) or first == s.main:
            tally["skipped (main's first step is not an append)"] += 1
            continue
        hand_merged = s.base + sep(s.base) + s.record["pr_blocks"].encode() + first[len(s.base) :]
        for action in ("merge main", "rebase (pick)"):
            sides = (hand_merged, s.main) if action == "merge main" else (s.main, hand_merged)
            outcome = merge_sides(
                "perf-changelog.yaml",
                first,
                *sides,
                Context(action=action, mainline=Mainline(replaying=False)),
            )
            if not isinstance(outcome.result, Merged):
                tally["refused"] += 1
                continue
            if s.record.get("expect_flag") == "duplicate-entry":
                # main appended the entry's twin in its first step: with that step as
                # the base, the branch's copy repeats an old entry and is kept
                wanted = sha(s.main + sep(s.main) + s.record["pr_blocks"].encode())
            else:
                wanted = s.record["expected_sha256"]
            assert sha(outcome.result.data) == wanted, s.id
            assert outcome.result.report.reappended, s.id
            tally["resolved, re-appended"] += 1
    print(f"\nhand-merged variants: {dict(tally)}")
    assert tally["refused"] == 0 and tally["resolved, re-appended"] >= 2
