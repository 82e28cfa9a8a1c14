"""`sync --commit` and `finalize --onto --commit` hold the writer's lock from their
read of the changelog, across `git merge --no-commit`, to their write and commit: an
`add` run in that window waits, then appends to the committed result; none is lost."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import HISTORY, LOG, entry, make_project
from projects import run as tool

OWN = entry("a-vllm", "Own change")
MAIN = entry("b-vllm", "Main change", "https://github.com/acme/bench/pull/9")
PAUSED = "zz-pause.txt"
"""A file the merge of main changes, checked out after the changelog (git writes the
work tree in path order): its smudge filter stops git there until the test says go."""


def diverged(repo: GitRepo, gate: Path) -> None:
    """feature appended OWN, main appended MAIN and changed :data:`PAUSED`; the merge
    driver is installed; checking :data:`PAUSED` out waits for ``gate/release``."""
    make_project(repo)
    assert tool(repo.root, "install").returncode == 0
    repo.commit("own", **{LOG: HISTORY + "\n" + OWN})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: HISTORY + "\n" + MAIN, PAUSED: "moved\n"})
    repo.git("checkout", "-q", "feature")
    (repo.root / ".git" / "info").mkdir(exist_ok=True)
    (repo.root / ".git" / "info" / "attributes").write_text(f"{PAUSED} filter=pause\n")
    script = gate / "smudge.sh"
    script.write_text(
        f'touch "{gate}/paused"\nwhile [ ! -e "{gate}/release" ]; do sleep 0.01; done\nexec cat\n'
    )
    repo.git("config", "filter.pause.smudge", f"sh {script}")


def start(repo: GitRepo, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-I", "-m", "changelog_tool", *args],
        cwd=repo.root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ,
    )


def wait_for(file: Path, seconds: float = 60) -> None:
    until = time.monotonic() + seconds
    while not file.exists():
        assert time.monotonic() < until, f"{file} never appeared"
        time.sleep(0.01)


@pytest.mark.parametrize(
    "command",
    [
        ["sync", "--commit"],
        ["finalize", "--pr-number", "7", "--onto", "main", "--commit"],
    ],
    ids=["sync", "finalize"],
)
def test_an_add_during_the_merge_of_a_committing_rebuild_is_kept(
    repo: GitRepo, tmp_path: Path, command: list[str]
) -> None:
    """Deterministic: git is stopped (by a smudge filter) after it wrote the merged
    changelog and before the command writes its own result; `add` starts then and
    runs until it either ends or says it waits for the lock, and only then is git
    let go. Before the fix, that `add` appended, said so, and its entry was erased."""
    gate = tmp_path / "gate"
    gate.mkdir()
    diverged(repo, gate)
    rebuild = start(repo, *command)
    try:
        wait_for(gate / "paused")
        add = start(repo, "add", "--key", "b-vllm", "--description", "Racing add")
        assert add.stderr is not None
        said = ""
        while line := add.stderr.readline():  # until it waits on the lock, or ends
            said += line
            if "waiting for another process" in line:
                break
    finally:
        (gate / "release").touch()
    out, err = rebuild.communicate(timeout=120)
    assert rebuild.returncode == 0, out + err
    add_out, add_err = add.communicate(timeout=120)
    assert add.returncode == 0, add_out + said + add_err
    work = repo.read(LOG).decode()
    assert work.count("Racing add") == 1  # appended, and kept
    assert "waiting for another process" in said  # it waited for the rebuild
    committed = repo.git("show", f"HEAD:{LOG}") + "\n"
    assert work.startswith(committed)
    assert committed.startswith(HISTORY + "\n" + MAIN)
    assert committed.count("Own change") == 1 and "Racing add" not in committed
    assert repo.git("rev-parse", "main") in repo.git("log", "-1", "--format=%P").split()
