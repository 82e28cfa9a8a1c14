"""`changelog add --json` refuses a value the changelog cannot hold, naming the field,
with exit 1 (never exit 2, "internal error"), and writes nothing; a whole number is
appended as a YAML integer. Runs the command in a real checkout directory."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from projects import run
from test_add_command import OLD, write_masters
from yaml_oracles import assert_both_read


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    root = tmp_path / "checkout"
    root.mkdir()
    (root / "perf-changelog.yaml").write_bytes(OLD.encode())
    (root / ".perf-changelog.toml").write_text('repository = "SemiAnalysisAI/InferenceX"\n')
    write_masters(root)
    return root


def add_json(root: Path, ep: str) -> subprocess.CompletedProcess[str]:
    return add_stdin(
        root, f'{{"config-keys": ["a"], "description": ["d"], "eval-min-prefill-ep": {ep}}}'
    )


def add_stdin(root: Path, stdin: str) -> subprocess.CompletedProcess[str]:
    return run(root, "add", "--json", stdin=stdin)


@pytest.mark.parametrize(
    ("ep", "says"),
    [
        ("1.0", "1.0 is not an integer: write it as 1 (no decimal point or exponent)"),
        ("1e3", "1000.0 is not an integer: write it as 1000 (no decimal point or exponent)"),
        ("2.5", "2.5 is not an integer: write a whole number such as 1"),
        ("NaN", "nan is not an integer: write a whole number such as 1"),
        ("true", "true is a boolean, not an integer: write a whole number such as 1"),
        ('"2"', "'2' is a string, not an integer: write it as 2, without quotes"),
        ("0", "0 is less than the minimum of 1"),
        ("-1", "-1 is less than the minimum of 1"),
    ],
)
def test_a_value_that_is_not_a_whole_number_from_one_is_refused_naming_the_field(
    checkout: Path, ep: str, says: str
) -> None:
    result = add_json(checkout, ep)
    assert result.returncode == 1, result.stderr
    assert "refused" in result.stderr and f"eval-min-prefill-ep: {says}" in result.stderr
    assert "internal error" not in result.stderr
    assert (checkout / "perf-changelog.yaml").read_bytes() == OLD.encode()


def test_a_whole_number_is_appended_as_an_integer(checkout: Path) -> None:
    result = add_json(checkout, "2")
    assert result.returncode == 0, result.stderr
    data = (checkout / "perf-changelog.yaml").read_bytes()
    assert data.startswith(OLD.encode()) and data.endswith(b"\n  eval-min-prefill-ep: 2\n")
    assert_both_read(
        data[len(OLD) + 1 :],
        [{"config-keys": ["a"], "description": ["d"], "pr-link": "XXX", "eval-min-prefill-ep": 2}],
    )


def test_a_field_given_twice_in_one_object_is_refused_not_overwritten(checkout: Path) -> None:
    stdin = '{"config-keys": ["a"], "description": ["first"], "description": ["second"]}'
    result = add_stdin(checkout, stdin)
    assert result.returncode != 0 and "'description' is given twice" in result.stderr
    assert (checkout / "perf-changelog.yaml").read_bytes() == OLD.encode()
