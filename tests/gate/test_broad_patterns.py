"""A config-keys pattern that reaches far more keys than the branch changed re-runs
their sweeps for nothing: every path says so, as a warning (the TUI's preview, `add`
with flags and `--json`, `verify`), through the one rule (gate.acceptance.broad)."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, entry, key_block, run

KEYS = [f"dsr1-fp8-h{n:02d}-vllm" for n in range(15)]


def branch_changing_one_of_many(repo: GitRepo) -> None:
    repo.commit("main", **{NVIDIA: "".join(key_block(k) for k in KEYS), LOG: HISTORY})
    repo.git("checkout", "-q", "-b", "feature")
    changed = "".join(
        key_block(k, "vllm/vllm-openai:v2" if k == KEYS[0] else "vllm/vllm-openai:v1") for k in KEYS
    )
    repo.commit("bump one", **{NVIDIA: changed})


def test_add_with_flags_warns_of_a_broad_pattern_and_appends(repo: GitRepo) -> None:
    branch_changing_one_of_many(repo)
    done = run(repo, "add", "--key", "dsr1*", "--description", "Bump h00", "--no-input")
    assert done.returncode == 0, done.stderr
    assert "changelog: warning:" in done.stderr
    assert "'dsr1*' matches 15 keys; 14 of them did not change" in done.stderr
    named = run(
        repo, "add", "--key", KEYS[0], "--description", "Bump h00", "--no-input", "--dry-run"
    )
    assert named.returncode == 0 and "warning" not in named.stderr


def test_verify_warns_of_a_broad_pattern_without_failing(repo: GitRepo) -> None:
    branch_changing_one_of_many(repo)
    repo.commit("entry", **{LOG: HISTORY + "\n" + entry("dsr1*", "Bump h00")})
    done = run(repo, "verify", "--base", "main", "--format", "json")
    assert done.returncode == 0, done.stdout
    [finding] = [f for f in json.loads(done.stdout)["findings"] if f["code"] == "broad-pattern"]
    assert finding["severity"] == "warning" and "14 of them did not change" in finding["message"]
