"""What the add screen shows at its smallest supported size (60x15) and at 80x24: a key
bindings line that fits the width, every row of the entry reachable, the preview behind f2 on a
short screen, and the description in the preview as it is typed."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Footer
from tui_helpers import SIZE, app_for, build, screen_text, settle, synchronous

from changelog_tool.authoring import drafts
from changelog_tool.authoring.drafts import Draft
from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.tui.widgets import Pane

SMALL = (60, 15)


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=lambda s: f"{s[0]}x{s[1]}")
@synchronous
async def test_the_key_bindings_fit_the_width_and_the_last_label_is_whole(
    box: Sandbox, size: tuple[int, int]
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        footer = screen_text(app).split("\n")[-1]
        assert len(footer) <= size[0] and footer.endswith("f1 Help"), footer
        for label in ("^s Save", "esc/^c Leave", "f2 Preview", "^e $EDITOR", "^t Theme"):
            assert label in footer, (label, footer)
        assert app.query_one(Footer).compact is (size[0] < 80)


@synchronous
async def test_at_60x15_every_row_of_the_entry_comes_into_view_with_the_focus(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        for _ in range(100):  # the empty description's problem, shown once checked
            if "✗ description:" in screen_text(app):
                break
            await pilot.pause(0.02)
        app.query_one("#number-eval-min-prefill-ep").focus()  # the entry's last field
        await pilot.pause()
        await pilot.wait_for_scheduled_animations()
        shown = screen_text(app)
        assert "Flags" in shown and "eval-min-prefill-ep" in shown, shown
        assert "┗" in shown, shown  # the entry panel's bottom border


@synchronous
async def test_at_60x15_the_keys_and_a_described_entry_fit_whole(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press(*"Bump the image")
        await pilot.pause()
        lines = screen_text(app).split("\n")
        assert lines[0].startswith("╭─ Changed keys") and lines[4].startswith("╰"), lines
        assert any(line.startswith("┃ Flags") for line in lines), lines
        # the four built-in flags take two lines at 60 columns: the last field is on
        # screen, the entry's bottom border one line below it (the panel scrolls)
        assert "eval-min-prefill-ep" in lines[12], lines
        assert "ready" in lines[13], lines


@synchronous
async def test_at_60x15_f2_shows_the_preview_then_the_history_then_the_entry(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert not app.query_one(Pane).display or not app.query_one(Pane).region.area
        assert "Preview:" not in screen_text(app) and "Entry:" in screen_text(app)
        await pilot.press(*"Bump the image")
        await pilot.press("f2")
        await pilot.pause()
        shown = screen_text(app)
        assert "Preview:" in shown and "Entry:" not in shown, shown
        assert '- "Bump the image"' in shown, shown  # the description, in view
        await pilot.press("f2")
        await pilot.pause()
        shown = screen_text(app)
        assert "Previous entries" in shown and "Entry:" not in shown, shown
        await pilot.press("f2")
        await pilot.pause()
        shown = screen_text(app)
        assert "Entry:" in shown and "Preview:" not in shown, shown
        assert app.focused is app.query_one("#description")


@synchronous
async def test_at_80x24_the_preview_shows_the_description_as_it_is_typed(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"Bump the image", "enter", *"Retune the sweep")
        await pilot.pause()
        await pilot.pause()
        pane = screen_text(app).split("Preview:", 1)[1]
        assert "description:" in pane, pane
        assert '- "Bump the image"' in pane and '- "Retune the sweep"' in pane, pane


@synchronous
async def test_at_60x15_the_restored_draft_note_leaves_the_form_in_view(box: Sandbox) -> None:
    """The note is in the status line, not in a toast over the form, until the
    answers change."""
    drafts.save(box.changelog, Draft(keys=[], description=["Half a thought"]))
    app = app_for(box.root)
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await settle(pilot)
        await pilot.pause()
        assert not app._notifications
        lines = screen_text(app).split("\n")
        # the status line, between the form and the footer
        assert lines[-2].strip().startswith("Restored your unsaved answers ("), lines
        assert any("Half a thought" in line for line in lines[:-2]), lines
        await pilot.press(*" more")
        await pilot.pause()
        assert "Restored your unsaved answers" not in screen_text(app)
