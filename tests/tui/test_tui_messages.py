"""Messages that fit and go away: problems under the field they concern, a "Not saved"
toast that goes once its problem is fixed, and every message wrapped whole at 80x24."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Checkbox, Input, Label
from tui_helpers import SIZE, app_for, build, screen_text, settle, synchronous

from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.tui.keys import KeyList

BOX = "│┃╭╮╰╯┏┓┗┛─━ "


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


def flowing(screen: str) -> str:
    """The screen's text as one line: panel borders gone, wrapped lines joined."""
    return " ".join(" ".join(line.strip(BOX) for line in screen.splitlines()).split())


def shown(label: Label) -> str:
    return str(label.content) if label.display else ""


@synchronous
async def test_a_problem_shows_under_its_field_and_goes_when_fixed(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        form_problem = app.query_one("#form-problem", Label)
        keys_problem = app.query_one("#keys-problem", Label)
        assert "description: write at least one line" in shown(form_problem)
        assert shown(keys_problem) == ""
        await pilot.press(*"Bump the image")
        await pilot.pause()
        assert shown(form_problem) == ""
        keys = app.query_one(KeyList)
        for value in list(keys.selected):
            keys.deselect(value)
        await pilot.pause()
        assert "config-keys: choose at least one key or pattern" in shown(keys_problem)
        assert "config-keys: choose at least one key" in flowing(screen_text(app))
        app.query_one("#pr-link", Input).value = "https://github.com/other/repo/pull/9"
        await pilot.pause()
        assert "pr-link:" in shown(form_problem) and "not this repository" in shown(form_problem)
        app.query_one("#flag-append-only", Checkbox).value = True
        app.query_one("#flag-evals-only", Checkbox).value = True
        await pilot.pause()
        assert "append-only cannot be combined with evals-only" in shown(form_problem)


@synchronous
async def test_the_not_saved_toast_goes_as_soon_as_its_problem_is_fixed(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.is_running
        assert "Not saved" in screen_text(app)
        await pilot.press("x")  # not yet enough? one character is a description
        await pilot.pause()
        await pilot.pause()
        assert "Not saved" not in screen_text(app)
        assert app.is_running


@synchronous
async def test_the_toast_stays_while_its_problem_does(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.query_one("#pr-link", Input).value = "XXX "  # a change that fixes nothing
        await pilot.pause()
        await pilot.pause()
        assert "Not saved" in screen_text(app)


@synchronous
async def test_every_message_wraps_whole_at_80x24(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"Bump the image")
        link = "https://github.com/someone-else/another-repository/pull/12345"
        app.query_one("#pr-link", Input).value = link
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"no-such-key-at-all-*", "enter")
        await pilot.pause()
        preview = app.session.preview(app.current_draft())
        assert len(preview.problems) == 2
        assert all(len(problem) > SIZE[0] for problem in preview.problems)  # they must wrap
        text = screen_text(app)
        assert len(text.splitlines()) == SIZE[1]
        screen = flowing(text)
        for problem in preview.problems:
            assert " ".join(problem.split()) in screen, problem
        status = str(app.query_one("#status", Label).content)
        assert status == "✗ 2 problems to fix before ctrl+s: pr-link, config-keys"
        assert status in screen and "f1 Help" in text.splitlines()[-1]
