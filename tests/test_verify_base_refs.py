"""Unknown refs: every message says what to run (real git)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.projects import (
    make_project,
    run,
)

README = Path(__file__).resolve().parents[1] / "README.md"


@pytest.fixture
def project(repo):
    return make_project(repo)


# --- unknown refs say what to run -------------------------------------------------------------
def test_an_unknown_head_says_what_to_run(project) -> None:
    done = run(project, "verify", "--base", "main", "--head", "deadbeef")
    assert done.returncode == 2
    assert "unknown ref 'deadbeef'" in done.stderr
    assert "`git branch -a`" in done.stderr and "check the spelling" in done.stderr


def test_an_unknown_base_names_the_fetch_when_an_origin_exists(project) -> None:
    project.git("remote", "add", "origin", "https://github.com/acme/bench.git")
    done = run(project, "keys", "--base", "nope")
    assert done.returncode == 2
    assert "run `git fetch origin nope`" in done.stderr and "`git branch -a`" in done.stderr


def test_a_slash_in_a_branch_name_is_not_taken_for_a_remote(project) -> None:
    done = run(project, "keys", "--base", "feature/missing")
    assert done.returncode == 2
    assert "git fetch feature" not in done.stderr and "`git branch -a`" in done.stderr
