"""A fork's clone, with real git: ``origin/main`` (the fork's own main) lags behind
``upstream/main``, and the branch is rebased onto ``upstream/main`` with the driver
installed. The stale ref must never decide what may be dropped or rewritten."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, changelog_tool, entry
from test_driver_git import LOG, git

OLD = [
    entry("dsr1-fp8-b200-sglang", link=10),
    entry("qwen3.5-fp8-mi355x-atom", "Add qwen3.5 atom", 1286),
    entry("gptoss-fp4-b200-trt", link=11),
]
DUP = OLD[1]  # appended a second time upstream, then removed again (a revert)
NEWEST = [entry("main-key-1", link=2001), entry("main-key-2", link=2002)]
OWN = entry("branch-key", "Branch change")


def fork_clone(tmp_path: Path) -> tuple[GitRepo, GitRepo]:
    """The project (``upstream``) and a clone of a fork of it, whose ``origin/main``
    is the project's changelog as it was when the fork was made."""
    project = GitRepo(tmp_path / "project")
    project.root.mkdir()
    project.git("init", "-q", "-b", "main")
    project.commit("history", **{LOG: changelog(*OLD)})
    assert changelog_tool(project.root, "install").returncode == 0
    project.commit("mark the changelog for the merge driver")
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(project.root), str(tmp_path / "fork.git")], check=True
    )
    clone = GitRepo(tmp_path / "clone")
    subprocess.run(["git", "clone", "-q", str(tmp_path / "fork.git"), str(clone.root)], check=True)
    assert changelog_tool(clone.root, "install").returncode == 0
    clone.git("remote", "add", "upstream", str(project.root))
    return project, clone


def ours_side(conflicted: bytes) -> bytes:
    """The file with every conflict resolved to its ``ours`` section."""
    out: list[bytes] = []
    keep = True
    for line in conflicted.splitlines(keepends=True):
        if line.startswith(b"<<<<<<< "):
            keep = True
        elif line.startswith((b"||||||| ", b"=======")):
            keep = False
        elif line.startswith(b">>>>>>> "):
            keep = True
        elif keep:
            out.append(line)
    return b"".join(out)


@pytest.mark.parametrize("edit", ["reword", "drop"])
def test_a_branch_that_edits_one_of_mains_newest_entries_stops_with_mains_entry_intact(
    tmp_path: Path, edit: str
) -> None:
    project, clone = fork_clone(tmp_path)
    history = changelog(*OLD)
    project.commit("a duplicate", **{LOG: appended(history, DUP)})
    project.commit("newest", **{LOG: appended(history, DUP, *NEWEST)})
    clone.git("fetch", "-q", "upstream")
    clone.git("checkout", "-q", "-b", "feature", "upstream/main")
    if edit == "reword":
        changed = entry("main-key-2", "Reworded by the branch", 2002)
        branch = appended(history, DUP, NEWEST[0], changed, OWN)
    else:
        branch = appended(history, DUP, NEWEST[0], OWN)
    clone.commit(f"{edit} main's newest entry and append", **{LOG: branch})
    main = appended(history, *NEWEST)
    project.commit("Remove the duplicate entry", **{LOG: main})
    clone.git("fetch", "-q", "upstream")
    assert clone.read(LOG) == branch
    assert clone.git("show", f"origin/main:{LOG}").encode() + b"\n" == history

    result = git(clone, "rebase", "upstream/main")

    assert result.returncode != 0, "the rebase went through: main's newest entry was changed"
    assert LOG in git(clone, "diff", "--name-only", "--diff-filter=U").stdout
    conflicted = clone.read(LOG)
    assert b"<<<<<<< ours" in conflicted and b">>>>>>> theirs" in conflicted
    assert ours_side(conflicted).startswith(main)  # main's bytes, its newest entry intact
    line = main.count(b"\n") - NEWEST[1].count(b"\n") + 1  # where main-key-2 starts in ours
    assert "config-keys main-key-2" in result.stderr
    assert f"line {line} of ours" in result.stderr or f"{LOG}:{line}:" in result.stderr


def test_a_stale_origin_main_holding_a_since_removed_duplicate_does_not_pick_the_side(
    tmp_path: Path,
) -> None:
    project, clone = fork_clone(tmp_path)
    history = changelog(*OLD)
    project.commit("a duplicate", **{LOG: appended(history, DUP)})
    # the fork was synced once, while the duplicate was there, and never since
    clone.git("fetch", "-q", "upstream")
    clone.git("push", "-q", "origin", "refs/remotes/upstream/main:refs/heads/main")
    clone.git("fetch", "-q", "origin")
    clone.git("checkout", "-q", "-b", "feature", "upstream/main")
    clone.commit("append own", **{LOG: appended(history, DUP, OWN)})
    main = appended(history, *NEWEST)
    project.commit("Remove the duplicate; newest entries", **{LOG: main})
    clone.git("fetch", "-q", "upstream")
    assert clone.git("show", f"origin/main:{LOG}").encode() + b"\n" == appended(history, DUP)

    result = git(clone, "rebase", "upstream/main")

    assert result.returncode == 0, result.stderr
    assert clone.read(LOG) == appended(main, OWN)
    assert "protected side is ours: a rebase is in progress" in result.stderr
