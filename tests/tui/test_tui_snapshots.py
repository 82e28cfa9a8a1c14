"""What the add screen looks like: SVG snapshots of the real app (pytest-textual-snapshot)
on the demo repository: the first screen at 60x15, 80x24 and 200x60 in both themes;
an entry beside its previous entries at 140x45; and at 80x24 while loading, with the
help open, with an error, asking to leave, and with nothing changed.

The demo repository is built with pinned dates and identities, so its commits (shown on
screen) are the same on every run; the screen shows the changelog's name, never its
temporary path. The cursor does not blink and the loading indicator does not animate.
Regenerate after an intended change with ``pytest tests/tui/test_tui_snapshots.py
--snapshot-update`` and look at the SVGs before committing them.
"""

from __future__ import annotations

import subprocess
from collections.abc import Awaitable, Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea
from tui_helpers import SNAPSHOT_TEXTUAL, app_for, build, settle

from changelog_tool.tui import app as app_module
from changelog_tool.tui.app import AddApp

pytestmark = pytest.mark.skipif(
    metadata.version("textual") != SNAPSHOT_TEXTUAL,
    reason=f"the snapshots are drawn with Textual {SNAPSHOT_TEXTUAL}",
)

TINY, SMALL, LARGE, HUGE = (60, 15), (80, 24), (140, 45), (200, 60)
Compare = Callable[..., bool]


@pytest.fixture(autouse=True)
def _dark_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLORFGBG", raising=False)


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return build(tmp_path).root


def steady(app: AddApp, theme: str) -> None:
    app.theme = theme
    app.animation_level = "none"
    for field in app.query("Input, TextArea"):
        assert isinstance(field, Input | TextArea)
        field.cursor_blink = False


def loaded(theme: str = "textual-dark") -> Callable[[Pilot[Any]], Awaitable[None]]:
    async def run_before(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, AddApp)
        steady(pilot.app, theme)
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("theme", ["textual-dark", "textual-light"])
@pytest.mark.parametrize("size", [TINY, SMALL, HUGE], ids=["60x15", "80x24", "200x60"])
def test_the_first_screen(
    snap_compare: Compare, root: Path, theme: str, size: tuple[int, int]
) -> None:
    assert snap_compare(app_for(root), terminal_size=size, run_before=loaded(theme))


def test_the_key_list_with_the_focus_in_the_light_theme(snap_compare: Compare, root: Path) -> None:
    assert snap_compare(
        app_for(root), press=["shift+tab", "shift+tab", "down"], run_before=loaded("textual-light")
    )


class StillLoading(AddApp):
    """The app as it is before the diff arrives: the worker that brings it is not
    started, so the screenshot cannot race it."""

    CSS_PATH = str(Path(app_module.__file__).with_name("app.tcss"))

    def load_changes(self) -> None:  # type: ignore[override]
        return None


def test_loading(snap_compare: Compare, root: Path) -> None:
    real = app_for(root)
    app = StillLoading(real.session.settings, real.session.path)

    async def run_before(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, AddApp)
        steady(pilot.app, "textual-dark")
        await pilot.pause()

    assert snap_compare(app, run_before=run_before)


def test_help(snap_compare: Compare, root: Path) -> None:
    assert snap_compare(app_for(root), press=["f1"], run_before=loaded())


def test_an_error_not_saved(snap_compare: Compare, root: Path) -> None:
    assert snap_compare(app_for(root), press=["ctrl+s"], run_before=loaded())


def test_an_entry_and_its_previous_entries(snap_compare: Compare, root: Path) -> None:
    press = [*"Add Kimi-K3 B300 agentic", "enter", *"GPT-OSS MI355X nightly", "f2"]
    assert snap_compare(app_for(root), press=press, terminal_size=LARGE, run_before=loaded())


def test_the_preview_behind_f2_on_a_short_screen(snap_compare: Compare, root: Path) -> None:
    press = [*"Add Kimi-K3 B300 agentic", "f2"]
    assert snap_compare(app_for(root), press=press, terminal_size=(60, 15), run_before=loaded())


def test_leaving_with_text_asks_first(snap_compare: Compare, root: Path) -> None:
    assert snap_compare(app_for(root), press=[*"Half written", "escape"], run_before=loaded())


def test_nothing_changed(snap_compare: Compare, root: Path) -> None:
    subprocess.run(["git", "checkout", "-q", "main"], cwd=root, check=True)
    assert snap_compare(app_for(root), run_before=loaded())
