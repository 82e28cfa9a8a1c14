"""Drafts: the add screen's answers, kept in the repository's git directory."""

from __future__ import annotations

import json
from pathlib import Path

from textual.widgets import TextArea
from tui_helpers import SIZE, app_for, build, settle, synchronous

from changelog_tool.authoring import drafts
from changelog_tool.authoring.drafts import Draft


def test_a_draft_is_kept_in_the_git_directory_and_read_back(repo: object, tmp_path: Path) -> None:
    changelog = tmp_path / "repo" / "perf-changelog.yaml"
    draft = Draft(
        keys=["a-key", "b-*"],
        scenario_types=["agentic-coding"],
        description=["Bump the image", ""],
        pr_link="XXX",
        flags=["all-evals"],
        numbers={"eval-min-prefill-ep": 2},
    )
    where = drafts.save(changelog, draft)
    assert where == tmp_path / "repo" / ".git" / "perf-changelog-draft.json"
    loaded = drafts.load(changelog)
    assert loaded is not None and loaded[0] == draft and loaded[1]


def test_a_draft_for_another_changelog_is_not_offered(repo: object, tmp_path: Path) -> None:
    drafts.save(tmp_path / "repo" / "perf-changelog.yaml", Draft(description=["x"]))
    assert drafts.load(tmp_path / "repo" / "other-changelog.yaml") is None


def test_a_discarded_or_damaged_draft_is_not_offered(repo: object, tmp_path: Path) -> None:
    changelog = tmp_path / "repo" / "perf-changelog.yaml"
    where = drafts.save(changelog, Draft(description=["x"]))
    drafts.discard(changelog)
    assert drafts.load(changelog) is None
    drafts.discard(changelog)  # twice is fine
    where.write_text("{not json")
    assert drafts.load(changelog) is None
    where.write_text(
        json.dumps(
            {"version": 2, "changelog": str(changelog.resolve()), "answers": {"keys": "not-a-list"}}
        )
    )
    assert drafts.load(changelog) is None


def test_outside_a_repository_the_draft_sits_beside_the_changelog(tmp_path: Path) -> None:
    changelog = tmp_path / "perf-changelog.yaml"
    assert drafts.save(changelog, Draft(description=["x"])) == tmp_path / drafts.DRAFT_NAME


def test_flags_become_a_draft_and_override_a_kept_one() -> None:
    kept = Draft(keys=["old-key"], description=["kept text"], scenario_types=["fixed-seq-len"])
    flags = Draft(keys=["new-key"], flags=["evals-only"], numbers={"eval-min-prefill-ep": 3})
    merged = kept.overlay(flags)
    assert merged == Draft(
        keys=["new-key"],
        scenario_types=["fixed-seq-len"],
        description=["kept text"],
        flags=["evals-only"],
        numbers={"eval-min-prefill-ep": 3},
    )


def test_the_entry_drops_blank_lines_and_defaults_the_pr_link_to_the_placeholder() -> None:
    draft = Draft(keys=["k"], description=["  first ", "", "second"], flags=["all-evals"])
    assert draft.to_entry("XXX") == {
        "config-keys": ["k"],
        "description": ["first", "second"],
        "pr-link": "XXX",
        "all-evals": True,
    }
    assert draft.has_text() and not Draft(description=["", "  "]).has_text()


@synchronous
async def test_typing_after_a_restored_description_goes_on_at_its_end(tmp_path: Path) -> None:
    box = build(tmp_path)  # (the cursor was left at the start: "Xabc")
    drafts.save(box.changelog, Draft(keys=[], description=["first line", "abc"]))
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        area = app.query_one("#description", TextArea)
        area.focus()
        await pilot.press("X")
        await pilot.pause()
        assert area.text == "first line\nabcX"
