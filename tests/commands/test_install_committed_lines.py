"""`changelog install` leaves a committed attribute line that git already applies
to the changelog as it is (asked of git, whatever the pattern looks like), and
`--uninstall` never changes a line git's index holds: install then uninstall
leaves a clone's tracked files as they were."""

from __future__ import annotations

import json

import pytest
from conftest import GitRepo, uses_the_tool
from projects import run as tool

LOG = "perf-changelog.yaml"
LINE = "/perf-changelog.yaml merge=perf-changelog"


@pytest.fixture
def repo(repo: GitRepo) -> GitRepo:
    return uses_the_tool(repo)


@pytest.mark.parametrize(
    "committed",
    [
        "perf-changelog.yaml merge=perf-changelog",
        "*.yaml text\n*changelog.yaml merge=perf-changelog",
        '"perf-changelog.yaml" merge=perf-changelog -diff',
    ],
    ids=["unanchored", "a glob", "quoted, with another attribute"],
)
def test_a_committed_line_git_already_applies_is_left_as_it_is(
    repo: GitRepo, committed: str
) -> None:
    repo.commit("share the driver", **{".gitattributes": committed + "\n"})
    done = tool(repo.root, "install", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert repo.git("status", "--porcelain") == ""  # no modified tracked file
    [step] = [s for s in json.loads(done.stdout)["steps"] if s["what"] == ".gitattributes"]
    assert str(step["done"]).startswith("left as it is: git already applies the driver")
    assert repo.git("check-attr", "merge", "--", LOG) == f"{LOG}: merge: perf-changelog"
    assert tool(repo.root, "install", "--uninstall").returncode == 0
    assert repo.git("status", "--porcelain") == ""
    assert (repo.root / ".gitattributes").read_text() == committed + "\n"


def test_uninstall_takes_back_only_what_install_added_to_a_tracked_file(repo: GitRepo) -> None:
    original = b"*.png binary\r\n"
    repo.commit("attributes", **{".gitattributes": original})
    assert tool(repo.root, "install").returncode == 0
    assert repo.read(".gitattributes") == original + LINE.encode() + b"\r\n"
    assert tool(repo.root, "install", "--uninstall").returncode == 0
    assert repo.read(".gitattributes") == original
    assert repo.git("status", "--porcelain") == ""
