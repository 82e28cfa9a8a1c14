"""`add`, `sync --commit` and `finalize --commit` run at the same time on one repository,
round after round while main moves (each merge runs the installed merge driver): every
command ends soundly (a refusal is allowed, never a traceback), and at the end no entry
is lost or doubled. The rounds are :data:`ROUNDS` (a few, for CI); set
``PERF_CHANGELOG_STRESS_ROUNDS`` to run more (200 rounds: 600 runs, 0 entries lost or
doubled; see docs/design.md)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from conftest import GitRepo
from projects import HISTORY, LOG, entry, make_project, sound
from projects import run as tool

from changelog_tool.yaml.strict import load_value

ROUNDS = int(os.environ.get("PERF_CHANGELOG_STRESS_ROUNDS", "3"))


def start(repo: GitRepo, *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-I", "-m", "changelog_tool", *args],
        cwd=repo.root,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ,
    )


def descriptions(data: bytes) -> Counter[str]:
    value = load_value(data)
    assert isinstance(value, list)
    return Counter(line for item in value for line in item["description"])


def test_add_sync_and_finalize_at_once_lose_and_double_nothing(
    repo: GitRepo, tmp_path: Path
) -> None:
    make_project(repo)
    assert tool(repo.root, "install").returncode == 0
    repo.commit("own", **{LOG: HISTORY + "\n" + entry("a-vllm", "own 0")})
    main = GitRepo(tmp_path / "main")
    repo.git("worktree", "add", "-q", str(main.root), "main")
    main_log = HISTORY
    added, codes = [], Counter[str]()
    began = time.monotonic()
    for n in range(ROUNDS):
        main_log += "\n" + entry(
            "b-vllm", f"main {n}", f"https://github.com/acme/bench/pull/{n + 10}"
        )
        main.commit(f"main {n}", **{LOG: main_log})
        finalize = ["finalize", "--pr-number", "7", "--commit"]
        if n % 2:
            finalize[3:3] = ["--onto", "main"]
        procs = {
            "add": start(repo, "add", "--no-input", "--key", "a-vllm", "--description", f"add {n}"),
            "sync": start(repo, "sync", "--commit"),
            "finalize": start(repo, *finalize),
        }
        for name, proc in procs.items():
            out, err = proc.communicate(timeout=300)
            done = sound(subprocess.CompletedProcess(proc.args, proc.returncode, out, err))
            codes[f"{name} {done.returncode}"] += 1
            if done.returncode:  # the one refusal: add's entry is not committed yet
                assert name == "sync" and "uncommitted changes" in err, (name, err)
            if name == "add":
                assert done.returncode == 0, err  # an add waits for the lock, never refused
                added.append(f"add {n}")
        assert not (repo.root / ".git" / "MERGE_HEAD").exists(), codes
    # what is left uncommitted is committed, then the branch is synced with main
    for last in (["finalize", "--pr-number", "7", "--commit"], ["sync", "--commit"]):
        done = tool(repo.root, *last)
        assert done.returncode == 0, done.stdout + done.stderr
    data = repo.read(LOG)
    found = descriptions(data)
    expected = Counter(["Add a", "Add b", "own 0", *added, *(f"main {n}" for n in range(ROUNDS))])
    assert found == expected, (found - expected, expected - found)
    assert data.startswith(main.read(LOG))  # main's bytes, then the branch's own entries
    assert repo.git("status", "--porcelain", "--", LOG) == ""
    print(f"{ROUNDS} rounds in {time.monotonic() - began:.0f} s: {dict(codes)}")
