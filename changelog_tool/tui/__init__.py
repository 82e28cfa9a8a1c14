"""The Textual TUI, the only package that imports Textual. See docs/design.md, "Layering,
checked"."""

from __future__ import annotations

import sys
from pathlib import Path

from changelog_tool.authoring.drafts import Draft
from changelog_tool.settings import Settings
from changelog_tool.tui.app import AddApp
from changelog_tool.tui.leaving import LEFT_CODE, Outcome


def run_add(
    *, settings: Settings, path: Path, base: str | None, prefill: Draft | None = None, init: bool
) -> int:
    """Open the add screen; the exit code: 0 saved, 1 left, 130 ctrl+c/SIGINT, 143 SIGTERM, 129
    SIGHUP (see :mod:`.leaving`). An unhandled exception is raised once the terminal is
    restored."""
    app = AddApp(settings, path, base=base, prefill=prefill, init=init)
    outcome = app.run()
    if app.crashed is not None:  # a bug: for the CLI's error boundary (exit 2)
        raise app.crashed
    if outcome is None:  # the app stopped without an answer (e.g. killed)
        outcome = Outcome(LEFT_CODE, f"nothing was written to {path}")
    print(
        outcome.message if outcome.code == 0 else f"changelog: {outcome.message}",
        file=sys.stdout if outcome.code == 0 else sys.stderr,
    )
    return outcome.code
