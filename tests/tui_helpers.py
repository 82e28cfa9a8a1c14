"""Helpers shared by the TUI tests (no tests here): the app from the same factory `changelog add`
uses, on a demo repository built with real git, and the screen as plain text."""

from __future__ import annotations

import asyncio
import functools
import html
import re
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from conftest import GitRepo
from textual.app import App
from textual.pilot import Pilot

from changelog_tool import settings as settings_module
from changelog_tool.authoring.drafts import Draft
from changelog_tool.demo import sandbox
from changelog_tool.tui.app import AddApp
from changelog_tool.tui.keys import KeyPicker

SIZE = (80, 24)

SNAPSHOT_TEXTUAL = "8.2.8"
"""The Textual the SVGs of ``test_tui_snapshots.py`` are drawn with (pinned in the test
extra): another version draws other pixels, so under it (CI's lowest-versions job)
those tests skip."""


ONE_ENTRY = '- config-keys:\n    - a-b200-vllm\n  description:\n    - "Add a"\n  pr-link: XXX\n'
"""The history of :func:`repository`: one entry, for ``a-b200-vllm``."""


def repository(repo: GitRepo, master: str) -> GitRepo:
    """``repo`` with ``master`` as its one master config and :data:`ONE_ENTRY` on main;
    checked out, the branch ``feature``."""
    repo.commit(
        "base",
        **{
            "configs/nvidia-master.yaml": master,
            "perf-changelog.yaml": ONE_ENTRY,
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def build(tmp_path: Path) -> sandbox.Sandbox:
    return sandbox.build(tmp_path / "demo")


def app_for(root: Path, **prefill: Any) -> AddApp:
    settings = settings_module.load(root)
    return AddApp(settings, settings.changelog_path, prefill=Draft(**prefill))


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the diff worker (started after the first paint) has delivered its
    result, and for the screen updates it causes."""
    app = pilot.app
    assert isinstance(app, AddApp)
    for _ in range(600):
        if app.session.loaded is not None:
            break
        await pilot.pause(0.05)
    assert app.session.loaded is not None, "the changed keys never arrived"
    await app.workers.wait_for_complete()
    await pilot.pause()
    masters = set(app.session.master_keys)
    picker = app.query_one(KeyPicker)
    for _ in range(100):  # the other master keys follow the changed ones
        if masters <= {row.key for row in picker.rows}:
            break
        await pilot.pause(0.02)
    await pilot.pause()


def screen_text(app: App[Any]) -> str:
    """The screen as text, the way a person reads it (no colours), read back from the
    app's own SVG screenshot: one ``<text>`` element per run of cells, placed by the
    clip path of its line and its x position (12.2 px a cell in Rich's SVG)."""
    width, height = app.size
    grid = [[" "] * width for _ in range(height)]
    for match in TEXT.finditer(app.export_screenshot()):
        x, line, text = float(match["x"]), int(match["line"]), html.unescape(match["text"])
        column = round(x / CELL)
        for offset, char in enumerate(text.replace("\xa0", " ")):
            if 0 <= line < height and column + offset < width:
                grid[line][column + offset] = char
    return "\n".join("".join(row).rstrip() for row in grid)


CELL = 12.2  # Rich's export_svg: char_width = font size 20 x 0.61
TEXT = re.compile(
    r'<text class="[^"]*" x="(?P<x>[\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#terminal-[\w-]*?line-(?P<line>\d+)\)">(?P<text>[^<]*)</text>'
)


def synchronous(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test with asyncio (fixtures still come by name)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper
