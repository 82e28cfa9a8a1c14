"""`changelog resolve`: a rebase or merge started without the driver stops on the
changelog; resolve writes the merge from the index stages and stages it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from conftest import GitRepo
from merge_helpers import appended, changelog, entry
from projects import run as tool

LOG = "perf-changelog.yaml"
BASE = changelog(entry("a", link=1), entry("b", link=2), entry("b", link=2))
MAIN = appended(
    changelog(entry("a", link=1), entry("b", link=2)), entry("m1", link=3), entry("m2", link=4)
)
OWN = [entry("own-1"), entry("own-2"), entry("own-3")]


def git(repo: GitRepo, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "GIT_EDITOR": "true"}
    return subprocess.run(
        ["git", *args], cwd=repo.root, capture_output=True, text=True, env=env, check=False
    )


def branch_and_main(repo: GitRepo, own: list[bytes] = OWN) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    data = BASE
    for item in own:
        data = appended(data, item)
        repo.commit("own", **{LOG: data})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: MAIN})
    repo.git("checkout", "-q", "feature")


def test_a_stopped_rebase_is_resolved_commit_by_commit_until_it_completes(repo: GitRepo) -> None:
    branch_and_main(repo)
    step = git(repo, "rebase", "main")
    rounds = 0
    while step.returncode != 0:
        assert "CONFLICT" in step.stdout + step.stderr
        resolved = tool(repo.root, "resolve")
        assert resolved.returncode == 0, resolved.stdout + resolved.stderr
        assert "git rebase --continue" in resolved.stdout
        assert repo.git("diff", "--name-only", "--diff-filter=U") == ""
        step = git(repo, "rebase", "--continue")
        rounds += 1
    assert rounds >= 1
    assert repo.read(LOG) == appended(MAIN, *OWN)


def test_a_stopped_merge_of_main_is_resolved_with_main_protected(repo: GitRepo) -> None:
    branch_and_main(repo)
    assert git(repo, "merge", "main").returncode != 0
    resolved = tool(repo.root, "resolve", "--format", "json")
    assert resolved.returncode == 0, resolved.stderr
    document = json.loads(resolved.stdout)
    assert document["ok"] and document["protected"] == "theirs" and document["written"]
    assert len(document["kept"]) == 3 and len(document["removed_by_protected"]) == 1
    assert repo.read(LOG) == appended(MAIN, *OWN)
    assert git(repo, "commit", "--no-edit").returncode == 0


def test_a_stale_protected_ref_does_not_turn_a_merge_of_main_around(repo: GitRepo) -> None:
    # a fork's stale remote-tracking main still holds the duplicate main has since
    # removed: the branch begins with it, main does not
    repo.write(".perf-changelog.toml", 'protected-ref = ["fork/main"]\n')
    branch_and_main(repo)
    repo.git("update-ref", "refs/remotes/fork/main", "main~1")
    assert git(repo, "merge", "main").returncode != 0
    resolved = tool(repo.root, "resolve", "--format", "json")
    assert resolved.returncode == 0, resolved.stdout
    document = json.loads(resolved.stdout)
    assert document["protected"] == "theirs" and document["protected_certain"]
    assert "merge main is in progress" in document["protected_reason"]
    assert repo.read(LOG) == appended(MAIN, *OWN)


def test_resolve_without_a_conflict_on_the_changelog_refuses_clearly(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE})
    result = tool(repo.root, "resolve")
    assert result.returncode == 1
    assert "no conflict to resolve" in result.stderr and "nothing was written" in result.stderr


def test_resolve_refuses_a_branch_that_edited_history_and_leaves_the_file(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("edit", **{LOG: appended(BASE.replace(b"Update a", b"Edit a"), OWN[0])})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: MAIN})
    repo.git("checkout", "-q", "feature")
    assert git(repo, "rebase", "main").returncode != 0
    conflicted = repo.read(LOG)
    result = tool(repo.root, "resolve")
    assert result.returncode == 1
    line = BASE[: BASE.index(b"Update a")].count(b"\n") + 1  # the edited line
    assert f"{LOG}:{line}: history-modified: theirs changed entry 1" in result.stdout
    assert repo.read(LOG) == conflicted
    assert repo.git("diff", "--name-only", "--diff-filter=U") == LOG


def test_the_protected_side_can_be_chosen_on_the_command_line(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own", **{LOG: appended(BASE, OWN[0])})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: appended(BASE, entry("m1", link=3))})
    repo.git("checkout", "-q", "feature")
    assert git(repo, "merge", "main").returncode != 0
    result = tool(repo.root, "resolve", "--protected", "ours")
    assert result.returncode == 0, result.stdout
    assert "chosen with --protected" in result.stdout
    assert repo.read(LOG) == appended(BASE, OWN[0], entry("m1", link=3))


DRAFT = entry("main-draft", "Published by main with a placeholder")  # pr-link: XXX


def placeholder_edited(repo: GitRepo) -> bytes:
    """main publishes a placeholder entry; the branch fills in its pr-link and
    appends its own; main then drops an old duplicate, so it still ends with it.
    git's text merge would take both edits without a word, so a driver that always
    fails stands in for a conflict on the changelog (git stops, the stages kept)."""
    published = appended(BASE, DRAFT)
    repo.commit("base", **{LOG: published, ".gitattributes": f"{LOG} merge=stop\n"})
    repo.git("config", "merge.stop.driver", "false")
    repo.git("checkout", "-q", "-b", "feature")
    filled = DRAFT.replace(b"pr-link: XXX", b"pr-link: https://github.com/o/r/pull/77")
    repo.commit("fill in main's pr-link", **{LOG: appended(BASE, filled, OWN[0])})
    repo.git("checkout", "-q", "main")
    main = appended(changelog(entry("a", link=1), entry("b", link=2)), DRAFT)
    repo.commit("main drops the duplicate", **{LOG: main})
    repo.git("checkout", "-q", "feature")
    return main


def test_resolve_in_a_stopped_rebase_keeps_mains_own_placeholder_entry(repo: GitRepo) -> None:
    placeholder_edited(repo)
    assert git(repo, "rebase", "main").returncode != 0
    resolved = tool(repo.root, "resolve")
    assert resolved.returncode == 1, resolved.stdout
    assert "is main's own entry" in resolved.stdout
    assert repo.git("rev-parse", "main") in (repo.root / ".git/rebase-merge/onto").read_text()
    assert LOG in repo.git("diff", "--name-only", "--diff-filter=U")


def test_resolve_in_a_stopped_merge_keeps_mains_own_placeholder_entry(repo: GitRepo) -> None:
    placeholder_edited(repo)
    assert git(repo, "merge", "main").returncode != 0
    resolved = tool(repo.root, "resolve")
    assert resolved.returncode == 1, resolved.stdout
    assert "nothing on it is being replayed" in resolved.stdout


def test_resolve_re_appends_an_entry_the_branch_inserted_mid_history(repo: GitRepo) -> None:
    repo.commit("base", **{LOG: BASE})
    repo.git("checkout", "-q", "-b", "feature")
    inserted = changelog(entry("a", link=1), entry("b", link=2), OWN[0], entry("b", link=2))
    repo.commit("own entries: one before the last, one after", **{LOG: appended(inserted, OWN[1])})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: appended(BASE, entry("m1", link=3))})
    repo.git("checkout", "-q", "feature")
    assert git(repo, "rebase", "main").returncode != 0
    resolved = tool(repo.root, "resolve")
    assert resolved.returncode == 0, resolved.stdout
    assert repo.read(LOG) == appended(BASE, entry("m1", link=3), OWN[0], OWN[1])


# --- bytes the index stages do not hold are never dropped ----------------------------
ADDED = entry("added-meanwhile", "Appended while the file was unmerged")


def test_an_entry_appended_to_the_conflicted_file_is_named_and_nothing_is_written(
    repo: GitRepo,
) -> None:
    branch_and_main(repo)
    assert git(repo, "rebase", "main").returncode != 0
    conflicted = appended(repo.read(LOG), ADDED)  # as `add` once appended it
    repo.write(LOG, conflicted)
    resolved = tool(repo.root, "resolve")
    assert resolved.returncode == 1
    line = conflicted.count(b"\n") - ADDED.count(b"\n") + 1
    assert f"line {line} (config-keys added-meanwhile)" in resolved.stderr
    assert "nothing was written" in resolved.stderr
    assert repo.read(LOG) == conflicted
    assert LOG in repo.git("diff", "--name-only", "--diff-filter=U")


def test_ours_left_without_markers_plus_an_entry_is_refused_too(repo: GitRepo) -> None:
    """A driver killed under an older install left ours, no markers; then an entry
    was appended: resolve names it instead of rebuilding the file without it."""
    branch_and_main(repo)
    assert git(repo, "rebase", "main").returncode != 0
    ours = repo.git("show", f":2:{LOG}").encode() + b"\n"
    repo.write(LOG, appended(ours, ADDED))
    resolved = tool(repo.root, "resolve")
    assert resolved.returncode == 1 and "config-keys added-meanwhile" in resolved.stderr
    assert repo.read(LOG) == appended(ours, ADDED)
    repo.write(LOG, ours)  # without it, the same file resolves
    assert tool(repo.root, "resolve").returncode == 0


def test_resolve_holds_the_lock_from_its_read_to_its_write(repo: GitRepo) -> None:
    """Another writer holds the changelog's lock and appends under it: resolve waits,
    then reads the file as that writer left it and names the entry (its result is
    computed from the bytes it replaces), never overwriting it."""
    branch_and_main(repo)
    assert git(repo, "rebase", "main").returncode != 0
    path = repo.root / LOG
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time\n"
            "f = open(sys.argv[1], 'ab')\n"
            "fcntl.flock(f, fcntl.LOCK_EX)\n"
            "print('locked', flush=True)\n"
            "time.sleep(1.5)\n"
            "f.write(sys.argv[2].encode()); f.flush()\n",
            str(path),
            "\n" + ADDED.decode(),
        ],
        stdout=subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
    resolved = tool(repo.root, "resolve")
    holder.wait(timeout=30)
    assert resolved.returncode == 1, resolved.stdout
    assert "config-keys added-meanwhile" in resolved.stderr
    assert path.read_bytes().endswith(ADDED)
