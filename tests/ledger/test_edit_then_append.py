"""A branch that edits the base's last entry and appends after it: the edit is named,
and the appended entry is an append, not an entry "inserted before the base's last
entry" (verify --base and the merge driver in a real rebase alike)."""

from __future__ import annotations

import os
import subprocess
from functools import partial

from conftest import GitRepo
from merge_helpers import appended, changelog_tool, entry
from projects import LOG, NVIDIA, NVIDIA_TEXT, codes, verify

from changelog_tool.merge.threeway import Refused, merge

ONLY = entry("a-vllm", "Add a", "https://github.com/acme/bench/pull/1")
EDITED = ONLY.replace(b"Add a", b"Add a (reworded)")
NEW = entry("b-vllm", "Add b")


def one_entry_project(repo: GitRepo) -> GitRepo:
    repo.commit(
        "base",
        **{NVIDIA: NVIDIA_TEXT, LOG: ONLY, ".perf-changelog.toml": 'repository = "acme/bench"\n'},
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def test_verify_base_reports_only_the_changed_entry(repo: GitRepo) -> None:
    one_entry_project(repo)
    repo.commit("edit and append", **{LOG: appended(EDITED, NEW)})
    code, document = verify(repo)
    assert code == 1
    assert codes(document) == ["history-modified"], document["findings"]
    [finding] = document["findings"]
    assert "changed entry 1" in finding["message"]
    assert "inserted" not in finding["message"]


def test_the_merge_reports_only_the_changed_entry() -> None:
    main = appended(ONLY, entry("m-rocm", link=7))
    result = merge(ONLY, main, appended(EDITED, NEW), "ours")
    assert isinstance(result, Refused)
    assert [p.message.split(" (")[0] for p in result.problems] == ["theirs changed entry 1"]


def test_a_rebase_through_the_driver_reports_only_the_changed_entry(repo: GitRepo) -> None:
    one_entry_project(repo)
    tool = partial(changelog_tool, repo.root)
    assert tool("install").returncode == 0
    repo.commit("edit and append", **{LOG: appended(EDITED, NEW)})
    repo.git("checkout", "-q", "main")
    repo.commit("main appends", **{LOG: appended(ONLY, entry("m-rocm", link=7))})
    repo.git("checkout", "-q", "feature")
    done = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, env=os.environ
    )
    assert done.returncode != 0
    said = [line for line in done.stderr.splitlines() if "history-modified" in line]
    assert len(said) == 1 and "theirs changed entry 1" in said[0], done.stderr
    assert "inserted" not in done.stderr
