"""The command palette (ctrl+p, even while typing the description) offers the app's own
actions by name, each with its key, and runs the one chosen; not Textual's Quit, which
would skip the leave question and the draft."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.binding import Binding
from textual.command import CommandList, CommandPalette
from textual.pilot import Pilot
from textual.widgets import TextArea
from tui_helpers import SIZE, app_for, build, settle, synchronous

from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.tui.app import AddApp
from changelog_tool.tui.screens import HelpScreen


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


async def offered(pilot: Pilot[Any]) -> list[str]:
    """The commands the open palette lists, as their text (title, then help line)."""
    commands = pilot.app.screen.query_one(CommandList)
    for _ in range(50):  # the palette gathers its commands in the background
        if commands.option_count:
            break
        await pilot.pause(0.02)
    return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]


@synchronous
async def test_ctrl_p_offers_every_action_that_has_a_key_and_no_quit(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert isinstance(app.focused, TextArea)
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        listed = await offered(pilot)
        actions = {b.action for b in AddApp.BINDINGS if isinstance(b, Binding) and b.tooltip}
        assert actions >= {"save", "leave", "toggle_pane", "edit_description", "help"}
        assert len(listed) == len(actions)
        for binding in AddApp.BINDINGS:
            if isinstance(binding, Binding) and binding.tooltip:
                key = binding.key_display or binding.key
                assert any(binding.tooltip in text and key in text for text in listed)
        assert not any("Quit" in text for text in listed)


@synchronous
async def test_a_command_chosen_by_name_runs(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        theme = app.theme
        await pilot.press("ctrl+p", *"light or dark")
        await pilot.pause()
        assert any("light or dark" in text for text in await offered(pilot))
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, CommandPalette) and app.theme != theme
        await pilot.press("ctrl+p", *"help")
        await pilot.pause()
        await offered(pilot)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
