"""Concurrent `changelog add` runs (flags and --json) in real processes serialize on
the writer's lock: each waits, then checks and plans its append against the file as
the one before left it, so none is refused and none is lost."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import GitRepo
from projects import HISTORY, LOG, make_project

from changelog_tool.ledger.filecheck import check_file
from changelog_tool.yaml.strict import load_value

RUNS = 10


def test_ten_concurrent_adds_all_append_their_entry(repo: GitRepo) -> None:
    make_project(repo)
    procs = []
    for n in range(RUNS):
        if n % 2:
            args = ["add", "--json"]
            stdin = json.dumps({"config-keys": ["a-vllm"], "description": [f"c {n}"]})
        else:
            args, stdin = ["add", "--key", "b-vllm", "--description", f"c {n}"], ""
        proc = subprocess.Popen(
            [sys.executable, "-m", "changelog_tool", *args],
            cwd=repo.root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=os.environ,
        )
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
        procs.append(proc)
    results = [(p.wait(timeout=120), p.stdout.read(), p.stderr.read()) for p in procs]  # type: ignore[union-attr]
    assert [code for code, _, _ in results] == [0] * RUNS, results
    data = repo.read(LOG)
    assert data.startswith(HISTORY.encode())
    assert check_file(data, LOG).findings == []
    descriptions = [e["description"][0] for e in load_value(data)[2:]]
    assert sorted(descriptions) == sorted(f"c {n}" for n in range(RUNS))
    # each run reported the line its entry is at, in the file as it ended
    lines = data.split(b"\n")
    for _, out, _ in results:
        line = (
            json.loads(out)["lines"][0]
            if out.startswith("{")
            else int(out.split("line ")[1].split(" ")[0])
        )
        assert lines[line - 1] == b"- config-keys:"
