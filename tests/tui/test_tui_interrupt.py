"""ctrl+c in the add screen: it leaves the way esc does (asking first when something was
typed, keeping the draft) and the run ends with exit code 130; with text selected it
copies it first, as Textual does, and says how to leave."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, TextArea
from tui_helpers import SIZE, app_for, build, screen_text, settle, synchronous

from changelog_tool.authoring import drafts
from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.tui.screens import ConfirmLeave


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


@pytest.mark.parametrize("where", ["description", "after tab", "key field"])
@synchronous
async def test_ctrl_c_in_an_untouched_screen_leaves_at_once_with_exit_code_130(
    box: Sandbox, where: str
) -> None:
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if where == "after tab":
            await pilot.press("tab")
            assert not isinstance(app.focused, TextArea)
        elif where == "key field":
            app.query_one("#pattern", Input).focus()
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert not app.is_running
    assert app.return_value is not None and app.return_value.code == 130
    assert app.return_value.message.startswith("interrupted: nothing was written")
    assert box.changelog.read_bytes() == before and drafts.load(box.changelog) is None


@pytest.mark.parametrize("first", ["ctrl+c", "escape"])
@synchronous
async def test_ctrl_c_in_the_leave_question_leaves_with_130_and_keeps_the_draft(
    box: Sandbox, first: str
) -> None:
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"half a thought", first)
        await pilot.pause()
        assert isinstance(app.screen, ConfirmLeave) and app.is_running
        assert "Leave (y/^c)" in screen_text(app)
        await pilot.press("ctrl+c")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 130
    assert "your answers are kept" in app.return_value.message
    assert box.changelog.read_bytes() == before
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0].description == ["half a thought"]


@synchronous
async def test_staying_after_ctrl_c_and_later_leaving_with_escape_is_no_interrupt(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"still writing", "ctrl+c")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert app.is_running and not isinstance(app.screen, ConfirmLeave)
        assert app.query_one("#description", TextArea).text == "still writing"
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 1
    assert not app.return_value.message.startswith("interrupted")


@synchronous
async def test_ctrl_c_with_selected_text_copies_it_and_a_second_ctrl_c_leaves(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press(*"Bump the image", *["shift+left"] * 5, "ctrl+c")
        await pilot.pause()
        assert app.clipboard == "image" and app.is_running
        shown = screen_text(app)
        assert "Copied the selection" in shown and "ctrl+c again leaves" in shown
        assert app.query_one("#description", TextArea).selected_text == ""
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmLeave)
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 130
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0].description == ["Bump the image"]
