"""``cli.main`` called in this process (:func:`projects.run`, what most CLI tests use)
answers as the command does in a process of its own (:func:`projects.run_process`):
the same exit code, standard output and standard error, and the caller's working
directory, standard streams and environment as they were."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, key_block, run, run_process

ENTRY = {"config-keys": ["z-vllm"], "description": ["Add z ✓"], "pr-link": None}
CASES = {
    "findings as JSON": (["verify", "--base", "main", "--format", "json"], ""),
    "findings as text": (["verify", "--base", "main"], ""),
    "findings for GitHub": (["keys", "--base", "main", "--format", "github"], ""),
    "a usage error": (["verify", "--no-such-flag"], ""),
    "a usage error as JSON": (["verify", "--no-such-flag", "--format", "json"], ""),
    "the help": (["--help"], ""),
    "the version": (["--version"], ""),
    "an entry on stdin": (["add", "--json", "--dry-run"], json.dumps(ENTRY)),
    "a refused entry on stdin": (["add", "--json"], "{not json"),
    "the entries of a key": (["log", "a-vllm"], ""),
    "an unknown ref": (["verify", "--base", "nope"], ""),
}


def answer(done: subprocess.CompletedProcess[str]) -> tuple[int, str, str]:
    """Exit code, stdout and stderr; the token of GitHub's ``stop-commands`` is drawn
    anew on every run."""
    token = re.search(r"^::stop-commands::(\w+)$", done.stdout, re.MULTILINE)
    out = done.stdout.replace(token.group(1), "TOKEN") if token else done.stdout
    return done.returncode, out, done.stderr


@pytest.fixture
def changed(project: GitRepo) -> GitRepo:
    project.commit("add z", **{NVIDIA: NVIDIA_TEXT + key_block("z-vllm")})
    return project


@pytest.mark.parametrize("name", CASES)
def test_in_this_process_the_command_answers_as_in_its_own(changed: GitRepo, name: str) -> None:
    args, stdin = CASES[name]
    before = changed.read("perf-changelog.yaml")
    own = run_process(changed, *args, stdin=stdin)
    here = run(changed, *args, stdin=stdin)
    assert answer(here) == answer(own)
    assert changed.read("perf-changelog.yaml") == before


def test_the_caller_keeps_its_directory_streams_and_environment(
    changed: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANGELOG_PROBE", "kept")
    cwd, streams, environment = os.getcwd(), (sys.stdin, sys.stdout, sys.stderr), dict(os.environ)
    done = run(changed, "verify", "--base", "main", env={"CHANGELOG_PROBE": None, "COLUMNS": "99"})
    assert done.returncode == 1 and "z-vllm" in done.stdout
    assert (os.getcwd(), (sys.stdin, sys.stdout, sys.stderr)) == (cwd, streams)
    assert dict(os.environ) == environment


def test_the_environment_given_is_the_commands_for_the_call(
    changed: GitRepo, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    summary = tmp_path / "summary.md"
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    run(changed, "verify", "--base", "main", "--format", "github")
    assert not summary.exists()
    env = {"GITHUB_STEP_SUMMARY": str(summary)}
    run(changed, "verify", "--base", "main", "--format", "github", env=env)
    assert "z-vllm" in summary.read_text()
    assert "GITHUB_STEP_SUMMARY" not in os.environ
