"""The finalize-in-CI recipe (docs/examples/perf-changelog-finalize.yml) works as
written: its shell step, run as GitHub runs it in a checkout of the pull request's
branch, commits the final links on the base's newest changelog and pushes them to a
(local, bare) remote; the base's gate then accepts the branch."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT, GitRepo
from projects import HISTORY, LOG, entry, make_project, run
from ruamel.yaml import YAML

RECIPE = ROOT / "docs" / "examples" / "perf-changelog-finalize.yml"
LINK = "https://github.com/acme/bench/pull"


def steps() -> list[dict]:
    return YAML(typ="safe").load(RECIPE.read_text())["jobs"]["finalize"]["steps"]


def test_the_recipe_asks_for_what_a_push_needs_and_stops_a_fork_early() -> None:
    checkout = next(s for s in steps() if str(s.get("uses", "")).startswith("actions/checkout"))
    assert checkout["with"]["ref"] == "${{ github.event.pull_request.head.ref }}"
    assert checkout["with"]["fetch-depth"] == 0
    fork = steps()[0]
    assert fork["if"] == "github.event.pull_request.head.repo.full_name != github.repository"
    assert "exit 1" in fork["run"]
    install = next(s for s in steps() if s.get("name") == "Install perf-changelog")
    assert "pip install" in install["run"]


def test_the_push_is_made_with_a_github_app_token_so_the_gate_runs_on_it() -> None:
    """GitHub starts no workflow for a push made with the workflow's GITHUB_TOKEN: a
    required gate would wait for ever on the finalized commit. The recipe mints an App
    token before the checkout, checks out with it and keeps it for the push step's
    ``git push origin``; the workflow's own token stays read-only."""
    workflow = YAML(typ="safe").load(RECIPE.read_text())
    assert workflow["permissions"] == {"contents": "read"}
    names = [str(s.get("uses", "")).split("@")[0] or s.get("name") for s in steps()]
    mint = names.index("actions/create-github-app-token")
    checkout = names.index("actions/checkout")
    push = names.index("Finalize the pr-links and push")
    assert mint < checkout < push
    app = steps()[mint]
    assert app["with"]["permission-contents"] == "write"
    assert set(app["with"]) >= {"app-id", "private-key"}
    token = f"${{{{ steps.{app['id']}.outputs.token }}}}"
    assert steps()[checkout]["with"]["token"] == token
    assert steps()[checkout]["with"]["persist-credentials"] is True
    assert "git push origin " in steps()[push]["run"]
    assert "GITHUB_TOKEN" not in RECIPE.read_text().split("\nname:", 1)[1]
    assert "github.token" not in RECIPE.read_text()


def test_its_shell_step_finalizes_and_pushes_to_the_branch(repo: GitRepo, tmp_path: Path) -> None:
    make_project(repo)
    own = HISTORY + "\n" + entry("a-vllm", "Bump a")
    repo.commit("own entry", **{LOG: own})
    repo.git("checkout", "-q", "main")
    main = HISTORY + "\n" + entry("b-vllm", "Main moved", f"{LINK}/6")
    repo.commit("main moves", **{LOG: main})
    remote = tmp_path / "remote.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.root), str(remote)], check=True)
    checkout = tmp_path / "checkout"  # as actions/checkout leaves it: the head branch, full history
    subprocess.run(
        ["git", "clone", "-q", "--branch", "feature", str(remote), str(checkout)], check=True
    )
    (step,) = [s for s in steps() if s.get("name") == "Finalize the pr-links and push"]
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "PR_NUMBER": "7",
        "BASE": "main",
        "HEAD_REF": "feature",
    }
    for name in (
        "GIT_AUTHOR_NAME",
        "GIT_AUTHOR_EMAIL",
        "GIT_COMMITTER_NAME",
        "GIT_COMMITTER_EMAIL",
    ):
        env.pop(name, None)  # the step sets the identity itself
    done = subprocess.run(
        ["bash", "-e", "-c", step["run"]],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    pushed = subprocess.run(
        ["git", "--git-dir", str(remote), "show", f"feature:{LOG}"], capture_output=True, check=True
    ).stdout
    assert pushed == (main + "\n" + entry("a-vllm", "Bump a", f"{LINK}/7")).encode()
    author = subprocess.run(
        ["git", "--git-dir", str(remote), "log", "-1", "--format=%an", "feature"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert author == "github-actions[bot]"
    repo.git("fetch", "-q", str(remote), "feature:refs/heads/finalized")
    repo.git("checkout", "-q", "finalized")
    assert run(repo, "verify", "--base", "main", "--pr-number", "7").returncode == 0
