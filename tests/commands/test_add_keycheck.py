"""`add` refuses what `verify` would fail: a pattern matching no master key, a
scenario type none of the matched keys has, or one that runs nothing for some of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from changelog_tool.cli import main

MASTER = """\
# NVIDIA configs
dsr1-fp4-b200-sglang:
  image: lmsysorg/sglang:v0.5.5
  scenarios:
    fixed-seq-len:
      - {isl: 1024, osl: 1024}
dsr1-fp8-h200-sglang:
  image: lmsysorg/sglang:v0.5.5
  scenarios:
    fixed-seq-len:
      - {isl: 1024, osl: 1024}
    agentic-coding:
      - {conc: 8}
"""
OLD = '- config-keys:\n    - dsr1*\n  description:\n    - "old"\n  pr-link: XXX\n'


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "checkout"
    (root / "configs").mkdir(parents=True)
    (root / "configs" / "nvidia-master.yaml").write_text(MASTER)
    (root / "perf-changelog.yaml").write_text(OLD)
    (root / ".git").mkdir()  # the root marker; these checks need no history
    monkeypatch.chdir(root)
    return root


def test_a_mistyped_key_is_refused_with_the_closest_key(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["add", "--key", "dsr1-fp4-b200-sglng", "--description", "d"]) == 1
    err = capsys.readouterr().err
    assert "'dsr1-fp4-b200-sglng' matches no key in configs/nvidia-master.yaml" in err
    assert "did you mean dsr1-fp4-b200-sglang?" in err
    assert (checkout / "perf-changelog.yaml").read_text() == OLD


def test_a_scenario_type_no_matched_key_has_is_refused(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        ["add", "--key", "dsr1-fp4-*", "--scenario-type", "agentic-coding", "--description", "d"]
    )
    assert code == 1
    assert "'agentic-coding' exists for none of the matched keys" in capsys.readouterr().err
    assert (checkout / "perf-changelog.yaml").read_text() == OLD


def test_a_scenario_type_some_matched_keys_lack_is_refused_for_those_keys(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """dsr1-fp4-b200-sglang has no agentic-coding scenario: the entry would run zero
    points for it (the benchmark CI runs only the named types)."""
    argv = ["add", "--key", "dsr1-*", "--scenario-type", "agentic-coding", "--description", "d"]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert "dsr1-fp4-b200-sglang has none of the named scenario types" in err
    assert "dsr1-fp8-h200-sglang" not in err
    assert (checkout / "perf-changelog.yaml").read_text() == OLD


def test_keys_and_scenarios_that_exist_are_appended(checkout: Path) -> None:
    assert (
        main(["add", "--key", "dsr1-*", "--scenario-type", "fixed-seq-len", "--description", "d"])
        == 0
    )
    assert (checkout / "perf-changelog.yaml").read_text().count("- config-keys:") == 2
