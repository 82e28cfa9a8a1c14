"""The TUI's last line names the changelog as the other commands do: relative to the
current folder (``hints.relative``), not by its absolute path."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_helpers import SIZE, app_for, build, settle, synchronous


@synchronous
async def test_the_saved_entry_names_the_changelog_relative_to_the_current_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    box = build(tmp_path)
    monkeypatch.chdir(box.root)
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"Add Kimi-K3 B300 agentic", "enter", *"Nightly image for GPT-OSS")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 0
    name = box.changelog.relative_to(box.root).as_posix()
    assert app.return_value.message.startswith(f"appended 1 entry to {name} at line ")
