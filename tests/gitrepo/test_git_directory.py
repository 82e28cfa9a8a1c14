""" "Is this a git directory" has one rule, git's own (``toplevel.is_git_directory``):
the quick look at ``.git`` that spares a git process (``gitrepo/process.py``) takes a
folder holding only a ``HEAD`` for no git directory, as git does."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import run

from changelog_tool.gitrepo.process import git_dir


def _head_only(folder: Path) -> Path:
    (folder / ".git").mkdir(parents=True)
    (folder / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return folder


def test_a_folder_with_only_a_head_is_no_repository_to_the_cli(tmp_path: Path) -> None:
    loose = _head_only(tmp_path / "loose")
    done = run(loose, "keys")
    assert done.returncode == 2
    assert f"{loose} is not inside a git repository" in done.stderr


def test_the_git_directory_under_a_head_only_sub_git_is_the_parents(repo: GitRepo) -> None:
    sub = _head_only(repo.root / "sub")
    gits = subprocess.run(
        ["git", "rev-parse", "--absolute-git-dir"], cwd=sub, capture_output=True, text=True
    )
    assert Path(gits.stdout.strip()) == repo.root / ".git"
    assert git_dir(sub) == repo.root / ".git"


def test_from_a_subfolder_the_git_directory_is_found_without_git(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The search that finds the top of the work tree names its git directory too:
    from a folder below the top, no git process is run."""
    deeper = repo.root / "sub" / "deeper"
    deeper.mkdir(parents=True)
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    assert git_dir(deeper) == repo.root / ".git"
    assert not trace.exists()
