"""The settings in pyproject.toml are the ``tool.perf-changelog`` table of the parsed
TOML, however TOML spells it: never a byte search for the ``[tool.perf-changelog]``
header, which misses a table written as subtables, dotted keys or an inline table,
and finds one in a comment or a string."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, key_block, make_project, run

from changelog_tool import settings
from changelog_tool.errors import UsageError

SPELLINGS = {
    "a subtable alone": '[tool.perf-changelog.severity]\nkey-style = "error"\n',
    "dotted keys": 'tool.perf-changelog.severity.key-style = "error"\n',
    "dotted keys under [tool]": '[tool]\nperf-changelog.severity = { key-style = "error" }\n',
    "an inline table": '[tool]\nperf-changelog = { severity = { key-style = "error" } }\n',
    "quoted keys": '["tool".\'perf-changelog\'."severity"]\n"key-style" = "error"\n',
    "an escaped key": '[tool."perf\\u002Dchangelog".severity]\nkey-style = "error"\n',
}


@pytest.mark.parametrize("text", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_every_spelling_of_the_table_is_the_settings(tmp_path: Path, text: str) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # a real repository
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text(text + '\n[project]\nname = "x"\n')
    loaded = settings.load(tmp_path / "sub")
    assert loaded.root == (tmp_path / "sub").resolve()
    assert loaded.severity == {"key-style": "error"}


def test_the_header_in_a_comment_or_a_string_is_not_the_settings(tmp_path: Path) -> None:
    """A pyproject.toml that only mentions the header does not hide the settings of a
    folder above it."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # a real repository
    (tmp_path / ".perf-changelog.toml").write_text('placeholders = ["TBD"]\n')
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text(
        '# settings go in [tool.perf-changelog]\n[project]\ndescription = "[tool.perf-changelog]"\n'
    )
    loaded = settings.load(tmp_path / "sub")
    assert loaded.root == tmp_path.resolve() and loaded.placeholders == ("TBD",)


def test_a_pyproject_that_does_not_parse_is_refused_not_passed_over(tmp_path: Path) -> None:
    """It may hold the settings: the defaults must not silently apply instead."""
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # a real repository
    (tmp_path / "pyproject.toml").write_text('tool.perf-changelog.severity.key-style = "error\n')
    with pytest.raises(UsageError, match=r"cannot read settings in .*pyproject\.toml"):
        settings.load(tmp_path)


def test_the_bases_subtable_settings_make_the_gate_fail(repo: GitRepo) -> None:
    make_project(repo)
    repo.git("checkout", "-q", "main")
    repo.git("rm", "-q", ".perf-changelog.toml")
    repo.commit(
        "settings as a subtable",
        **{"pyproject.toml": '[tool.perf-changelog.severity]\nkey-style = "error"\n'},
    )
    repo.git("checkout", "-q", "feature")
    repo.git("merge", "-q", "--ff-only", "main")
    slipped = key_block("x1-vllm").replace("  runner: b200\n", "  runner: b200\n  max_seq: 8\n")
    repo.commit("a slip", **{NVIDIA: NVIDIA_TEXT + "\n" + slipped})
    done = run(repo, "lint", "--base", "main", "--format", "json")
    found = [(f["code"], f["severity"]) for f in json.loads(done.stdout)["findings"]]
    assert (done.returncode, found) == (1, [("key-style", "error")])
