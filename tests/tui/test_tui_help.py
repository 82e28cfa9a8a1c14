"""The help screen: f1 anywhere, ? outside a text field (where it is typed), esc closes."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input, TextArea
from tui_helpers import SIZE, app_for, build, settle, synchronous

from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.gate.acceptance import BROAD_PATTERN_EXTRA_KEYS
from changelog_tool.tui.screens import HelpScreen


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


@synchronous
async def test_f1_opens_the_help_with_every_binding_and_esc_closes_it(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.focused, TextArea)  # even while typing the description
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("Markdown").source  # type: ignore[attr-defined]
        for key in ("ctrl+s", "f2", "ctrl+t", "esc / ctrl+q / ctrl+c", "space", "tab", "ctrl+e"):
            assert key in text
        # what a benchmark point is, and the threshold of a broad pattern, from their one place
        assert "A benchmark point is one\n  benchmark run" in text
        assert f"more than\n  {BROAD_PATTERN_EXTRA_KEYS} keys this branch did not change" in text
        assert "changelog finalize --pr-number N" in text
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen) and app.is_running


@synchronous
async def test_a_question_mark_is_typed_in_a_text_field_and_opens_help_elsewhere(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("?")
        await pilot.pause()
        assert not isinstance(app.screen, HelpScreen)
        assert app.query_one("#description", TextArea).text == "?"
        app.query_one("#keys").focus()
        await pilot.pause()
        assert not isinstance(app.focused, Input | TextArea)
        await pilot.press("?")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
