"""A non-editable install ships every subpackage: pyproject lists them all."""

from __future__ import annotations

import tomllib

from conftest import ROOT


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "changelog_tool").rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)


def test_the_version_is_written_once() -> None:
    """pyproject takes it from the package, so the installed metadata, ``--version``
    and a release tag (the release workflow checks ``v<version>``) cannot disagree."""
    from importlib import metadata

    import changelog_tool

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    dynamic = project["tool"]["setuptools"]["dynamic"]["version"]
    assert dynamic == {"attr": "changelog_tool.__version__"}
    assert metadata.version("perf-changelog") == changelog_tool.__version__


def test_no_home_page_is_claimed() -> None:
    """The project names no URL it has not verified (none is published)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert "urls" not in project


def test_the_readme_is_read_in_one_sitting_and_names_no_made_up_home() -> None:
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) <= 200
    assert "github.com/perf-changelog" not in readme and "@v0.1.0" not in readme


def test_the_snapshot_textual_is_the_one_the_test_extra_pins() -> None:
    from tui_helpers import SNAPSHOT_TEXTUAL

    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert f"textual=={SNAPSHOT_TEXTUAL}" in [
        r.split(";")[0].split("#")[0].strip() for r in extra["optional-dependencies"]["test"]
    ]
