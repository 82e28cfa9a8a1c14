"""An object's id asked of the one ``cat-file --batch`` process: a folder's tree, a
file's blob, nothing for a missing path; an object too large to drop ends the
process, and the next question starts a new one."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GitRepo

from changelog_tool.gitrepo.objects import CHUNK, Objects


def test_object_ids_come_from_the_batch_process_alone(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    big = b"x" * (CHUNK + 1)
    sha = repo.commit("c", **{"recipes/a.yaml": "a: 1\n", "big.bin": big})
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    objects = Objects(repo.root)
    try:
        assert objects.object_id(f"{sha}:recipes") == repo.git("rev-parse", f"{sha}:recipes")
        assert objects.object_id(f"{sha}:recipes/a.yaml") == repo.git(
            "rev-parse", f"{sha}:recipes/a.yaml"
        )
        assert objects.object_id(f"{sha}:nowhere") is None
        assert objects.object_id(f"{sha}:big.bin") == repo.git("rev-parse", f"{sha}:big.bin")
        assert objects.read(f"{sha}:recipes/a.yaml") is not None  # a new process answers
    finally:
        objects.close()
    started = [
        line.split("built-in: ", 1)[1]
        for line in trace.read_text().splitlines()
        if "built-in: git cat-file" in line
    ]
    assert started == ["git cat-file --batch"] * 2, started


def test_asking_about_large_files_keeps_one_process(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a file is and how large comes from ``--batch-check``, which never sends the
    bytes: a large file does not end the process, so it is started once."""
    files = {f"big{n}.bin": b"x" * (CHUNK + n) for n in range(1, 4)}
    sha = repo.commit("c", **files)
    trace = tmp_path / "trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    objects = Objects(repo.root)
    try:
        for _ in range(2):
            for name, data in files.items():
                assert objects.info(f"{sha}:{name}") == (
                    repo.git("rev-parse", f"{sha}:{name}"),
                    "blob",
                    len(data),
                )
    finally:
        objects.close()
    started = [line for line in trace.read_text().splitlines() if "built-in: git cat-file" in line]
    assert len(started) == 1, started
