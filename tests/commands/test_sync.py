"""`changelog sync [--onto REF] [--commit]`: the branch's changelog becomes REF's bytes
plus the branch's own entries; committed as a merge, the pull request's conflict goes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, entry
from projects import run as tool

LOG = "perf-changelog.yaml"
BASE = changelog(entry("a", link=1), entry("dup", link=2), entry("dup", link=2))
MAIN = appended(changelog(entry("a", link=1), entry("dup", link=2)), entry("m1", link=3))
OWN = [entry("own-1"), entry("own-2")]


def pull_request(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE, "README": "base\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own 1", **{LOG: appended(BASE, OWN[0])})
    repo.commit("own 2", **{LOG: appended(BASE, *OWN), "feature.txt": "work\n"})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: MAIN, "README": "main moved\n"})
    repo.git("checkout", "-q", "feature")


def test_sync_rewrites_the_work_tree_file_as_main_plus_the_branchs_entries(
    repo: GitRepo,
) -> None:
    pull_request(repo)
    head = repo.git("rev-parse", "HEAD")
    result = tool(repo.root, "sync")
    assert result.returncode == 0, result.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN)
    assert repo.git("rev-parse", "HEAD") == head  # nothing committed
    assert "changelog sync --commit" in result.stdout


def test_sync_commit_records_a_merge_that_clears_the_pull_requests_conflict(
    repo: GitRepo,
) -> None:
    pull_request(repo)
    result = tool(repo.root, "sync", "--commit", "--format", "json")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["ok"] and document["written"] and document["commit"]
    parents = repo.git("rev-list", "--parents", "-n", "1", "HEAD").split()[1:]
    assert repo.git("rev-parse", "main") in parents
    assert repo.read(LOG) == appended(MAIN, *OWN)
    assert repo.read("README") == b"main moved\n"  # the rest of main came along
    # what the hosting service does, with no merge driver: merge the branch into main
    repo.git("checkout", "-q", "main")
    merged = subprocess.run(
        ["git", "merge", "--no-ff", "--no-edit", "feature"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert merged.returncode == 0, merged.stdout + merged.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN)


def test_sync_when_already_in_sync_writes_nothing(repo: GitRepo) -> None:
    pull_request(repo)
    assert tool(repo.root, "sync", "--commit").returncode == 0
    head = repo.git("rev-parse", "HEAD")
    again = tool(repo.root, "sync", "--commit")
    assert again.returncode == 0 and "already" in again.stdout
    assert repo.git("rev-parse", "HEAD") == head


def test_sync_refuses_a_branch_that_edited_history_and_writes_nothing(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    edited = appended(BASE.replace(b"Update a", b"Edit a"), OWN[0])
    repo.commit("edit", **{LOG: edited})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: MAIN})
    repo.git("checkout", "-q", "feature")
    result = tool(repo.root, "sync")
    assert result.returncode == 1
    assert "history-modified: ours changed entry 1" in result.stdout
    assert repo.read(LOG) == edited


def test_sync_commit_refuses_uncommitted_changelog_changes(repo: GitRepo) -> None:
    pull_request(repo)
    repo.write(LOG, appended(BASE, *OWN, entry("draft")))
    result = tool(repo.root, "sync", "--commit")
    assert result.returncode == 1 and "uncommitted" in result.stderr


def test_sync_onto_an_unknown_ref_says_what_to_fetch(repo: GitRepo) -> None:
    pull_request(repo)
    result = tool(repo.root, "sync", "--onto", "origin/main")
    assert result.returncode == 2
    assert "git fetch origin main" in result.stderr


def test_sync_onto_another_ref(repo: GitRepo) -> None:
    pull_request(repo)
    repo.git("branch", "release", "main")
    result = tool(repo.root, "sync", "--onto", "release")
    assert result.returncode == 0, result.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN)


def test_sync_commit_stops_on_other_conflicting_files_with_the_changelog_staged(
    repo: GitRepo,
) -> None:
    pull_request(repo)
    repo.commit("branch edits the readme too", README="branch\n")
    result = tool(repo.root, "sync", "--commit")
    assert result.returncode == 1
    assert "stopped on other files (README)" in result.stdout
    assert repo.read(LOG) == appended(MAIN, *OWN)
    assert repo.git("diff", "--name-only", "--diff-filter=U") == "README"
    assert repo.git("diff", "--cached", "--name-only", "--", LOG) == LOG


def blob(repo: GitRepo, spec: str) -> bytes:
    return subprocess.run(
        ["git", "show", spec], cwd=repo.root, capture_output=True, check=True
    ).stdout


def main_with_history(repo: GitRepo) -> None:
    """main: three commits that each append one entry (so main~2 has one entry)."""
    data = entry("a", link=1)
    keys = "".join(f"{k}:\n  image: i\n" for k in ("a", "m1", "m2", "own-key"))
    repo.commit("a", **{LOG: data, "configs/nvidia-master.yaml": keys})
    for n, key in enumerate(["m1", "m2"], start=2):
        data = appended(data, entry(key, link=n))
        repo.commit(key, **{LOG: data})


def test_sync_then_sync_commit_as_its_hint_says_records_the_merge(repo: GitRepo) -> None:
    main_with_history(repo)
    repo.git("checkout", "-q", "-b", "b4", "main~2")
    added = tool(repo.root, "add", "--no-input", "--key", "own-key", "--description", "Own")
    assert added.returncode == 0, added.stderr
    repo.git("commit", "-qam", "e")
    own = repo.read(LOG)[len(entry("a", link=1)) + 1 :]
    synced = tool(repo.root, "sync", "--onto", "main")
    assert synced.returncode == 0, synced.stderr
    assert "`changelog sync --commit --onto main`" in synced.stdout
    committed = tool(repo.root, "sync", "--commit")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    expected = appended(blob(repo, f"main:{LOG}"), own)
    assert repo.read(LOG) == expected
    assert repo.git("status", "--porcelain") == ""
    parents = repo.git("rev-list", "--parents", "-n", "1", "HEAD").split()[1:]
    assert repo.git("rev-parse", "main") in parents
    assert blob(repo, f"HEAD:{LOG}") == expected


def test_sync_commit_after_sync_twice_still_records_the_merge(repo: GitRepo) -> None:
    pull_request(repo)
    assert tool(repo.root, "sync").returncode == 0
    again = tool(repo.root, "sync")
    assert again.returncode == 0 and "`changelog sync --commit`" in again.stdout
    assert tool(repo.root, "sync", "--commit").returncode == 0
    assert repo.git("rev-parse", "main") in repo.git("rev-list", "--parents", "-n", "1", "HEAD")
    assert repo.git("status", "--porcelain") == ""


def test_after_syncing_uncommitted_entries_the_hint_says_to_commit_them_first(
    repo: GitRepo,
) -> None:
    pull_request(repo)
    repo.write(LOG, appended(BASE, *OWN, entry("draft")))
    synced = tool(repo.root, "sync")
    assert synced.returncode == 0, synced.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN, entry("draft"))
    assert "uncommitted" in synced.stdout
    repo.git("commit", "-qam", "draft entry")
    committed = tool(repo.root, "sync", "--commit")
    assert committed.returncode == 0, committed.stdout + committed.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN, entry("draft"))
    assert repo.git("rev-parse", "main") in repo.git("rev-list", "--parents", "-n", "1", "HEAD")


def test_when_the_merge_cannot_start_the_synced_file_is_left_as_sync_wrote_it(
    repo: GitRepo,
) -> None:
    pull_request(repo)
    assert tool(repo.root, "sync").returncode == 0
    repo.write("README", "local edit main's merge would overwrite\n")
    result = tool(repo.root, "sync", "--commit")
    assert result.returncode == 1 and "uncommitted changes here (README)" in result.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN)
    assert not (repo.root / ".git" / "MERGE_HEAD").exists()


def test_sync_racing_an_add_never_loses_the_added_entry(repo: GitRepo) -> None:
    """`sync` reads the file, then writes under the writer's lock: an entry another
    process appended in between is kept (sync refuses and says to run again)."""
    import fcntl
    import os
    import time

    pull_request(repo)
    path = repo.root / LOG
    holder = os.open(path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)  # a concurrent writer holds the lock
    try:
        sync = subprocess.Popen(
            [sys.executable, "-m", "changelog_tool", "sync"],
            cwd=repo.root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert sync.stderr is not None
        waited = sync.stderr.readline()  # sync has read the file and waits for the lock
        assert "waiting for another process writing" in waited
        with path.open("ab") as handle:  # ... and the other writer appends its entry
            handle.write(b"\n" + entry("racing-add"))
        time.sleep(0.1)
    finally:
        os.close(holder)
    out, err = sync.communicate(timeout=60)
    assert sync.returncode == 1, out + err
    assert "changed while this command ran" in err
    assert path.read_bytes() == appended(appended(BASE, *OWN), entry("racing-add"))


def hint_in(output: str) -> list[str]:
    """The `changelog ...` command a message tells the user to run next."""
    import re
    import shlex

    found = re.findall(r"`(changelog [^`]+)`", output)
    assert found, output
    return shlex.split(found[-1])[1:]


@pytest.mark.parametrize("explicit_ref", [False, True])
def test_every_hint_sync_prints_succeeds_when_run_as_printed(
    repo: GitRepo, explicit_ref: bool
) -> None:
    """Follow sync's advice word for word until it says there is nothing left to do."""
    pull_request(repo)
    if explicit_ref:  # a ref that is not the default protected one (e.g. upstream's main)
        repo.git("branch", "-m", "main", "trunk")
    args = ["sync", "--onto", "trunk"] if explicit_ref else ["sync"]
    first = tool(repo.root, *args)
    assert first.returncode == 0, first.stdout + first.stderr
    follow = hint_in(first.stdout)
    assert follow[:2] == ["sync", "--commit"]
    second = tool(repo.root, *follow)
    assert second.returncode == 0, second.stdout + second.stderr
    assert "committed" in second.stdout
    trunk = "trunk" if explicit_ref else "main"
    assert repo.git("rev-parse", trunk) in repo.git("rev-list", "--parents", "-n", "1", "HEAD")
    assert repo.read(LOG) == appended(MAIN, *OWN)


def test_after_an_entry_order_warning_the_hinted_sync_rebuilds_main_plus_the_branchs_entries(
    repo: GitRepo,
) -> None:
    keys = "".join(f"{k}:\n  image: i\n" for k in ("a", "dup", "m1", "m2", "own-1"))
    repo.commit("base", **{LOG: BASE, "configs/nvidia-master.yaml": keys})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own 1", **{LOG: appended(BASE, OWN[0])})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: MAIN})
    repo.git("checkout", "-q", "feature")
    # a hand merge of main left the branch's entry before main's newer one
    repo.git("merge", "-q", "--no-commit", "-s", "ours", "main")
    kept = changelog(entry("a", link=1), entry("dup", link=2))
    repo.commit("Merge main by hand", **{LOG: appended(kept, OWN[0], entry("m1", link=3))})
    repo.git("checkout", "-q", "main")
    main = appended(MAIN, entry("m2", link=4))
    repo.commit("main 2", **{LOG: main})
    repo.git("checkout", "-q", "feature")
    judged = tool(repo.root, "verify", "--base", "main")
    # form, not a refusal: the entry is read wherever it stands
    assert judged.returncode == 0 and "entry-order" in judged.stdout
    assert "`changelog sync` rewrites it" in judged.stdout
    synced = tool(repo.root, "sync")  # the hint, followed
    assert synced.returncode == 0, synced.stdout + synced.stderr
    assert repo.read(LOG) == appended(main, OWN[0])
    assert "with `changelog sync --commit`" in synced.stdout
    committed = tool(repo.root, "sync", "--commit")  # its own hint, followed
    assert committed.returncode == 0, committed.stdout + committed.stderr
    judged = tool(repo.root, "verify", "--base", "main")
    assert judged.returncode == 0, judged.stdout


def test_a_refused_sync_says_what_to_put_back_and_running_it_again_works(
    repo: GitRepo,
) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("edit", **{LOG: appended(BASE.replace(b"Update a", b"Edit a"), OWN[0])})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: MAIN})
    repo.git("checkout", "-q", "feature")
    refused = tool(repo.root, "sync")
    assert refused.returncode == 1
    assert "`git show main:perf-changelog.yaml` prints its file" in refused.stdout
    assert "then run `changelog sync` again" in refused.stdout
    # put back what is named (entry 1, as main has it), then run it again
    repo.write(LOG, repo.read(LOG).replace(b"Edit a", b"Update a"))
    again = tool(repo.root, "sync")
    assert again.returncode == 0, again.stdout + again.stderr
    assert repo.read(LOG) == appended(MAIN, OWN[0])


def test_a_sync_refused_for_an_entry_that_does_not_parse_says_to_fix_it(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("broken entry", **{LOG: appended(BASE, b"- config-keys: [unclosed\n")})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: MAIN})
    repo.git("checkout", "-q", "feature")
    refused = tool(repo.root, "sync")
    assert refused.returncode == 1
    assert "was not changed: fix what is named above, then run `changelog sync` again" in (
        refused.stdout
    )
    repo.write(LOG, appended(BASE, OWN[0]))  # fixed
    assert tool(repo.root, "sync").returncode == 0
    assert repo.read(LOG) == appended(MAIN, OWN[0])
