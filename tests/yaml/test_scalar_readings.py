"""The changelog and the master configs read a plain scalar the same way: as
ruamel.yaml's safe loader reads it (``yaml.items.plain_value``), the tool's YAML 1.2
reading of every file. ``1_000``, ``0x_1F`` and dates are numbers and dates to both
readers (and to PyYAML, the YAML 1.1 reader benchmark CI uses), never strings to one
and numbers to the other; a date that is no date is refused by both."""

from __future__ import annotations

import datetime
import json

import pytest
import yaml
from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, run

from changelog_tool.yaml import safeload, strict
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.values import same

SCALARS = [
    "1_000",
    "0x_1F",
    "2024-01-01",
    "2024-01-01 10:00:00",
    "0b11",
    "+0x1F",
    "1_0.5",
    "010",
    "0o17",
    "1e3",
    ".5",
    ".NaN",
    "-.inf",
    "~",
    "true",
    "yes",
    "1:20",
    "70b-fp8-vllm",
    "nemotron-fp8",
]


def master_reading(text: str) -> object:
    value = safeload.load(f"k: {text}\n".encode())
    assert isinstance(value, dict)
    return value["k"]


def changelog_reading(text: str) -> object:
    """The changelog reader's value of ``text`` as a config key."""
    block = f'- config-keys:\n    - {text}\n  description:\n    - "d"\n  pr-link: XXX\n'
    [entry] = strict.load_value(block.encode())
    return entry["config-keys"][0]


@pytest.mark.parametrize("text", SCALARS)
def test_the_changelog_reads_a_plain_scalar_as_the_master_configs_do(text: str) -> None:
    master = master_reading(text)
    value = changelog_reading(text)
    assert same(value, master), (value, master)


def test_underscores_hex_and_dates_are_what_yaml_1_1_reads_too() -> None:
    for text, value in [("1_000", 1000), ("0x_1F", 31), ("2024-01-01", datetime.date(2024, 1, 1))]:
        assert changelog_reading(text) == value == master_reading(text)
        assert yaml.safe_load(f"k: {text}")["k"] == value


def test_a_date_that_is_no_date_is_refused_by_both_readers() -> None:
    with pytest.raises(YamlProblem, match="not a valid one"):
        master_reading("2025-13-01")
    with pytest.raises(YamlProblem, match="not a valid one") as refused:
        changelog_reading("2025-13-01")
    assert (refused.value.code, refused.value.line) == ("yaml-syntax", 2)


def test_an_entry_with_1_000_passes_as_the_number_benchmark_ci_reads(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY})
    repo.git("checkout", "-q", "-b", "feature")
    own = (
        '- config-keys:\n    - a-vllm\n  description:\n    - "Evals from EP 1000"\n'
        "  pr-link: XXX\n  evals-only: true\n  eval-min-prefill-ep: 1_000\n"
    )
    repo.write(LOG, HISTORY + "\n" + own)
    done = run(repo, "verify", "--base", "main", "--format", "json")
    assert done.returncode == 0, done.stdout
    [appended] = json.loads(done.stdout)["appended"]
    assert appended["eval-min-prefill-ep"] == 1000
    dated = own.replace('"Evals from EP 1000"', "2024-01-01")  # a date, not text, to both
    repo.write(LOG, HISTORY + "\n" + dated)
    refused = run(repo, "verify", "--base", "main", "--format", "json")
    findings = json.loads(refused.stdout)["findings"]
    assert [f["code"] for f in findings if f["severity"] == "error"] == ["schema"]
    assert "is not of type 'string'" in findings[0]["message"]
