"""What the add screen looks like at 80x24, as text snapshots (tests/snapshots/*.txt).

Regenerate after an intended change with ``UPDATE_SNAPSHOTS=1 pytest tests/test_tui_screens.py``
and read the diff before committing it.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from test_tui_helpers import SIZE, app_for, build, screen_text, settle, synchronous
from textual.pilot import Pilot

SNAPSHOTS = Path(__file__).parent / "snapshots"


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text + "\n", encoding="utf-8")
    assert path.is_file(), f"no snapshot {path}; run with UPDATE_SNAPSHOTS=1 to create it"
    expected = path.read_text(encoding="utf-8").rstrip("\n")
    assert text == expected, f"the screen differs from {path.name}:\n{text}"


async def shot(root: Path, steps: Callable[[Pilot[Any]], Awaitable[None]] | None = None) -> str:
    app = app_for(root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        if steps is not None:
            await steps(pilot)
            await pilot.pause()
        text = screen_text(app)
        app.exit()
    assert len(text.splitlines()) == SIZE[1]
    assert max(len(line) for line in text.splitlines()) <= SIZE[0]
    return text


@pytest.fixture
def root(tmp_path: Path) -> Path:
    return build(tmp_path).root


@synchronous
async def test_the_first_screen_lists_the_changed_keys_and_previews_the_entry(root: Path) -> None:
    assert_snapshot("first-screen", await shot(root))


@synchronous
async def test_a_written_entry_and_its_previous_entries(root: Path) -> None:
    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.press(*"Add Kimi-K3 B300 agentic", "enter", *"GPT-OSS MI355X nightly")
        await pilot.press("f2")

    assert_snapshot("history", await shot(root, steps))


@synchronous
async def test_leaving_with_text_asks_first(root: Path) -> None:
    async def steps(pilot: Pilot[Any]) -> None:
        await pilot.press(*"Half written", "escape")

    assert_snapshot("confirm-leave", await shot(root, steps))


@synchronous
async def test_nothing_changed(root: Path) -> None:
    subprocess.run(["git", "checkout", "-q", "main"], cwd=root, check=True)
    assert_snapshot("nothing-changed", await shot(root))
