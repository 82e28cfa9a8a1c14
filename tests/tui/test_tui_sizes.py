"""The add screen at every size: the status line and the key bindings stay on screen, the
panels scroll together when the screen is too small for them (the focused field scrolled
into view), and rows beyond 80x24 go to the key list and the preview alike."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widget import Widget
from textual.widgets import Footer, Label
from tui_helpers import SIZE, app_for, build, settle, synchronous

from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.tui.app import AddApp
from changelog_tool.tui.keys import KeyList
from changelog_tool.tui.widgets import key_rows

SIZES = [(60, 15), SIZE, (120, 40), (200, 60)]
LARGE = (200, 60)


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


def on_top(app: AddApp, widget: Widget) -> bool:
    """Whether ``widget`` is on the screen and drawn at its first cell (not scrolled away,
    not under another widget)."""
    region = widget.region
    width, height = app.size
    if not (0 <= region.x < width and 0 <= region.y < height) or not region.area:
        return False
    shown, _ = app.screen.get_widget_at(region.x, region.y)
    return widget in shown.ancestors_with_self


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@synchronous
async def test_the_status_line_and_the_keys_stay_on_screen_and_focus_scrolls_into_view(
    box: Sandbox, size: tuple[int, int]
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        status = app.query_one("#status", Label)
        assert "problem to fix" in str(status.content)
        for _ in range(12):  # every field, and back to the description
            assert on_top(app, status), f"the status line is off screen at {size}"
            assert on_top(app, app.query_one(Footer)), f"the key bindings are off screen at {size}"
            assert app.focused is not None and on_top(app, app.focused), (
                f"{app.focused} has the focus but is off screen at {size}"
            )
            await pilot.press("tab")
            await pilot.pause()


async def _heights(box: Sandbox, size: tuple[int, int]) -> tuple[int, int]:
    """The rows of the key list and of the preview's scrolling body at ``size``."""
    app = app_for(box.root)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        return app.query_one(KeyList).size.height, app.query_one("#pane-scroll").size.height


@synchronous
async def test_rows_beyond_80x24_go_to_the_key_list_and_the_preview_alike(box: Sandbox) -> None:
    small_keys, small_pane = await _heights(box, SIZE)
    large_keys, large_pane = await _heights(box, LARGE)
    extra = LARGE[1] - SIZE[1]
    assert large_keys - small_keys >= extra / 3, (small_keys, large_keys)
    assert large_pane - small_pane >= extra / 3, (small_pane, large_pane)


@synchronous
async def test_a_resize_while_the_help_is_open_fits_the_key_list_when_it_closes(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        small = app.query_one(KeyList).size.height
        await pilot.press("f1")
        await pilot.pause()
        await pilot.resize_terminal(*LARGE)
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert app.query_one(KeyList).size.height == key_rows(LARGE[1]) > small
