"""After `git rebase -X theirs main` dropped main's entries, `sync` names the
branch's own entries, recovered from its own commits, and `sync --rebuild` writes
main's bytes, then those entries. A real rebase."""

from __future__ import annotations

from conftest import GitRepo
from merge_helpers import appended, changelog, entry
from projects import run as tool

LOG = "perf-changelog.yaml"
BASE = changelog(entry("a", link=1))
MAINS = entry("m1", link=2)
OWN = entry("own")


def rebased_with_theirs(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own", **{LOG: appended(BASE, OWN)})
    repo.git("checkout", "-q", "main")
    repo.commit("main's entry", **{LOG: appended(BASE, MAINS)})
    repo.git("checkout", "-q", "feature")
    repo.git("rebase", "-q", "-X", "theirs", "main")
    assert b"Update m1" not in repo.read(LOG)  # main's entry is gone


def test_sync_names_the_recovered_entries_and_writes_nothing(repo: GitRepo) -> None:
    rebased_with_theirs(repo)
    before = repo.read(LOG)
    done = tool(repo.root, "sync")
    assert done.returncode == 1
    assert "changelog sync --rebuild" in done.stdout + done.stderr
    assert "- own" in done.stdout + done.stderr
    assert repo.read(LOG) == before


def test_sync_rebuild_puts_mains_bytes_back_then_the_branchs_entries(repo: GitRepo) -> None:
    rebased_with_theirs(repo)
    done = tool(repo.root, "sync", "--rebuild", "--commit")
    assert done.returncode == 0, done.stdout + done.stderr
    assert repo.read(LOG) == appended(appended(BASE, MAINS), OWN)
    assert repo.git("status", "--porcelain") == ""
    verified = tool(repo.root, "verify", "--base", "main")
    assert "history-modified" not in verified.stdout


def test_sync_rebuild_keeps_the_branchs_later_edit_of_its_own_entry(repo: GitRepo) -> None:
    """A placeholder link made real in a later commit: the rebuilt entry is the edited one."""
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own", **{LOG: appended(BASE, OWN)})
    linked = entry("own", link=7)
    repo.commit("link", **{LOG: appended(BASE, linked)})
    repo.git("checkout", "-q", "main")
    repo.commit("main's entry", **{LOG: appended(BASE, MAINS)})
    repo.git("checkout", "-q", "feature")
    repo.git("rebase", "-q", "-X", "theirs", "main")
    done = tool(repo.root, "sync", "--rebuild", "--commit")
    assert done.returncode == 0, done.stdout + done.stderr
    assert repo.read(LOG) == appended(appended(BASE, MAINS), linked)
