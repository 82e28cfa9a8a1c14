"""A file name that is not UTF-8 (git stores names as bytes) is read as the bytes git
gives and shown escaped (``\\xff``): `verify --base`, `keys` and `lint` give their
findings and a valid JSON document, never "internal error: UnicodeEncodeError".
Runs the installed command in a real repository, with a UTF-8 locale's strict
standard output, as CI runners have."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from projects import key_block, make_project

RECIPE = os.fsdecode(b"benchmarks/multi_node/srt-slurm-recipes/\xff\xfe.yaml")
MASTER = os.fsdecode(b"configs/\xff-master.yaml")


def run(repo, *args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    env.pop("PYTHONIOENCODING", None)
    done = subprocess.run(
        [sys.executable, "-I", "-m", "changelog_tool", *args],
        cwd=repo.root,
        capture_output=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert b"internal error" not in done.stderr and b"Traceback" not in done.stderr, done
    done.stdout.decode("utf-8")  # valid UTF-8, every byte of it
    return done


@pytest.fixture
def branch(repo):
    make_project(repo)
    repo.write(RECIPE, "a: 1\n")
    repo.write(MASTER, key_block("c-vllm"))
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "a recipe and a master config named in bytes")
    return repo


@pytest.mark.parametrize("command", ["verify", "keys"])
def test_json_output_names_the_files_with_their_bytes_escaped(branch, command: str) -> None:
    done = run(branch, command, "--base", "main", "--format", "json")
    assert done.returncode in (0, 1)
    document = json.loads(done.stdout)
    assert {os.fsencode(p) for p in document["changed"]["orphan_recipes"]} == {os.fsencode(RECIPE)}
    assert b"\\udcff\\udcfe" in done.stdout  # JSON's escape of what is not UTF-8
    if command == "verify":
        paths = {os.fsencode(f["path"]) for f in document["findings"]}
        assert paths == {os.fsencode(RECIPE), os.fsencode(MASTER)}


def test_text_and_github_output_show_the_bytes_escaped(branch) -> None:
    text = run(branch, "verify", "--base", "main").stdout.decode()
    assert "configs/\\xff-master.yaml:1: uncovered-key: c-vllm was added" in text
    assert "srt-slurm-recipes/\\xff\\xfe.yaml: orphan-recipe: warning" in text
    github = run(branch, "verify", "--base", "main", "--format", "github").stdout.decode()
    assert "::error file=configs/\\xff-master.yaml,line=1,title=uncovered-key::" in github
    keys = run(branch, "keys", "--base", "main").stdout.decode()
    assert "added  c-vllm  'configs/\\xff-master.yaml':1" in keys


def test_lint_reads_a_branch_with_such_names(branch) -> None:
    done = run(branch, "lint", "--base", "main")
    assert done.returncode in (0, 1)
