"""A non-editable install ships every subpackage: pyproject lists them all."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "changelog_tool").rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)
