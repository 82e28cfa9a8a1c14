"""With real git and the driver installed: a merge on a protected branch keeps that
branch's bytes (certain); on a side that is only a guess, nothing a side committed
moves or is replaced; and what the driver, ``resolve`` and ``sync`` say when they
stop (a pr-link correction carried, a revert, a deleted changelog, a dirty work
tree)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, entry, recording_git
from merge_helpers import changelog_tool as tool
from projects import run_process

from changelog_tool.merge.outcome import merge_sides
from changelog_tool.merge.protected import Context, Decision, decide

LOG = "perf-changelog.yaml"
BASE = changelog(*(entry(f"old-key-{n}", link=100 + n) for n in range(4)))
A_OWN = entry("a-key", "A own", 500)
B_OWN = entry("b-key", "B own", 501)


def git(repo: GitRepo, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "GIT_REFLOG_ACTION"}
    return subprocess.run(
        ["git", *args], cwd=repo.root, capture_output=True, text=True, env=env, check=False
    )


def installed(repo: GitRepo, data: bytes = BASE) -> GitRepo:
    repo.commit("base", **{LOG: data})
    assert tool(repo.root, "install").returncode == 0
    repo.commit("mark the changelog for the merge driver")
    return repo


def cloned(upstream: GitRepo, into: Path) -> GitRepo:
    subprocess.run(["git", "clone", "-q", str(upstream.root), str(into)], check=True)
    clone = GitRepo(into)
    assert tool(clone.root, "install").returncode == 0
    return clone


def two_branches(repo: GitRepo, a: bytes = A_OWN, b: bytes = B_OWN) -> None:
    """``featA`` and ``featB`` off main, each appending its own entry."""
    start = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "featA", start)
    repo.commit("a", **{LOG: appended(BASE, a)})
    repo.git("checkout", "-q", "-b", "featB", start)
    repo.commit("b", **{LOG: appended(BASE, b)})


# --- 1. a merge on a protected branch: ours is protected, and that is certain ----------


def test_merging_two_branches_in_turn_on_main_keeps_mains_committed_bytes(
    repo: GitRepo, tmp_path: Path
) -> None:
    installed(repo)
    clone = cloned(repo, tmp_path / "clone")
    two_branches(clone)
    clone.git("checkout", "-q", "main")
    clone.git("merge", "-q", "--ff-only", "featA")  # main now ahead of origin/main
    on_main = clone.read(LOG)
    result = git(clone, "merge", "--no-edit", "featB")
    assert result.returncode == 0, result.stderr
    assert clone.read(LOG) == appended(on_main, B_OWN)  # main's bytes, then featB's entry
    assert "protected side is ours: the merge writes main, a protected branch" in result.stderr
    assert "did not say" not in result.stderr


def test_pull_on_main_still_makes_origins_main_protected(repo: GitRepo, tmp_path: Path) -> None:
    installed(repo)
    clone = cloned(repo, tmp_path / "clone")
    clone.commit("local entry", **{LOG: appended(BASE, A_OWN)})
    repo.commit("upstream entry", **{LOG: appended(BASE, B_OWN)})
    result = git(clone, "pull", "-q", "--no-rebase", "--no-edit", "origin", "main")
    assert result.returncode == 0, result.stderr
    assert clone.read(LOG) == appended(BASE, B_OWN, A_OWN)  # origin's main leads
    assert "protected side is theirs" in result.stderr


def test_a_merge_on_main_needs_no_git_process(repo: GitRepo, tmp_path: Path) -> None:
    """The branch is read from the git directory's HEAD file (``GIT_DIR`` when git
    exports it): no ``git`` runs, and no protected ref is asked."""
    installed(repo)
    tools, calls = recording_git(tmp_path)
    ours, theirs = appended(BASE, A_OWN), appended(BASE, B_OWN)
    for git_dir in (None, ".git"):
        calls.write_text("")
        for name, data in (("O", BASE), ("A", ours), ("B", theirs)):
            repo.write(f".merge_file_{name}", data)
        env = {
            "PATH": f"{tools}{os.pathsep}{os.environ['PATH']}",
            "GIT_REFLOG_ACTION": "merge featB",
            "GIT_DIR": git_dir,
        }
        files = [f".merge_file_{n}" for n in "OAB"]
        # a process of its own, as git starts it: every git it runs is counted, its
        # start-up's included
        result = run_process(repo, "merge-driver", *files, LOG, env=env)
        assert result.returncode == 0, result.stderr
        assert "the merge writes main" in result.stderr
        assert calls.read_text().split() == []
        assert repo.read(".merge_file_A") == appended(ours, B_OWN)


@pytest.mark.parametrize(
    ("action", "operation", "branch", "side", "certain", "asks"),
    [
        ("merge featB", None, "main", "ours", True, True),  # the merge writes main
        (None, "merge featB", "main", "ours", True, True),  # resolve: MERGE_MSG names featB
        ("merge featB", None, "featA", "theirs", False, True),  # neither protected: a guess
        ("merge featB", None, None, "theirs", False, True),  # detached HEAD
        ("merge origin/main", None, "main", "theirs", True, False),  # protected merged in
        ("pull", None, "main", "theirs", True, False),  # `git pull` on main: origin's main
        ("pull", "rebase", "main", "ours", True, False),
        ("rebase (pick)", None, None, "ours", True, False),
        (None, None, "main", "ours", True, False),  # not a merge: the branch is not asked
    ],
)
def test_a_merge_on_a_protected_branch_makes_ours_protected_after_the_operation_rules(
    action: str | None,
    operation: str | None,
    branch: str | None,
    side: str,
    certain: bool,
    asks: bool,
) -> None:
    asked: list[bool] = []

    def current() -> str | None:
        asked.append(True)
        return branch

    decision = decide(Context(action=action, operation=lambda: operation, current_branch=current))
    assert (decision.side, decision.certain) == (side, certain)
    assert bool(asked) == asks


# --- 1, 2. on a guessed side, nothing committed moves or is replaced ---------------------


def test_merging_one_feature_branch_into_another_is_refused_on_a_guess(repo: GitRepo) -> None:
    installed(repo)
    two_branches(repo)
    repo.git("checkout", "-q", "featA")
    result = git(repo, "merge", "--no-edit", "featB")
    assert result.returncode != 0
    assert "only a guess" in result.stderr
    assert "changelog resolve --protected ours|theirs" in result.stderr
    assert "theirs' new entries would come before it" in result.stderr
    assert LOG in git(repo, "diff", "--name-only", "--diff-filter=U").stdout
    resolved = tool(repo.root, "resolve", "--protected", "ours")
    assert resolved.returncode == 0, resolved.stdout + resolved.stderr
    assert repo.read(LOG) == appended(BASE, A_OWN, B_OWN)


def test_a_duplicate_with_ours_real_pr_link_is_not_replaced_by_theirs_placeholder(
    repo: GitRepo,
) -> None:
    installed(repo)
    shared_real = entry("shared-key", "shared", 300)
    shared_draft = entry("shared-key", "shared", "XXX")
    start = repo.git("rev-parse", "HEAD")
    repo.git("checkout", "-q", "-b", "mine", start)
    repo.commit("mine", **{LOG: appended(BASE, shared_real)})
    repo.git("checkout", "-q", "-b", "theirs", start)
    repo.commit("theirs", **{LOG: appended(BASE, shared_draft, entry("their-own", "own"))})
    repo.git("checkout", "-q", "mine")
    result = git(repo, "merge", "--no-edit", "theirs")
    assert result.returncode != 0
    assert "equal but for pr-link, would replace it" in result.stderr
    assert "changelog resolve --protected ours|theirs" in result.stderr
    assert repo.git("rev-parse", "HEAD~0") == repo.git("rev-parse", "mine")  # nothing committed


def test_on_a_guess_a_side_that_holds_all_of_the_others_bytes_still_merges() -> None:
    ours, theirs = appended(BASE, A_OWN), appended(BASE, A_OWN, B_OWN)
    guess = Decision("theirs", "a default", certain=False)
    outcome = merge_sides(LOG, BASE, ours, theirs, Context(decision=guess))
    assert outcome.ok and outcome.result.data == theirs  # type: ignore[union-attr]


# --- 3. a carried pr-link correction is not "byte for byte" ---------------------------


def test_a_carried_pr_link_correction_is_named_in_the_summary(repo: GitRepo) -> None:
    old = entry("old-key-1", link=101)
    fixed = old.replace(b"pull/101", b"pull/1010")
    installed(repo)
    repo.git("checkout", "-q", "-b", "fix")
    corrected = BASE.replace(old, fixed)
    repo.commit("fix an old pr-link", **{LOG: corrected})
    repo.commit("own entry", **{LOG: appended(corrected, A_OWN)})
    repo.git("checkout", "-q", "main")
    repo.commit("main entry", **{LOG: appended(BASE, B_OWN)})
    repo.git("checkout", "-q", "fix")
    result = git(repo, "rebase", "main")
    assert result.returncode == 0, result.stderr
    assert repo.read(LOG) == appended(corrected, B_OWN, A_OWN)
    assert "merged: kept ours but for theirs' pr-link correction (line" in result.stderr
    assert "carried theirs' pr-link correction onto line" in result.stderr
    assert "byte for byte; theirs has no new entry" not in result.stderr
    assert "theirs's" not in result.stderr and "ours's" not in result.stderr


# --- 4. a revert: ours is protected, and the advice fits -------------------------------


@pytest.mark.parametrize("several", [False, True])
def test_a_revert_of_an_appended_entry_keeps_ours_and_says_entries_stay(
    repo: GitRepo, several: bool
) -> None:
    installed(repo)
    repo.git("checkout", "-q", "-b", "feature")  # no protected ref holds these entries
    repo.commit("one", **{LOG: appended(BASE, A_OWN)})
    repo.commit("two", **{LOG: appended(BASE, A_OWN, B_OWN)})
    targets = ["HEAD~1", "HEAD"] if several else ["HEAD~1"]
    result = git(repo, "revert", "--no-edit", *targets)
    assert result.returncode != 0
    if several:  # the sequencer's todo names the revert while git merges
        assert "protected side is ours: a revert is in progress" in result.stderr
    else:  # git names a revert of one commit nowhere the driver can read
        assert "protected side is ours: not a merge: ours is HEAD" in result.stderr
    assert "re-append" not in result.stderr
    assert "as a revert of an appended entry does" in result.stderr
    assert f"git checkout --ours -- {LOG}" in result.stderr
    assert repo.read(LOG).startswith(BASE)


# --- 5. resolve when one side deleted the changelog ------------------------------------


def test_resolve_of_a_deleted_changelog_names_the_commands(repo: GitRepo) -> None:
    installed(repo)
    repo.git("checkout", "-q", "-b", "feature")
    repo.git("rm", "-q", LOG)
    repo.git("commit", "-q", "-m", "drop the changelog")
    repo.git("checkout", "-q", "main")
    repo.commit("main entry", **{LOG: appended(BASE, B_OWN)})
    repo.git("checkout", "-q", "feature")
    assert git(repo, "merge", "--no-edit", "main").returncode != 0
    result = tool(repo.root, "resolve")
    assert result.returncode == 1
    message = result.stderr
    assert f"{LOG} was deleted by ours and changed by theirs" in message
    assert f"`git rm {LOG}`" in message
    assert f"`git checkout --theirs {LOG}` then `git add {LOG}`" in message
    assert "ours's" not in message and "by hand" not in message


# --- 6. sync --commit over uncommitted changes the merge would touch -------------------


def test_sync_commit_over_a_dirty_file_main_changed_says_commit_or_stash(
    repo: GitRepo,
) -> None:
    installed(repo)
    repo.commit("readme", README="one\n")
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own entry", **{LOG: appended(BASE, A_OWN)})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: appended(BASE, B_OWN), "README": "one\ntwo\n"})
    repo.git("checkout", "-q", "feature")
    repo.write("README", "one\nmine\n")
    result = tool(repo.root, "sync", "--commit", "--onto", "main")
    assert result.returncode == 1
    message = result.stderr
    assert "uncommitted changes here (README)" in message
    assert "Commit them, or stash them" in message
    assert "`changelog sync --commit --onto main` again" in message
    assert "merge-driver" not in message and "merged:" not in message
    assert "\\t" not in message and "\t" not in message
    assert repo.read("README") == b"one\nmine\n"
    assert not (repo.root / ".git" / "MERGE_HEAD").exists()
    assert repo.read(LOG) == appended(BASE, A_OWN)
