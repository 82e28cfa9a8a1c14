"""The demo repository: realistic, committed with real git."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from changelog_tool.demo import sandbox
from changelog_tool.errors import UsageError
from changelog_tool.findings import has_errors
from changelog_tool.ledger.filecheck import check_file


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def masters(root: Path, rev: str | None = None) -> dict[str, dict[str, object]]:
    keys: dict[str, dict[str, object]] = {}
    for name in ("configs/nvidia-master.yaml", "configs/amd-master.yaml"):
        text = git(root, "show", f"{rev}:{name}") if rev else (root / name).read_text()
        keys.update(YAML(typ="safe").load(text))
    return keys


@pytest.fixture(scope="module")
def box(tmp_path_factory: pytest.TempPathFactory) -> sandbox.Sandbox:
    return sandbox.build(tmp_path_factory.mktemp("demo") / "repo")


def test_two_master_files_hold_about_a_dozen_keys_each_with_both_scenario_types(
    box: sandbox.Sandbox,
) -> None:
    for name in ("configs/nvidia-master.yaml", "configs/amd-master.yaml"):
        text = (box.root / name).read_text()
        keys = YAML(typ="safe").load(text)
        assert 10 <= len(keys) <= 15
        assert "\n  # " in text  # comments, as in the real files
    scenarios = {s for v in masters(box.root).values() for s in v["scenarios"]}  # type: ignore[attr-defined]
    assert scenarios == {"fixed-seq-len", "agentic-coding"}


def test_every_recipe_reference_points_at_a_file_in_the_recipe_tree(box: sandbox.Sandbox) -> None:
    text = "".join((box.root / f"configs/{v}-master.yaml").read_text() for v in ("nvidia", "amd"))
    references = re.findall(r'"CONFIG_FILE=recipes/([^"]+)"', text)
    assert len(references) >= 4
    for reference in references:
        assert (box.root / "benchmarks/multi_node/srt-slurm-recipes" / reference).is_file()


def test_main_has_history_and_a_valid_changelog(box: sandbox.Sandbox) -> None:
    log = git(box.root, "log", "--format=%s", sandbox.BASE).splitlines()
    assert len(log) >= 3 and all("(#" in subject for subject in log)
    data = git(box.root, "show", f"{sandbox.BASE}:perf-changelog.yaml").encode()
    report = check_file(data, "perf-changelog.yaml")
    assert not has_errors(report.findings) and len(report.items) >= 4
    assert (box.root / "perf-changelog.yaml").read_bytes() == data  # the branch adds no entry


def test_the_branch_adds_a_key_changes_image_and_scenarios_and_edits_a_recipe(
    box: sandbox.Sandbox,
) -> None:
    assert git(box.root, "branch", "--show-current").strip() == sandbox.BRANCH
    assert git(box.root, "status", "--porcelain") == ""
    before, after = masters(box.root, sandbox.BASE), masters(box.root)
    assert set(after) - set(before) == {"kimik3-fp4-b300-dynamo-vllm-agentic"}
    changed = {k for k in before if before[k] != after[k]}
    assert changed == {"gptoss-fp4-mi355x-vllm"}
    old, new = before["gptoss-fp4-mi355x-vllm"], after["gptoss-fp4-mi355x-vllm"]
    assert old["image"] != new["image"] and old["scenarios"] != new["scenarios"]
    names = git(box.root, "diff", "--name-status", sandbox.BASE).splitlines()
    assert (
        "M\tbenchmarks/multi_node/srt-slurm-recipes/vllm/kimi-k3/agentic/agg-b200-tp8pp2-agentic.yaml"
        in names
    )
    assert (
        "A\tbenchmarks/multi_node/srt-slurm-recipes/vllm/kimi-k3/agentic/agg-b300-tp8pp2-agentic.yaml"
        in names
    )


def test_the_repository_is_the_same_every_time(box: sandbox.Sandbox, tmp_path: Path) -> None:
    again = sandbox.build(tmp_path / "again")
    assert git(again.root, "rev-parse", "HEAD") == git(box.root, "rev-parse", "HEAD")


def test_a_non_empty_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "file").write_text("mine")
    with pytest.raises(UsageError, match="not empty"):
        sandbox.build(tmp_path / "taken")
