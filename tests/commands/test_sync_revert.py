"""A removal main made stays removed: after main reverts its newest entry, a
branch made before the revert starts with main's bytes, and `sync`, `sync
--commit` and `finalize --onto` must still take their base from git."""

from __future__ import annotations

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, entry
from projects import run as tool

LOG = "perf-changelog.yaml"
KEPT = changelog(entry("a", link=1))
REVERTED = entry("reverted", link=2)
OWN = entry("own")


def branch_made_before_a_revert(repo: GitRepo) -> bytes:
    """main: KEPT, then REVERTED appended and reverted; the branch forked between."""
    repo.commit("base", **{LOG: KEPT})
    repo.commit("entry", **{LOG: appended(KEPT, REVERTED)})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own", **{LOG: appended(KEPT, REVERTED, OWN)})
    repo.git("checkout", "-q", "main")
    repo.git("revert", "--no-edit", "HEAD")
    main = repo.read(LOG)
    assert main == KEPT  # the real reverts left main's file a byte prefix of the one before
    repo.git("checkout", "-q", "feature")
    assert repo.read(LOG).startswith(main)
    return main


@pytest.mark.parametrize(
    "args",
    [
        ("sync", "--onto", "main"),
        ("sync", "--onto", "main", "--commit"),
        ("finalize", "--pr-number", "7", "--onto", "main"),
    ],
)
def test_an_entry_main_reverted_stays_removed(repo: GitRepo, args: tuple[str, ...]) -> None:
    main = branch_made_before_a_revert(repo)
    done = tool(repo.root, *args)
    assert done.returncode == 0, done.stdout + done.stderr
    result = repo.read(LOG)
    assert result.startswith(main)
    assert b"reverted" not in result
    assert b"Update own" in result
