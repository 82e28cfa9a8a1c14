"""`changelog demo` (not implemented yet)."""

from __future__ import annotations

import argparse

from changelog_tool.errors import UsageError


def configure(parser: argparse.ArgumentParser) -> None:
    pass


def run() -> int:
    raise UsageError("`changelog demo` is not implemented yet")
