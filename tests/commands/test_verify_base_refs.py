"""Unknown refs: every message says what to run (real git)."""

from __future__ import annotations

import pytest
from projects import (
    run,
)


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


@pytest.mark.parametrize("command", ["verify", "keys", "sync"])
@pytest.mark.parametrize(
    ("ref", "says"),
    [
        ("HEAD@{99}", "unknown ref 'HEAD@{99}'"),
        ("main:perf-changelog.yaml", "names a file at a commit, not a commit"),
        ("mian", "(did you mean main?)"),
        ("main^{tree}", "'main^{tree}' names a tree, not a commit"),
    ],
)
def test_refs_git_cannot_read_as_a_commit_get_a_message_not_a_traceback(
    project, command: str, ref: str, says: str
) -> None:
    flag = "--onto" if command == "sync" else "--base"
    done = run(project, command, flag, ref)
    assert done.returncode == 2, done.stderr
    assert says in done.stderr and "Traceback" not in done.stderr
    assert "internal error" not in done.stderr


def test_a_repository_without_a_commit_says_to_commit_first(tmp_path) -> None:
    import subprocess

    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    done = run(tmp_path, "verify", "--base", "HEAD")
    assert done.returncode == 2 and "has no commit yet; commit first" in done.stderr
