"""The Textual TUI. The only package that imports Textual."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from changelog_tool.errors import UsageError


def run_add(*, settings: Any, path: Path, base: str | None, prefill: dict[str, Any],
            init: bool) -> int:
    raise UsageError("the interactive `changelog add` is not implemented yet; "
                     "pass --key and --description (or --no-input)")
