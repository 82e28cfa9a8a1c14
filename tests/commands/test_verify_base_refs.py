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
        ("mian", "no such ref 'mian' in"),
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


# --- every hint works when followed -----------------------------------------------------------
def with_origin(project, tmp_path):
    """``project`` with a real remote ``origin`` (a bare clone), fetched."""
    import subprocess

    origin = tmp_path / "origin.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(project.root), str(origin)], check=True)
    project.git("remote", "add", "origin", str(origin))
    project.git("fetch", "-q", "origin")
    return origin


def hinted_command(message: str) -> list[str]:
    """The first command the message says to run (between backticks)."""
    import shlex

    return shlex.split(message.split("`")[1])


def test_a_misspelled_remote_ref_gets_the_closest_name_not_a_fetch(project, tmp_path) -> None:
    with_origin(project, tmp_path)
    for command in ("verify", "keys", "lint"):
        done = run(project, command, "--base", "origin/mian")
        assert done.returncode == 2
        assert "no such ref 'origin/mian'" in done.stderr
        assert "did you mean origin/main?" in done.stderr
        assert "git fetch" not in done.stderr


def test_the_fetch_hint_for_a_real_remote_branch_works_when_followed(project, tmp_path) -> None:
    import subprocess

    origin = with_origin(project, tmp_path)
    subprocess.run(["git", "-C", str(origin), "branch", "release", "main"], check=True)
    done = run(project, "verify", "--base", "origin/release")
    assert done.returncode == 2 and "git fetch origin release" in done.stderr, done.stderr
    fetch = hinted_command(done.stderr)
    assert fetch[:2] == ["git", "fetch"]
    subprocess.run(fetch, cwd=project.root, check=True, capture_output=True)
    assert run(project, "verify", "--base", "origin/release").returncode == 0
