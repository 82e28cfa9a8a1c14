"""Helpers shared by the TUI tests (no tests here): the app from the same factory `changelog add`
uses, on a demo repository built with real git, and the screen as plain text."""

from __future__ import annotations

import asyncio
import functools
import io
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot

from changelog_tool import settings as settings_module
from changelog_tool.demo import sandbox
from changelog_tool.tui.app import AddApp, make_app

SIZE = (80, 24)


def build(tmp_path: Path) -> sandbox.Sandbox:
    return sandbox.build(tmp_path / "demo")


def app_for(root: Path, **prefill: Any) -> AddApp:
    settings = settings_module.load(root)
    return make_app(settings, settings.changelog_path, prefill=prefill)


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the diff worker (started after the first paint) has delivered its
    result, and for the screen updates it causes."""
    app = pilot.app
    assert isinstance(app, AddApp)
    for _ in range(600):
        if app.loaded is not None:
            break
        await pilot.pause(0.05)
    assert app.loaded is not None, "the changed keys never arrived"
    await app.workers.wait_for_complete()
    await pilot.pause()
    await pilot.pause()


def screen_text(app: AddApp) -> str:
    """The screen as text, the way a person reads it (no colours)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        color_system=None,
        legacy_windows=False,
        safe_box=False,
    )
    console.print(
        app.screen._compositor.render_update(  # the same call as a screenshot
            full=True, screen_stack=app._background_screens
        )
    )
    return "\n".join(line.rstrip() for line in console.export_text().splitlines())


def synchronous(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test with asyncio (fixtures still come by name)."""

    @functools.wraps(test)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        asyncio.run(test(*args, **kwargs))

    return wrapper
