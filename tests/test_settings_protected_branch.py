"""One rule turns a protected ref into a branch name (``refnames.branch_name``):
``protected-ref = ["origin/release/2.x"]`` names the branch ``release/2.x`` to
``init``'s workflow, to the gate's "is this the protected branch?" and to the merge
driver's protected side. Each in a real clone whose ``origin`` has that branch."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from conftest import GitRepo
from merge_helpers import appended, changelog, entry
from projects import NVIDIA, NVIDIA_TEXT, run

from changelog_tool.merge.protected import branch_names
from changelog_tool.refnames import branch_name

LOG = "perf-changelog.yaml"
SETTINGS = ".perf-changelog.toml"
BASE = changelog(*(entry(f"old-key-{n}", link=100 + n) for n in range(2)))
SOURCE = "https://github.com/acme/perf-changelog@v1.2.3"


def release_clone(repo: GitRepo, tmp_path: Path) -> GitRepo:
    """Upstream: branch ``release/2.x`` whose settings protect ``origin/release/2.x``;
    a clone of it, the merge driver installed, on ``release/2.x``."""
    repo.git("checkout", "-q", "-b", "release/2.x")
    repo.commit(
        "base",
        **{
            LOG: BASE,
            NVIDIA: NVIDIA_TEXT,
            SETTINGS: 'repository = "SemiAnalysisAI/InferenceX"\n'
            'protected-ref = ["origin/release/2.x"]\n',
        },
    )
    into = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "-b", "release/2.x", str(repo.root), str(into)], check=True
    )
    clone = GitRepo(into)
    assert run(clone, "install").returncode == 0
    return clone


def test_a_remote_is_stripped_and_a_local_branchs_slashes_kept() -> None:
    assert branch_name("origin/release/2.x") == "release/2.x"
    assert branch_name("release/2.x") == "release/2.x"
    assert branch_name("refs/remotes/fork/release/2.x") == "release/2.x"
    assert branch_name("refs/heads/release/2.x") == "release/2.x"
    assert branch_name("fork/main", lambda: {"fork"}) == "main"
    assert branch_names(["origin/main", "main", "upstream/release/2.x"]) == {"main", "release/2.x"}


def test_init_names_the_branch_release_2x_in_its_workflow(repo: GitRepo, tmp_path: Path) -> None:
    clone = release_clone(repo, tmp_path)
    done = run(clone, "init", "--source", SOURCE, "--dry-run", "--format", "json")
    assert done.returncode == 0, done.stderr
    steps = {s["path"]: s for s in json.loads(done.stdout)["steps"]}
    assert "branches: [release/2.x]" in steps[".github/workflows/perf-changelog.yml"]["text"]
    clone.git("remote", "remove", "origin")  # the ref kept, no remote configured: origin still
    clone.git("update-ref", "refs/remotes/origin/release/2.x", "HEAD")
    done = run(clone, "init", "--source", SOURCE, "--dry-run", "--format", "json")
    steps = {s["path"]: s for s in json.loads(done.stdout)["steps"]}
    assert "branches: [release/2.x]" in steps[".github/workflows/perf-changelog.yml"]["text"]


def test_the_gate_takes_release_2x_and_not_2x_for_the_protected_branch(
    repo: GitRepo, tmp_path: Path
) -> None:
    clone = release_clone(repo, tmp_path)
    refused = run(clone, "add", "--key", "a-vllm", "--description", "x")
    assert refused.returncode == 1 and "release/2.x is the protected branch" in refused.stderr
    assert clone.read(LOG) == BASE
    clone.commit("straight to release/2.x", **{LOG: appended(BASE, entry("a-vllm"))})
    judged = run(clone, "verify", "--base", "HEAD~1")
    assert judged.returncode == 1
    assert "placeholder pr-link 'XXX' is not allowed here" in judged.stdout
    assert "(release/2.x is the protected branch" in judged.stdout
    clone.git("checkout", "-q", "-b", "2.x", "HEAD~1")  # only the last part: not protected
    assert run(clone, "add", "--key", "a-vllm", "--description", "x").returncode == 0


def test_a_merge_on_release_2x_keeps_its_bytes_as_the_protected_side(
    repo: GitRepo, tmp_path: Path
) -> None:
    clone = release_clone(repo, tmp_path)
    start = clone.git("rev-parse", "HEAD")
    clone.git("checkout", "-q", "-b", "feature", start)
    clone.commit("feature entry", **{LOG: appended(BASE, entry("feature-key", link=501))})
    clone.git("checkout", "-q", "release/2.x")
    clone.commit("release entry", **{LOG: appended(BASE, entry("release-key", link=500))})
    on_release = clone.read(LOG)
    env = {k: v for k, v in os.environ.items() if k != "GIT_REFLOG_ACTION"}
    result = subprocess.run(
        ["git", "merge", "--no-edit", "feature"],
        cwd=clone.root,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "the merge writes release/2.x, a protected branch" in result.stderr
    assert clone.read(LOG) == appended(on_release, entry("feature-key", link=501))
