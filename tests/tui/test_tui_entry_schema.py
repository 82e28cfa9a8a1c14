"""The add screen's rows come from the entry schema: a flag and a scenario type the
repository's schema file adds (the ``entry-schema`` setting) get their own ticks, the
flag's tooltip is the schema's description, and ticking it writes it."""

from __future__ import annotations

import json
from collections.abc import Callable
from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Checkbox, Input, TextArea
from tui_helpers import SIZE, SNAPSHOT_TEXTUAL, app_for, build, screen_text, settle, synchronous

from changelog_tool.tui.app import AddApp
from changelog_tool.tui.screens import HelpScreen

SCHEMA = ".github/perf-changelog.schema.json"
ABOUT = "the CI replays each conversation turn by turn"


def extended(tmp_path: Path) -> Path:
    """The demo repository, with a schema file that adds the flag ``multi-turn`` and
    the scenario type ``long-context``, named by its settings (in the work tree)."""
    root = build(tmp_path).root
    schema = {
        "properties": {
            "multi-turn": {"type": "boolean", "description": ABOUT},
            "scenario-type": {"items": {"enum": ["long-context"]}},
        }
    }
    (root / ".github").mkdir(exist_ok=True)
    (root / SCHEMA).write_text(json.dumps(schema))
    settings = root / ".perf-changelog.toml"
    settings.write_text(settings.read_text() + f'entry-schema = "{SCHEMA}"\n')
    return root


@synchronous
async def test_the_form_shows_the_added_flag_and_scenario_type_and_writes_the_flag(
    tmp_path: Path,
) -> None:
    app = app_for(extended(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        tick = app.query_one("#flag-multi-turn", Checkbox)
        assert tick.tooltip == ABOUT
        assert app.query_one("#scenario-long-context", Checkbox)
        flags = [t.id for t in app.query(Checkbox) if t.id and t.id.startswith("flag-")]
        assert flags == [
            "flag-evals-only",
            "flag-all-evals",
            "flag-no-evals",
            "flag-append-only",
            "flag-multi-turn",
        ]
        assert "multi-turn" in screen_text(app)
        app.query_one("#description", TextArea).load_text("Replay turns")
        tick.value = True
        await pilot.pause()
        draft = app.current_draft()
        assert draft.flags == ["multi-turn"]
        preview = app.session.preview(draft)
        assert preview.appended and not preview.problems, preview.problems
        assert preview.appended.endswith(b"  pr-link: XXX\n  multi-turn: true\n")
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = app.screen.query_one("Markdown").source  # type: ignore[attr-defined]
        assert f"(from the entry schema, {SCHEMA}):" in text
        assert f"  - `multi-turn`: {ABOUT}" in text
        assert "  - `evals-only`: the CI runs only the evals of the matched configs" in text


@synchronous
async def test_without_the_setting_the_form_has_the_built_in_rows_only(tmp_path: Path) -> None:
    app = app_for(build(tmp_path).root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.query("#flag-multi-turn") and not app.query("#scenario-long-context")
        assert app.query_one("#number-eval-min-prefill-ep", Input)


@pytest.mark.skipif(
    metadata.version("textual") != SNAPSHOT_TEXTUAL,
    reason=f"the snapshots are drawn with Textual {SNAPSHOT_TEXTUAL}",
)
def test_the_added_rows_snapshot(
    snap_compare: Callable[..., bool], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLORFGBG", raising=False)

    async def run_before(pilot: Pilot[Any]) -> None:
        app = pilot.app
        assert isinstance(app, AddApp)
        app.animation_level = "none"
        for field in app.query("Input, TextArea"):
            assert isinstance(field, Input | TextArea)
            field.cursor_blink = False
        await settle(pilot)

    assert snap_compare(app_for(extended(tmp_path)), terminal_size=(140, 45), run_before=run_before)
