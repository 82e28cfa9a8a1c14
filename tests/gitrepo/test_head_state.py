"""What is checked out, read from the git directory: the branch HEAD is on, and, where
the HEAD file only holds a reftable repository's placeholder, git's own answer."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from conftest import GitRepo

from changelog_tool.gitrepo.state import GitDirectory, current_branch, head_state


def test_the_branch_and_the_commit_come_from_the_git_directory(repo: GitRepo) -> None:
    repo.commit("base", **{"a.txt": "a\n"})
    repo.git("checkout", "-q", "-b", "feature")
    state = head_state(repo.root, ["main"])
    assert state is not None and state.branch == "feature" and state.sha
    assert state.protected_commits == {}  # a branch name decides: no ref is read
    repo.git("checkout", "-q", "--detach")
    detached = head_state(repo.root, ["main"])
    assert detached is not None and detached.branch is None
    assert set(detached.protected_commits) == {"main"}
    assert GitDirectory(repo.root).operation() is None


def test_outside_a_repository_there_is_no_head(tmp_path: Path) -> None:
    assert head_state(tmp_path, ["main"]) is None


def test_a_reftable_placeholder_in_head_asks_git(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """git 2.45+ with reftable writes ``ref: refs/heads/.invalid`` to the HEAD file; the
    branch is then what ``git symbolic-ref`` says (this machine's git predates
    reftable, so a stand-in git on PATH gives that answer)."""
    folder = tmp_path / "git-dir"
    folder.mkdir()
    (folder / "HEAD").write_text("ref: refs/heads/.invalid\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "git"
    fake.write_text('#!/bin/sh\ncase "$*" in *symbolic-ref*) echo main;; *) exit 1;; esac\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert current_branch(folder) == "main"
    fake.write_text("#!/bin/sh\nexit 1\n")  # git cannot say: no branch, never ".invalid"
    assert current_branch(folder) is None
