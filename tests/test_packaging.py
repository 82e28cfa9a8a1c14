"""A non-editable install ships every subpackage: pyproject lists them all."""

from __future__ import annotations

import glob
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest
from conftest import ROOT

from changelog_tool.cli import main


def test_every_subpackage_is_listed_for_the_wheel() -> None:
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    found = {
        ".".join(p.parent.relative_to(ROOT).parts)
        for p in (ROOT / "changelog_tool").rglob("__init__.py")
    }
    assert found <= listed, sorted(found - listed)


def test_every_data_file_in_the_package_is_listed_for_the_wheel() -> None:
    """setuptools globs package-data as ``glob`` does: ``*`` skips dotfiles."""
    settings = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    listed = {
        Path(path)
        for package, patterns in settings["package-data"].items()
        for pattern in patterns
        for path in glob.glob(str(ROOT / package.replace(".", "/") / pattern), recursive=True)
    }
    data = {
        p
        for p in (ROOT / "changelog_tool").rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc")
    }
    assert data <= listed, sorted(str(p.relative_to(ROOT)) for p in data - listed)


def test_the_version_comes_from_git_in_one_place() -> None:
    """The build takes it from git (setuptools-scm); the package and ``--version``
    read the installed metadata, so none of them can disagree with a release tag."""
    from importlib import metadata

    import changelog_tool

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    project = pyproject["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert "dynamic" not in pyproject["tool"]["setuptools"]
    assert any(r.startswith("setuptools-scm") for r in pyproject["build-system"]["requires"])
    assert pyproject["tool"]["setuptools_scm"]["fallback_version"]
    assert metadata.version("perf-changelog") == changelog_tool.__version__
    assert "__version__ =" not in (ROOT / "changelog_tool" / "__init__.py").read_text()


def test_version_shows_the_installed_version(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib import metadata

    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"changelog {metadata.version('perf-changelog')}\n"


def test_a_tag_names_the_version_and_a_later_commit_a_dev_version_with_its_hash(
    tmp_path: Path,
) -> None:
    """What the build computes from this pyproject's settings, in a repository with
    and without a tag (and with no git history at all: the fallback)."""
    scm = pytest.importorskip("setuptools_scm")
    repo = tmp_path / "repo"
    repo.mkdir()
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")

    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
        return done.stdout.decode().strip()

    def version() -> str:
        config = scm.Configuration.from_file(str(repo / "pyproject.toml"), root=str(repo))
        return str(scm.get_version(root=str(repo), fallback_version=config.fallback_version))

    fallback = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools_scm"]
    assert version() == fallback["fallback_version"]  # no git history
    git("init", "-q")
    git("add", "-A")
    git("commit", "-qm", "first")
    assert version().startswith(f"0.1.1.dev1+g{git('rev-parse', '--short=7', 'HEAD')}")
    git("tag", "v1.2.3")
    assert version() == "1.2.3"
    (repo / "more").write_text("x")
    git("add", "more")
    git("commit", "-qm", "second")
    assert version().startswith(f"1.2.4.dev1+g{git('rev-parse', '--short=7', 'HEAD')}")


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
