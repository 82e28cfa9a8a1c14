"""The project's own perf-changelog.yaml is managed with the tool and must stay sound."""

from __future__ import annotations

from conftest import ROOT

from changelog_tool.ledger.entry import matching_keys
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.yaml.strict import load_value


def test_the_projects_changelog_passes_verify_file() -> None:
    data = (ROOT / "perf-changelog.yaml").read_bytes()
    assert check_file(data, "perf-changelog.yaml").findings == []


def test_every_pattern_names_a_benchmark_of_the_project() -> None:
    benchmarks = load_value((ROOT / "benchmarks" / "perf-master.yaml").read_bytes())
    assert isinstance(benchmarks, dict) and benchmarks
    for entry in load_value((ROOT / "perf-changelog.yaml").read_bytes()):
        for pattern in entry["config-keys"]:
            assert matching_keys(pattern, benchmarks), pattern
    for spec in benchmarks.values():
        assert (ROOT / spec["script"]).is_file(), spec["script"]
