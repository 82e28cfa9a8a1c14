"""What the driver, resolve and sync say: findings, summary lines and JSON."""

from __future__ import annotations

import json

from merge_helpers import appended, changelog, entry

from changelog_tool.findings import WARNING
from changelog_tool.merge.outcome import merge_sides
from changelog_tool.merge.protected import Context, Decision
from changelog_tool.merge.replay import Upstream

BASE = changelog(entry("a", link=1), entry("b", link=2))
MAIN = appended(BASE, entry("shared", link=5))
BRANCH = appended(BASE, entry("shared", link="XXX"), entry("own"))


def test_a_concurrent_duplicate_is_a_duplicate_entry_warning_at_the_kept_copy() -> None:
    outcome = merge_sides(
        "perf-changelog.yaml", BASE, MAIN, BRANCH, Context(decision=Decision("ours", "test"))
    )
    [finding] = outcome.findings()
    assert (finding.code, finding.severity) == ("duplicate-entry", WARNING)
    assert finding.line == BASE.count(b"\n") + 2
    assert (
        "config-keys shared" in finding.message and "kept once, as ours has it" in finding.message
    )


def test_the_summary_names_the_protected_side_the_reason_and_the_appended_lines() -> None:
    outcome = merge_sides(
        "perf-changelog.yaml", BASE, MAIN, BRANCH, Context(upstream=Upstream("origin/main", MAIN))
    )
    first, merged = outcome.summary()
    assert first.startswith(
        "perf-changelog.yaml: protected side is ours: ours begins with origin/main's file"
    )
    line = MAIN.count(b"\n") + 2
    assert merged == (
        f"perf-changelog.yaml: merged: kept ours byte for byte, then appended "
        f"1 entry of theirs (line {line})"
    )


def test_the_json_report_lists_kept_duplicates_and_removed_entries() -> None:
    base = appended(BASE, entry("b", link=2))
    outcome = merge_sides(
        "perf-changelog.yaml",
        base,
        BRANCH,
        appended(base, entry("shared", link=5)),
        Context(decision=Decision("theirs", "test")),
    )
    assert not outcome.ok  # the branch lacks the base's last entry, which main holds
    document = json.loads(json.dumps(outcome.to_json()))
    assert document["ok"] is False and document["findings"][0]["code"] == "history-modified"
    outcome = merge_sides(
        "perf-changelog.yaml",
        base,
        appended(base, entry("own")),
        BASE,
        Context(decision=Decision("theirs", "test")),
    )
    document = outcome.to_json()
    assert document["ok"] and document["protected"] == "theirs"
    assert [n["entry"] for n in document["kept"]] == ["config-keys own"]
    assert [n["line"] for n in document["removed_by_protected"]] == [BASE.count(b"\n") + 2]


def test_on_a_guessed_side_nothing_is_dropped_and_the_merge_is_refused() -> None:
    base = appended(BASE, entry("b", link=2))  # a duplicate the protected side removes
    ours, theirs = appended(BASE, entry("m", link=3)), appended(base, entry("own"))
    # merging a branch that is not the protected one: theirs leads by default, a guess
    guessed = merge_sides(
        "perf-changelog.yaml", base, theirs, ours, Context(action="merge feature")
    )
    assert (guessed.decision.side, guessed.decision.certain) == ("theirs", False)
    assert not guessed.ok
    findings = guessed.findings()
    assert any("theirs removed" in f.message for f in findings)  # the duplicate's removal
    for finding in findings:
        assert finding.code == "history-modified" and "only a guess" in finding.message
        assert "changelog resolve --protected" in finding.message
    rebase = merge_sides("perf-changelog.yaml", base, ours, theirs, Context(action="rebase (pick)"))
    assert rebase.ok and rebase.result.data == appended(ours, entry("own"))  # type: ignore[union-attr]
