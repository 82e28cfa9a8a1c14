from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from changelog_tool import settings
from changelog_tool.errors import UsageError


def test_no_settings_gives_inferencex_defaults(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # a real repository
    (tmp_path / "configs").mkdir()
    loaded = settings.load(tmp_path / "configs")
    assert loaded.root == tmp_path.resolve()
    assert loaded.changelog_path == tmp_path.resolve() / "perf-changelog.yaml"
    assert loaded.master_configs == ("configs/*-master.yaml", ".github/configs/*-master.yaml")
    assert loaded.protected_ref == ("origin/main", "main")
    assert settings.is_placeholder("XXX", loaded.placeholders)
    assert settings.is_placeholder("https://github.com/o/r/pull/XXX", loaded.placeholders)
    assert not settings.is_placeholder("https://github.com/o/r/pull/12", loaded.placeholders)


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


def test_settings_read_from_bytes_go_through_the_same_validation(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # a real repository
    files = {tmp_path / "pyproject.toml": b'[tool.perf-changelog]\nchangelog = "c.yaml"\n'}
    loaded = settings.load(tmp_path, read=files.get, origin="at the base 1a2b3c")
    assert loaded.changelog == "c.yaml" and loaded.root == tmp_path.resolve()
    assert (
        loaded.source == f"{tmp_path / 'pyproject.toml'} [tool.perf-changelog] at the base 1a2b3c"
    )
    files = {tmp_path / ".perf-changelog.toml": b"changelog-path = 1\n"}
    with pytest.raises(UsageError, match=r"unknown setting 'changelog-path'"):
        settings.load(tmp_path, read=files.get)


def test_no_settings_file_at_all_gives_the_defaults_from_bytes_too(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # a real repository
    loaded = settings.load(tmp_path, read={}.get)
    assert loaded.source is None and loaded.changelog == "perf-changelog.yaml"


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('changelog = "../perf-changelog.yaml"\n', "changelog"),
        ('changelog = "/etc/passwd"\n', "changelog"),
        ('changelog = ""\n', "changelog"),
        ('master-configs = ["configs/../../*.yaml"]\n', "master-configs"),
        ('master-configs = ["/abs/*-master.yaml"]\n', "master-configs"),
        ('recipe-dirs = ["../recipes/"]\n', "recipe-dirs"),
        ('recipe-prefixes = {"recipes/" = "/srv/recipes/"}\n', "recipe-prefixes"),
        ('changelog = "C:/log.yaml"\n', "changelog"),
    ],
)
def test_a_configured_path_outside_the_repository_is_refused(
    tmp_path: Path, text: str, name: str
) -> None:
    (tmp_path / ".perf-changelog.toml").write_text(text)
    with pytest.raises(UsageError, match=rf"setting '{name}'.*leads outside the repository"):
        settings.load(tmp_path)


def test_a_protected_ref_that_reads_as_an_option_is_refused(tmp_path: Path) -> None:
    (tmp_path / ".perf-changelog.toml").write_text('protected-ref = ["--output=x"]\n')
    with pytest.raises(UsageError, match=r"setting 'protected-ref'"):
        settings.load(tmp_path)


@pytest.mark.parametrize(
    ("file", "text", "said"),
    [
        (".perf-changelog.toml", "repository = 5\n", "'repository' in .* must be a string$"),
        (".perf-changelog.toml", "master-configs = 5\n", "must be a list of strings$"),
        (".perf-changelog.toml", "protected-ref = []\n", "needs at least one ref"),
        (".perf-changelog.toml", 'placeholders = [""]\n', "none empty"),
        (".perf-changelog.toml", 'repository = "not a repo"\n', "is not owner/name"),
        (".perf-changelog.toml", "max-bytes = 5.0\n", "a whole number of bytes"),
        (".perf-changelog.toml", "lock-timeout = true\n", "a number of seconds"),
        (".perf-changelog.toml", 'severity = {"key-style" = 1}\n', "a table of strings$"),
        (".perf-changelog.toml", '\ufeffchangelog = "c.yaml"\n', "byte-order mark"),
        ("pyproject.toml", "[tool]\nperf-changelog = 5  # not [tool.perf-changelog]\n", "a table"),
    ],
)
def test_a_bad_setting_is_refused_with_what_it_must_be(
    tmp_path: Path, file: str, text: str, said: str
) -> None:
    (tmp_path / file).write_text(text, encoding="utf-8")
    with pytest.raises(UsageError, match=said):
        settings.load(tmp_path)


def test_every_setting_reaches_the_settings(tmp_path: Path) -> None:
    """Each known setting, given a value other than its default, is read into its field."""
    given = {
        "changelog": '"log.yaml"',
        "master-configs": '["m/*.yaml"]',
        "recipe-prefixes": '{"a/" = "b/"}',
        "recipe-dirs": '["r/"]',
        "protected-ref": '["trunk"]',
        "repository": '"a/b"',
        "placeholders": '["TODO"]',
        "duplicate-entry": '"error"',
        "correction": '"error"',
        "format": '"error"',
        "severity": '{"key-style" = "off"}',
        "lock-timeout": "5",
        "max-bytes": "1000",
        "entry-schema": '"s.json"',
        "fill-before-merge": "true",
    }
    assert set(given) == set(settings.KNOWN)
    text = "".join(f"{name} = {value}\n" for name, value in given.items())
    read = settings.parse(settings.Found(tmp_path, settings.DOTFILE, text.encode()))
    default = settings.Settings(root=tmp_path)
    for name in settings.KNOWN:
        attr = name.replace("-", "_")
        assert getattr(read, attr) != getattr(default, attr), name
    assert (read.lock_timeout, read.max_bytes, read.severity) == (5.0, 1000, {"key-style": "off"})


def test_the_schema_names_each_lint_that_has_a_default_severity() -> None:
    """``[severity]`` takes the codes of the settings' schema; each lint's default
    severity must be settable there."""
    assert tuple(settings.DEFAULT_SEVERITY) == settings.LINT_CODES
