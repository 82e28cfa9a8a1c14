"""The CI glue runs as shipped: the action's script in a shallow PR checkout, the hooks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]
MASTER = "configs/nvidia-master.yaml"
KEY = (
    "{key}:\n  image: img:{tag}\n  model: m\n  runner: b200\n  precision: fp4\n"
    "  framework: vllm\n  multinode: false\n  scenarios:\n    fixed-seq-len:\n"
    "    - isl: 1024\n      osl: 1024\n      search-space:\n      - {{ tp: 8, conc-list: [4] }}\n"
)
ENTRY = (
    '- config-keys:\n    - {key}\n  description:\n    - "Add {key}"\n'
    "  pr-link: https://github.com/acme/bench/pull/{n}\n"
)


def load(name: str):
    return YAML(typ="safe").load((ROOT / name).read_text())


def env_with_tools(**extra: str) -> dict[str, str]:
    path = f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
    return {**os.environ, "PATH": path, **extra}


@pytest.fixture
def pr_checkout(repo, tmp_path):
    """A shallow, detached checkout of a PR branch that adds a key without an entry."""
    repo.commit(
        "base",
        **{
            MASTER: KEY.format(key="a-vllm", tag="v1"),
            "perf-changelog.yaml": ENTRY.format(key="a-vllm", n=1),
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "add b",
        **{MASTER: KEY.format(key="a-vllm", tag="v1") + "\n" + KEY.format(key="b-vllm", tag="v1")},
    )
    repo.git("checkout", "-q", "main")
    repo.commit(
        "main moves",
        **{
            "perf-changelog.yaml": ENTRY.format(key="a-vllm", n=1)
            + "\n"
            + ENTRY.format(key="a-vllm", n=2).replace("Add", "Re-run")
        },
    )
    clone = tmp_path / "checkout"
    subprocess.run(
        [
            "git",
            "clone",
            "-q",
            "--depth",
            "1",
            "--branch",
            "feature",
            f"file://{repo.root}",
            str(clone),
        ],
        check=True,
        env=os.environ,
    )
    subprocess.run(["git", "checkout", "-q", "--detach"], cwd=clone, check=True)
    return clone


def action_script() -> str:
    steps = load("action.yml")["runs"]["steps"]
    (step,) = [s for s in steps if s.get("name", "").startswith("Verify")]
    return step["run"]


def run_action(clone: Path, **inputs: str) -> subprocess.CompletedProcess[str]:
    env = env_with_tools(
        BASE="",
        BASE_BRANCH="main",
        BEFORE="",
        PR_NUMBER="7",
        SKIP_LABEL="no-perf-change",
        SKIP_REASON="",
        LABELS="[]",
        FETCH="true",
    )
    env.update(inputs)
    return subprocess.run(
        ["bash", "-c", action_script()],
        cwd=clone,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_action_fetches_the_base_and_annotates_the_uncovered_key(pr_checkout) -> None:
    done = run_action(pr_checkout)
    assert done.returncode == 1, done.stderr
    assert f"::error file={MASTER},line=15,title=uncovered-key::b-vllm was added" in done.stdout
    assert "pr-link: https://github.com/acme/bench/pull/7" in done.stdout  # suggested entry


def test_the_skip_label_opts_out_with_its_name_as_the_reason(pr_checkout) -> None:
    done = run_action(pr_checkout, LABELS='["documentation", "no-perf-change"]')
    assert done.returncode == 0, done.stdout + done.stderr
    assert "opted out: pull request label 'no-perf-change'" in done.stdout


def test_without_a_base_the_action_notices_and_passes(pr_checkout) -> None:
    done = run_action(pr_checkout, BASE_BRANCH="", BEFORE="0" * 40)
    assert done.returncode == 0 and "::notice" in done.stdout


def test_the_pre_commit_hooks_run_as_declared(repo) -> None:
    repo.commit(
        "base",
        **{
            MASTER: KEY.format(key="a-vllm", tag="v1"),
            "perf-changelog.yaml": ENTRY.format(key="a-vllm", n=1),
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.write(MASTER, KEY.format(key="a-vllm", tag="v2"))
    hooks = {hook["id"]: hook for hook in load(".pre-commit-hooks.yaml")}
    branch = hooks["perf-changelog"]
    command = [*branch["entry"].split(), *branch["args"]]
    command[command.index("--base") + 1] = "main"  # this repository has no origin
    done = subprocess.run(
        command, cwd=repo.root, env=env_with_tools(), capture_output=True, text=True, check=False
    )
    assert done.returncode == 1 and "uncovered-key" in done.stdout
    file_hook = hooks["perf-changelog-file"]
    done = subprocess.run(
        [*file_hook["entry"].split(), "perf-changelog.yaml"],
        cwd=repo.root,
        env=env_with_tools(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout
