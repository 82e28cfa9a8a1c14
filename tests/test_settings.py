from __future__ import annotations

from pathlib import Path

import pytest

from changelog_tool import settings
from changelog_tool.errors import UsageError


def test_no_settings_gives_inferencex_defaults(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "configs").mkdir()
    loaded = settings.load(tmp_path / "configs")
    assert loaded.root == tmp_path.resolve()
    assert loaded.changelog_path == tmp_path.resolve() / "perf-changelog.yaml"
    assert loaded.master_configs == ("configs/*-master.yaml", ".github/configs/*-master.yaml")
    assert loaded.protected_ref == ("origin/main", "main")
    assert loaded.is_placeholder("XXX")
    assert loaded.is_placeholder("https://github.com/o/r/pull/XXX")
    assert not loaded.is_placeholder("https://github.com/o/r/pull/12")


def test_pyproject_table_is_read(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.perf-changelog]\nchangelog = "docs/changes.yaml"\n'
        'master-configs = ["bench/*.yaml"]\nduplicate-entry = "error"\n'
    )
    loaded = settings.load(tmp_path)
    assert loaded.changelog == "docs/changes.yaml"
    assert loaded.master_configs == ("bench/*.yaml",)
    assert loaded.duplicate_entry == "error"
    assert loaded.source is not None and "pyproject.toml" in loaded.source


def test_the_dotfile_wins_and_is_found_from_a_subfolder(tmp_path: Path) -> None:
    (tmp_path / ".perf-changelog.toml").write_text('placeholders = ["TBD", "XXX"]\n')
    (tmp_path / "sub").mkdir()
    loaded = settings.load(tmp_path / "sub")
    assert loaded.placeholders == ("TBD", "XXX")
    assert loaded.placeholder_link() == "TBD"


def test_an_unknown_setting_is_an_error_naming_it(tmp_path: Path) -> None:
    (tmp_path / ".perf-changelog.toml").write_text('changelog-path = "x.yaml"\n')
    with pytest.raises(UsageError, match=r"unknown setting 'changelog-path'.*known settings"):
        settings.load(tmp_path)


@pytest.mark.parametrize(
    "text",
    [
        'master-configs = "configs/*.yaml"\n',
        'duplicate-entry = "sometimes"\n',
        "placeholders = []\n",
        "changelog = [\n",
    ],
)
def test_a_badly_typed_setting_is_an_error(tmp_path: Path, text: str) -> None:
    (tmp_path / ".perf-changelog.toml").write_text(text)
    with pytest.raises(UsageError):
        settings.load(tmp_path)
