"""Which side is protected: GIT_REFLOG_ACTION, then the operation in progress, and
only then, as a hint, the protected ref's entries; else theirs in a merge, ours
otherwise. A stale ref never overrides the operation."""

from __future__ import annotations

from functools import partial

import pytest
from merge_helpers import appended, changelog, entry

from changelog_tool.merge.protected import (
    Context,
    Decision,
    by_upstream,
    decide,
    side_from_action,
)

BASE = changelog(entry("a"), entry("b"))
MAIN = appended(BASE, entry("m1", link=1), entry("m2", link=2))
BRANCH = appended(BASE, entry("own"))


def ref(
    ours: bytes, theirs: bytes, upstream: bytes, name: str = "main"
) -> partial[Decision | None]:
    """The protected ref's hint on the whole files, as every caller but the driver gives it."""
    return partial(by_upstream, ours, theirs, upstream, name)


def test_with_no_operation_known_ours_leads_and_the_protected_ref_is_only_a_hint() -> None:
    decision = decide(hint=ref(appended(MAIN, entry("own")), BRANCH, MAIN))
    assert (decision.side, decision.certain) == ("ours", True)  # HEAD, the branch being written
    assert f"main's file (every entry: its first {len(MAIN):,} bytes)" in decision.reason
    flipped = decide(hint=ref(BRANCH, appended(MAIN, entry("own")), MAIN))
    assert (flipped.side, flipped.certain) == ("theirs", False)
    assert "a hint only" in flipped.reason


def test_when_neither_side_begins_with_the_protected_ref_the_one_holding_more_wins() -> None:
    stale_main = appended(BASE, entry("m1", link=1))  # local main, behind origin/main
    decision = decide(hint=ref(BRANCH, stale_main, MAIN, "origin/main"))
    assert decision.side == "theirs"
    assert "3 of 4, the other side 2" in decision.reason


def test_a_rebase_keeps_ours_protected_whatever_the_protected_ref_holds() -> None:
    # a fork's origin/main may hold the branch's side (stale, or the fork's own commits)
    fork_main = appended(BASE, entry("own"))
    for held in (BRANCH, fork_main, BASE):
        decision = decide(Context(action="rebase (pick)"), ref(MAIN, BRANCH, held))
        assert (decision.side, decision.certain) == ("ours", True)
    assert decide(Context(action="merge origin/main"), ref(BRANCH, MAIN, BRANCH)).side == "theirs"


def test_a_pull_that_rebases_is_a_rebase_though_the_action_says_pull() -> None:
    # with pull.rebase set, git leaves GIT_REFLOG_ACTION at "pull" while it rebases
    decision = decide(Context(action="pull", operation=lambda: "rebase"), ref(MAIN, BRANCH, BRANCH))
    assert decision.side == "ours" and "rebase is in progress" in decision.reason
    assert decide(Context(action="pull", operation=lambda: None)).side == "theirs"


def test_a_merge_message_naming_the_protected_branch_makes_theirs_protected() -> None:
    decision = decide(Context(operation=lambda: "merge upstream/main"), ref(BRANCH, MAIN, BRANCH))
    assert (decision.side, decision.certain) == ("theirs", True)


def test_a_merge_of_another_branch_asks_the_ref_then_defaults_to_theirs() -> None:
    on_main = decide(Context(action="merge feature"), ref(MAIN, BRANCH, MAIN))
    assert (on_main.side, on_main.certain) == ("ours", False)
    unnamed = decide(Context(operation=lambda: "merge"))
    assert (unnamed.side, unnamed.certain) == ("theirs", False)


def test_a_stale_protected_ref_that_both_sides_contain_falls_back_to_the_action() -> None:
    assert decide(Context(action="merge main"), ref(BRANCH, MAIN, BASE)).side == "theirs"
    assert decide(Context(action="rebase (pick)"), ref(MAIN, BRANCH, BASE)).side == "ours"


@pytest.mark.parametrize(
    ("action", "side"),
    [
        ("rebase", "ours"),
        ("rebase -i (pick)", "ours"),
        ("pull --rebase origin main", "ours"),
        ("pull -q --rebase", "ours"),
        ("cherry-pick", "ours"),
        ("revert", "ours"),
        ("am", "ours"),
        ("merge origin/main", "theirs"),
        ("merge upstream/main", "theirs"),
        ("merge feature", None),
        ("pull", "theirs"),
        ("pull --no-rebase origin main", "theirs"),
        ("pull origin feature", None),
        ("checkout", None),
        ("", None),
        (None, None),
    ],
)
def test_git_reflog_action_names_the_protected_side(action: str | None, side: str | None) -> None:
    assert side_from_action(action) == side


def test_the_operation_in_progress_is_read_only_when_the_action_did_not_decide() -> None:
    asked: list[bool] = []

    def operation() -> str:
        asked.append(True)
        return "rebase"

    hint = ref(BRANCH, MAIN, MAIN)
    assert decide(Context(action="merge main", operation=operation), hint).side == "theirs"
    assert asked == []
    assert decide(Context(operation=operation), hint).side == "ours"
    assert asked == [True]


def test_the_protected_ref_is_asked_only_when_the_operation_did_not_decide() -> None:
    asked: list[bool] = []

    def hint() -> Decision | None:
        asked.append(True)
        return by_upstream(BRANCH, MAIN, MAIN, "main")

    assert decide(Context(action="rebase (pick)"), hint).side == "ours"
    assert decide(Context(operation=lambda: "merge main"), hint).side == "theirs"
    assert asked == []
    decision = decide(Context(action="merge feature"), hint)
    assert asked == [True]
    assert (decision.side, decision.certain) == ("theirs", False)
    assert "theirs begins with main's file" in decision.reason


def test_with_nothing_to_go_on_ours_is_protected() -> None:
    decision = decide()
    assert decision.side == "ours" and "not a merge: ours is HEAD" in decision.reason
