"""Which side is protected: the protected ref's entries, then GIT_REFLOG_ACTION, then
the operation in progress, else ours."""

from __future__ import annotations

import pytest
from test_merge_helpers import appended, changelog, entry

from changelog_tool.merge.protected import decide, side_from_action

BASE = changelog(entry("a"), entry("b"))
MAIN = appended(BASE, entry("m1", link=1), entry("m2", link=2))
BRANCH = appended(BASE, entry("own"))


def test_in_a_rebase_ours_holds_the_protected_ref_so_ours_is_protected() -> None:
    decision = decide(appended(MAIN, entry("own")), BRANCH, upstream=MAIN, upstream_name="main")
    assert decision.side == "ours"
    assert "main" in decision.reason and "all 4" in decision.reason


def test_when_neither_side_begins_with_the_protected_ref_the_one_holding_more_wins() -> None:
    stale_main = appended(BASE, entry("m1", link=1))  # local main, behind origin/main
    decision = decide(BRANCH, stale_main, upstream=MAIN, upstream_name="origin/main")
    assert decision.side == "theirs"
    assert "3 of 4, the other side 2" in decision.reason


def test_in_a_merge_of_main_theirs_holds_the_protected_ref_so_theirs_is_protected() -> None:
    assert decide(BRANCH, MAIN, upstream=MAIN, action="rebase").side == "theirs"


def test_a_stale_protected_ref_that_both_sides_contain_falls_back_to_the_action() -> None:
    assert decide(BRANCH, MAIN, upstream=BASE, action="merge main").side == "theirs"
    assert decide(MAIN, BRANCH, upstream=BASE, action="rebase (pick)").side == "ours"


@pytest.mark.parametrize(
    ("action", "side"),
    [
        ("rebase", "ours"),
        ("rebase -i (pick)", "ours"),
        ("pull --rebase origin main", "ours"),
        ("pull -q --rebase", "ours"),
        ("cherry-pick", "ours"),
        ("revert", "ours"),
        ("merge origin/main", "theirs"),
        ("pull", "theirs"),
        ("checkout", None),
        ("", None),
        (None, None),
    ],
)
def test_git_reflog_action_names_the_protected_side(action: str | None, side: str | None) -> None:
    assert side_from_action(action) == side


def test_the_operation_in_progress_is_read_only_when_nothing_else_decided() -> None:
    asked: list[bool] = []

    def operation() -> str:
        asked.append(True)
        return "merge"

    assert decide(BRANCH, MAIN, upstream=MAIN, operation=operation).side == "theirs"
    assert asked == []
    assert decide(BRANCH, MAIN, operation=operation).side == "theirs"
    assert asked == [True]


def test_with_nothing_to_go_on_ours_is_protected() -> None:
    decision = decide(BRANCH, MAIN)
    assert decision.side == "ours" and "ours first" in decision.reason
