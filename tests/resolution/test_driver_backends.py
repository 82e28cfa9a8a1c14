"""Every way git replays or merges, with the driver working, unable to start, or
killed mid-write: in a fork's clone whose ``origin/main`` is stale, a branch drops
main's newest entry (a placeholder) and appends its own. No entry is ever lost:
the operation stops with conflict markers, and main's entry is intact.

The patch-based backends (``rebase --apply``, ``am``) call the driver only when a
patch does not apply as text: here main corrected the pr-link of the entry just
before, so the patch's context no longer matches."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, changelog_tool, entry
from test_driver_git import LOG, git

from changelog_tool.merge.conflict import resolved_to

HISTORY = changelog(entry("dsr1-fp8-b200-sglang", link=10), entry("gptoss-fp4-b200-trt", link=11))
PREV = entry(
    "qwen3.5-fp8-mi355x-atom",
    "Add qwen3.5 atom",
    "https://github.com/SemiAnalysisAI/InferenceX/pull/2305/changes",
)
FIXED = entry("qwen3.5-fp8-mi355x-atom", "Add qwen3.5 atom", 2305)  # main corrects the link
DRAFT = entry("main-draft-key", "Published by main with a placeholder")  # pr-link: XXX
OWN = entry("branch-key", "Branch change")
MAIN = appended(HISTORY, FIXED, DRAFT)

DIES = """
import os, runpy, signal, sys
from changelog_tool.ledger import writer
def dying(fd, data):  # half of the first write, then killed
    os.write(fd, bytes(data[: len(data) // 2]))
    os.kill(os.getpid(), signal.SIGKILL)
writer._write_all = dying
sys.argv = ["changelog_tool", *sys.argv[1:]]
runpy.run_module("changelog_tool", run_name="__main__", alter_sys=True)
"""


def fork_clone(tmp_path: Path) -> tuple[GitRepo, GitRepo]:
    """The project and a clone of a fork made before main published PREV and DRAFT
    (so ``origin/main`` holds neither); the branch ``feature`` of the clone, from
    upstream's main, appends its own entry, then drops DRAFT; main then corrects
    PREV's link."""
    project = GitRepo(tmp_path / "project")
    project.root.mkdir()
    project.git("init", "-q", "-b", "main")
    project.commit("history", **{LOG: HISTORY})
    assert changelog_tool(project.root, "install").returncode == 0
    project.commit("mark the changelog for the merge driver")
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(project.root), str(tmp_path / "fork.git")], check=True
    )
    clone = GitRepo(tmp_path / "clone")
    subprocess.run(["git", "clone", "-q", str(tmp_path / "fork.git"), str(clone.root)], check=True)
    assert changelog_tool(clone.root, "install").returncode == 0
    clone.git("remote", "add", "upstream", str(project.root))
    project.commit("publish two entries", **{LOG: appended(HISTORY, PREV, DRAFT)})
    clone.git("fetch", "-q", "upstream")
    clone.git("checkout", "-q", "-b", "feature", "upstream/main")
    clone.commit("own entry", **{LOG: appended(HISTORY, PREV, DRAFT, OWN)})
    clone.commit("drop the placeholder entry", **{LOG: appended(HISTORY, PREV, OWN)})
    project.commit("correct a pr-link", **{LOG: MAIN})
    clone.git("fetch", "-q", "upstream")
    assert clone.git("show", f"origin/main:{LOG}").encode() + b"\n" == HISTORY  # stale
    return project, clone


def rebase(clone: GitRepo) -> subprocess.CompletedProcess[str]:
    return git(clone, "rebase", "upstream/main")


def rebase_apply(clone: GitRepo) -> subprocess.CompletedProcess[str]:
    return git(clone, "rebase", "--apply", "upstream/main")


def am(clone: GitRepo) -> subprocess.CompletedProcess[str]:
    patches = clone.root.parent / "patches"
    clone.git("format-patch", "-q", "-o", str(patches), "upstream/main...feature")
    clone.git("checkout", "-q", "-b", "applied", "upstream/main")
    return git(clone, "am", "-q", "-3", *sorted(str(p) for p in patches.iterdir()))


def merge(clone: GitRepo) -> subprocess.CompletedProcess[str]:
    return git(clone, "merge", "-q", "--no-edit", "upstream/main")


def cherry_pick(clone: GitRepo) -> subprocess.CompletedProcess[str]:
    commits = clone.git("rev-list", "--reverse", "upstream/main..feature").split()
    clone.git("checkout", "-q", "-b", "picked", "upstream/main")
    return git(clone, "cherry-pick", *commits)


BACKENDS: dict[str, Callable[[GitRepo], subprocess.CompletedProcess[str]]] = {
    "rebase": rebase,
    "rebase --apply": rebase_apply,
    "am": am,
    "merge": merge,
    "cherry-pick": cherry_pick,
}


def break_driver(clone: GitRepo, how: str, tmp_path: Path) -> None:
    """The clone's driver script with its interpreter gone, or one that is killed
    halfway through its first write."""
    script = clone.root / ".git" / "perf-changelog" / "merge-driver.sh"
    text = script.read_text()
    assert f"python={sys.executable}\n" in text
    if how == "gone":
        python = "/nonexistent/venv/bin/python3"
    else:
        python = str(tmp_path / "dying-python")
        (tmp_path / "dying.py").write_text(DIES)
        Path(python).write_text(
            f'#!/bin/sh\nshift 3\nexec {sys.executable} -I {tmp_path / "dying.py"} "$@"\n'
        )
        Path(python).chmod(0o755)
    script.write_text(text.replace(f"python={sys.executable}\n", f"python={python}\n"))


def entries_kept(data: bytes) -> bool:
    """Every entry of main and the branch's own entry are in the file, whole."""
    return all(e in data for e in (FIXED, DRAFT, OWN)) and HISTORY.rstrip(b"\n") in data


CONTINUE = {
    "rebase": ["rebase", "--continue"],
    "rebase --apply": ["rebase", "--continue"],
    "am": ["am", "--continue"],
    "merge": ["commit", "--no-edit"],
    "cherry-pick": ["cherry-pick", "--continue"],
}


@pytest.mark.parametrize("driver", ["working", "gone", "killed"])
@pytest.mark.parametrize("backend", sorted(BACKENDS))
def test_no_entry_is_lost_and_the_operation_stops_with_markers(
    tmp_path: Path, backend: str, driver: str
) -> None:
    """Each stop leaves markers with every entry; `resolve` merges a step that only
    appends (a broken driver stops there too) and refuses the drop of main's entry."""
    _, clone = fork_clone(tmp_path)
    if driver != "working":
        break_driver(clone, driver, tmp_path)

    result = BACKENDS[backend](clone)
    protected = "theirs" if backend == "merge" else "ours"
    for _step in range(2):
        assert result.returncode != 0, result.stdout + result.stderr
        assert LOG in git(clone, "diff", "--name-only", "--diff-filter=U").stdout
        conflicted = clone.read(LOG)
        assert b"<<<<<<< " in conflicted and b">>>>>>> " in conflicted, conflicted.decode()
        assert entries_kept(conflicted)
        assert resolved_to(conflicted, protected).startswith(MAIN)  # main's entry intact
        if driver != "working":
            why = "could not start" if driver == "gone" else "did not finish"
            assert f"changelog merge-driver {why}" in result.stderr
        leftovers = [p.name for p in clone.root.iterdir() if ".merge_file" in p.name]
        assert leftovers == []
        resolved = changelog_tool(clone.root, "resolve")
        if resolved.returncode == 1:  # the drop of main's entry, named; nothing written
            assert "history-modified" in resolved.stdout and "main-draft-key" in resolved.stdout
            assert clone.read(LOG) == conflicted
            break
        assert resolved.returncode == 0, resolved.stdout + resolved.stderr
        assert clone.read(LOG) == appended(MAIN, OWN)  # the append step, merged
        result = git(clone, *CONTINUE[backend], env={"GIT_EDITOR": "true"})
    else:
        pytest.fail("the drop of main's entry was never refused")
    if driver == "working":
        assert "history-modified" in result.stderr and "main-draft-key" in result.stderr
