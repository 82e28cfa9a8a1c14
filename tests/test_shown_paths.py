"""Paths are shown as the person at the terminal would type them: relative to the
current folder, whatever command prints them (one helper, ``hints.relative``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import LOG, run


def test_log_names_the_changelog_relative_to_the_current_folder(project: GitRepo) -> None:
    at_top = run(project, "log", "a-vllm")
    assert at_top.returncode == 0 and at_top.stdout.startswith(f"{LOG}:1: ")
    (project.root / "configs").mkdir(exist_ok=True)
    below = run(project.root / "configs", "log", "a-vllm")
    assert below.returncode == 0 and below.stdout.startswith(f"../{LOG}:1: ")
    none = run(project, "log", "no-such-key")
    assert f"in {LOG}\n" in none.stdout
    assert str(project.root) not in at_top.stdout + below.stdout + none.stdout


def test_add_names_the_changelog_relative_to_the_current_folder(project: GitRepo) -> None:
    done = run(project.root / "configs", "add", "--key", "a-vllm", "--description", "d")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"appended 1 entry to ../{LOG} at line ")


def test_a_missing_changelog_is_named_relative_to_the_current_folder(project: GitRepo) -> None:
    (project.root / LOG).unlink()
    done = run(project, "add", "--key", "a-vllm", "--description", "d", "--no-input")
    assert done.returncode == 2
    assert done.stderr.startswith(f"changelog: {LOG} does not exist; pass --init")


def test_install_names_the_attribute_files_relative_to_the_current_folder(
    project: GitRepo,
) -> None:
    done = run(project, "install")
    assert done.returncode == 0, done.stderr
    assert "install: .gitattributes: added" in done.stdout
    assert "install: .git/info/attributes: added" in done.stdout
    assert str(project.root) not in done.stdout


def test_a_path_outside_every_folder_the_current_one_shares_stays_absolute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from changelog_tool.errors import relative

    monkeypatch.chdir(tmp_path)
    assert relative(tmp_path / "a" / "b.yaml") == os.path.join("a", "b.yaml")
    assert relative(tmp_path.parent / "x.yaml") == os.path.join("..", "x.yaml")
    assert relative("/") == "/"
