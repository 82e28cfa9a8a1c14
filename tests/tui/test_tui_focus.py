"""Focus you can see: tab and shift+tab visit every field, one at a time, and the panel
holding the focus has a border and a title unlike the others, in both themes; space
ticks the highlighted key whenever the key list has the focus."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.color import Color
from textual.widget import Widget
from tui_helpers import SIZE, app_for, build, settle, synchronous

from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.tui.app import AddApp
from changelog_tool.tui.keys import KeyList, KeyPicker

ORDER = [
    "description",
    "scenario-fixed-seq-len",
    "scenario-agentic-coding",
    "pr-link",
    "flag-evals-only",
    "flag-all-evals",
    "flag-no-evals",
    "flag-append-only",
    "number-eval-min-prefill-ep",
    "pane-scroll",
    "keys",
    "pattern",
]


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


def panels(app: AddApp) -> list[Widget]:
    return list(app.query(".panel"))


def look(panel: Widget) -> tuple[str, object, object]:
    """What tells a panel with the focus from one without: border, its colour, the title's."""
    kind, colour = panel.styles.border_top
    return kind, colour, panel.styles.border_title_background


def assert_one_lit_panel(app: AddApp) -> None:
    focused = app.focused
    assert focused is not None
    lit = [p for p in panels(app) if focused in p.query("*")]
    assert len(lit) == 1, f"{focused} is in {len(lit)} panels"
    others = [look(p) for p in panels(app) if p is not lit[0]]
    assert lit[0].border_title
    assert look(lit[0])[0] == "heavy" and all(kind == "round" for kind, _, _ in others)
    assert all(look(lit[0])[1:] != other[1:] for other in others)


@synchronous
async def test_tab_and_shift_tab_visit_every_field_and_the_lit_panel_shows_where(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            seen = []
            for _ in ORDER:
                await pilot.pause()
                assert app.focused is not None
                seen.append(app.focused.id)
                assert_one_lit_panel(app)
                await pilot.press("tab")
            assert seen == ORDER and app.focused is not None and app.focused.id == ORDER[0]
            back = []
            for _ in ORDER:
                await pilot.press("shift+tab")
                await pilot.pause()
                assert app.focused is not None
                back.append(app.focused.id)
                assert_one_lit_panel(app)
            assert back == [*reversed(ORDER[1:]), ORDER[0]]


@synchronous
async def test_space_ticks_the_highlighted_key_whenever_the_list_has_focus(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        picker = app.query_one(KeyPicker)
        before = picker.to_model()
        await pilot.press("shift+tab", "shift+tab")  # description -> pattern -> key list
        await pilot.pause()
        keys = app.query_one(KeyList)
        assert app.focused is keys and keys.highlighted == 0
        await pilot.press("space")
        await pilot.pause()
        assert picker.to_model() == before[1:]
        await pilot.press("space")
        await pilot.pause()
        assert picker.to_model() == before
        await pilot.press("down", "down", "down", "space")  # the first unchanged master key
        await pilot.pause()
        unchanged = keys.get_option_at_index(3).value
        assert picker.to_model() == [*before, unchanged]
        assert f"    - {unchanged}" in app.session.preview(app.current_draft()).appended.decode()
        await pilot.press("tab")  # and tab leaves the list
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "pattern"


@synchronous
async def test_the_description_is_the_first_widget_to_get_the_focus(box: Sandbox) -> None:
    """The widget Textual focuses first (the first focusable one its AUTO_FOCUS selects,
    the screen's or else the app's) is the description: Textual's default, the first
    focusable widget, is the keys filter, and in a terminal the description's focus
    comes after it, lighting the keys panel and unlighting it again, two restyles
    the first paint waits for."""
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        screen = app.screen
        selector = screen.AUTO_FOCUS if screen.AUTO_FOCUS is not None else app.AUTO_FOCUS
        assert selector
        first = next(w for w in screen.query(selector) if w.focusable)
        assert first is app.query_one("#description")
        assert [p.id for p in panels(app) if p.has_pseudo_class("focus-within")] == ["form"]


def luminance(colour: Color) -> float:
    """WCAG 2 relative luminance of an opaque colour."""

    def linear(channel: int) -> float:
        c = channel / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = colour.rgb
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(one: Color, other: Color) -> float:
    """WCAG 2 contrast ratio, 1 to 21 (3 is the minimum for a focus indicator)."""
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@synchronous
async def test_the_focus_border_stands_out_three_to_one_in_both_themes(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for theme in ("textual-dark", "textual-light"):
            app.theme = theme
            await pilot.pause()
            for panel in panels(app):
                next(w for w in panel.query("*") if w.focusable).focus()
                await pilot.pause()
                assert panel.has_pseudo_class("focus-within")
                _, border = panel.styles.border_top
                behind = panel.background_colors[1]
                ratio = contrast(behind + border, behind)
                assert ratio >= 3, f"{panel.id} in {theme}: focus border {ratio:.2f}:1"
