"""The CI glue runs as shipped: the action's script in a shallow PR checkout, the hooks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from hostile_inputs import hostile_modules
from ruamel.yaml import YAML

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


def action_step(name: str) -> dict:
    steps = load("action.yml")["runs"]["steps"]
    (step,) = [s for s in steps if s.get("id") == name]
    return step


def run_step(
    step: str, cwd: Path, tmp: Path, **inputs: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """One of the action's ``run`` steps as GitHub runs it: bash, its ``env``, in the
    checkout (or its own working directory), with ``$GITHUB_OUTPUT`` read back. The
    virtualenv is this test run's (a warm cache)."""
    outputs = tmp / "github-output"
    outputs.write_text("")
    runner_temp = tmp / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    env = env_with_tools(
        VENV=str(Path(sys.executable).parent.parent),
        PYTHON=sys.executable,
        ACTION_PATH=str(ROOT),
        EVENT="pull_request",
        BASE="",
        BASE_BRANCH="main",
        MERGE_GROUP_BASE="",
        BEFORE="",
        PR_NUMBER="7",
        SKIP_LABEL="no-perf-change",
        SKIP_REASON="",
        LABELS="[]",
        FETCH="true",
        GITHUB_OUTPUT=str(outputs),
        RUNNER_TEMP=str(runner_temp),
    )
    env.update(inputs)
    declared = action_step(step)
    where = runner_temp if "working-directory" in declared else cwd
    done = subprocess.run(
        ["bash", "-e", "-c", declared["run"]],
        cwd=where,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return done, github_outputs(outputs.read_text())


def github_outputs(text: str) -> dict[str, str]:
    """``$GITHUB_OUTPUT`` read as GitHub reads it (``name=value`` and heredoc forms)."""
    found: dict[str, str] = {}
    lines = iter(text.splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            value = []
            for inner in lines:
                if inner == delimiter:
                    break
                value.append(inner)
            found[name] = "\n".join(value)
        elif "=" in line:
            name, value_text = line.split("=", 1)
            found[name] = value_text
    return found


def run_action(clone: Path, **inputs: str) -> subprocess.CompletedProcess[str]:
    done, _ = run_step("verify", clone, clone.parent, **inputs)
    return done


def test_the_action_fetches_the_base_and_annotates_the_uncovered_key(pr_checkout) -> None:
    done, outputs = run_step("verify", pr_checkout, pr_checkout.parent)
    assert done.returncode == 1, done.stderr
    assert f"::error file={MASTER},line=15,title=uncovered-key::b-vllm was added" in done.stdout
    assert "pr-link: https://github.com/acme/bench/pull/7" in done.stdout  # suggested entry
    assert outputs["verdict"] == "fail" and outputs["errors"] == "1"
    assert "pr-link: https://github.com/acme/bench/pull/7" in outputs["suggested-entry"]
    assert outputs["suggested-entry"].startswith("- config-keys:")


def test_the_skip_label_opts_out_with_its_name_as_the_reason(pr_checkout) -> None:
    done = run_action(pr_checkout, LABELS='["documentation", "no-perf-change"]')
    assert done.returncode == 0, done.stdout + done.stderr
    assert "opted out: pull request label 'no-perf-change'" in done.stdout


def test_without_a_base_the_action_notices_and_passes(pr_checkout) -> None:
    done, outputs = run_step(
        "verify", pr_checkout, pr_checkout.parent, BASE_BRANCH="", BEFORE="0" * 40
    )
    assert done.returncode == 0 and "::notice" in done.stdout
    assert outputs == {"verdict": "skipped"}


def test_a_merge_group_is_judged_against_its_base_commit(pr_checkout, repo) -> None:
    base = repo.git("rev-parse", "main")
    done, outputs = run_step(
        "verify",
        pr_checkout,
        pr_checkout.parent,
        EVENT="merge_group",
        BASE_BRANCH="",
        PR_NUMBER="",
        MERGE_GROUP_BASE=base,
    )
    assert done.returncode == 1, done.stderr
    assert "title=uncovered-key::b-vllm was added" in done.stdout
    assert outputs["verdict"] == "fail"


def test_a_push_is_judged_against_the_commit_before_it(pr_checkout, repo) -> None:
    before = repo.git("rev-parse", "feature~1")
    done, _outputs = run_step(
        "verify",
        pr_checkout,
        pr_checkout.parent,
        EVENT="push",
        BASE_BRANCH="",
        PR_NUMBER="",
        BEFORE=before,
    )
    assert done.returncode == 1, done.stderr
    assert "title=uncovered-key::b-vllm was added" in done.stdout


def test_the_action_runs_no_module_of_the_checkout(repo, tmp_path) -> None:
    """A pull request that adds json.py (the label check's import) or a
    changelog_tool/ folder decides nothing: every Python the action starts is
    isolated and the checkout's files are data."""
    marks = tmp_path / "marks"
    marks.mkdir()
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
        "hostile",
        **{MASTER: KEY.format(key="a-vllm", tag="v2"), **hostile_modules(marks)},
    )
    clone = tmp_path / "checkout"
    subprocess.run(
        ["git", "clone", "-q", "--branch", "feature", f"file://{repo.root}", str(clone)],
        check=True,
    )
    done, _outputs = run_step(
        "verify", clone, tmp_path, LABELS='["no-perf-change"]', SKIP_LABEL="no-perf-change"
    )
    assert done.returncode == 0, done.stdout + done.stderr  # the label is honoured ...
    assert "opted out: pull request label 'no-perf-change'" in done.stdout
    skipped, _ = run_step("verify", clone, tmp_path, LABELS='["other"]')
    assert skipped.returncode == 1, skipped.stdout  # ... and only the label decides
    assert "uncovered-key" in skipped.stdout
    assert list(marks.iterdir()) == []


def test_the_cache_key_names_the_system_architecture_python_and_sources(tmp_path) -> None:
    """A virtualenv holds compiled wheels: an ARM64 runner must not restore an X64 one."""
    step = action_step("venv")
    assert step["env"]["OS"] == "${{ runner.os }}"
    assert step["env"]["ARCH"] == "${{ runner.arch }}"
    done, outputs = run_step("venv", tmp_path, tmp_path, OS="Linux", ARCH="ARM64")
    assert done.returncode == 0, done.stderr
    version = ".".join(map(str, sys.version_info[:3]))
    assert outputs["key"].startswith(f"perf-changelog-Linux-ARM64-{version}-")
    _, x64 = run_step("venv", tmp_path, tmp_path, OS="Linux", ARCH="X64")
    assert x64["key"] != outputs["key"]
    assert outputs["path"] == str(tmp_path / "runner-temp" / "perf-changelog-venv")


def test_no_step_changes_the_jobs_python_or_runs_python_unisolated() -> None:
    steps = load("action.yml")["runs"]["steps"]
    (setup,) = [s for s in steps if str(s.get("uses", "")).startswith("actions/setup-python")]
    assert setup["with"]["update-environment"] is False
    for step in steps:
        for line in step.get("run", "").splitlines():
            if "python" in line and ("-c" in line or "-m" in line):
                assert " -I " in line or "-I -m" in line or "-I -c" in line, line


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
        file_hook["entry"].split(),
        cwd=repo.root,
        env=env_with_tools(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout


def test_the_hooks_follow_the_configured_layout_and_name_their_pre_commit(repo) -> None:
    """No hook filters files by InferenceX's paths: a repository whose changelog and
    configs live elsewhere is checked too (the settings say where)."""
    hooks = load(".pre-commit-hooks.yaml")
    for hook in hooks:
        assert "files" not in hook and hook["always_run"] is True, hook["id"]
        assert hook["minimum_pre_commit_version"] == "3.2.0"  # stage names as git's hooks
    repo.commit(
        "base",
        **{
            "bench/x-master.yaml": KEY.format(key="a-vllm", tag="v1"),
            "logs/perf.yaml": ENTRY.format(key="a-vllm", n=1),
            ".perf-changelog.toml": 'changelog = "logs/perf.yaml"\nmaster-configs = ["bench/*-master.yaml"]\n',
        },
    )
    (file_hook,) = [h for h in hooks if h["id"] == "perf-changelog-file"]
    (repo.root / "logs" / "perf.yaml").write_text("- config-keys: [unclosed\n")
    done = subprocess.run(
        file_hook["entry"].split(),
        cwd=repo.root,
        env=env_with_tools(),
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1 and "logs/perf.yaml" in done.stdout


def hooks_at(stage: str) -> list[dict]:
    """The hooks pre-commit runs at ``stage`` when the config names them all and
    overrides no ``stages`` (a hook without ``stages`` runs at every stage)."""
    return [h for h in load(".pre-commit-hooks.yaml") if stage in h.get("stages", [stage])]


def run_hook(hook: dict, root: Path) -> subprocess.CompletedProcess[str]:
    command = [*hook["entry"].split(), *hook.get("args", [])]
    if "--base" in command:
        command[command.index("--base") + 1] = "main"  # this repository has no origin
    return subprocess.run(
        command, cwd=root, env=env_with_tools(), capture_output=True, text=True, check=False
    )


def test_a_commit_of_a_config_change_alone_passes_and_the_push_asks_for_its_entry(repo) -> None:
    """The coverage check runs at pre-push: a config change may be committed before its
    entry is written; the push is refused until the entry is there. The file check
    runs at each commit."""
    assert [h["id"] for h in hooks_at("pre-commit")] == ["perf-changelog-file"]
    assert [h["id"] for h in hooks_at("pre-push")] == ["perf-changelog", "perf-changelog-lint"]
    assert all("manual" in h["stages"] for h in load(".pre-commit-hooks.yaml"))
    repo.commit(
        "base",
        **{
            MASTER: KEY.format(key="a-vllm", tag="v1"),
            "perf-changelog.yaml": ENTRY.format(key="a-vllm", n=1),
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("the config change first", **{MASTER: KEY.format(key="a-vllm", tag="v2")})
    for hook in hooks_at("pre-commit"):
        done = run_hook(hook, repo.root)
        assert done.returncode == 0, hook["id"] + done.stdout + done.stderr
    push = {h["id"]: run_hook(h, repo.root) for h in hooks_at("pre-push")}
    assert push["perf-changelog"].returncode == 1
    assert "uncovered-key" in push["perf-changelog"].stdout
    own = ENTRY.format(key="a-vllm", n=2).replace("Add", "Bump")
    repo.commit(
        "then its entry", **{"perf-changelog.yaml": ENTRY.format(key="a-vllm", n=1) + "\n" + own}
    )
    assert run_hook(hooks_at("pre-push")[0], repo.root).returncode == 0


def test_an_opt_out_tag_in_the_pull_requests_title_opts_out(pr_checkout) -> None:
    """The squash subject carrying `[skip-sweep]` exists only after the merge: the
    title is where the tag stands while the pull request is judged."""
    done = run_action(pr_checkout, TITLE="Rename the runner label [skip-sweep]")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "opted out: Rename the runner label [skip-sweep]" in done.stdout
    assert run_action(pr_checkout, TITLE="Rename the runner label").returncode == 1
