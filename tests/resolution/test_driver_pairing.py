"""The merge driver in real rebases, judged by the one comparison of entries: an own
entry is any entry the base lacks, wherever the branch's file has it; whitespace and
blank lines in old entries are form, not edits; an edit of an entry main holds is
refused, the entry named."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from conftest import GitRepo
from merge_helpers import appended, changelog, changelog_tool, entry
from projects import LOG

A, B = entry("a-vllm", link=1), entry("b-vllm", link=2)
M1, M2 = entry("main-one", link=11), entry("main-two", link=12)
OWN, LATER = entry("own-key"), entry("own-later")
BASE = changelog(A, B)


def project(repo: GitRepo) -> None:
    """main holds A and B, the driver installed; ``feature`` branches from there."""
    repo.commit("base", **{LOG: BASE})
    assert changelog_tool(repo.root, "install").returncode == 0
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "install the driver", check=False)
    repo.git("checkout", "-q", "-b", "feature")


def rebase(repo: GitRepo, onto: str = "main") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", "rebase", onto],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env=os.environ,
        check=False,
    )


def spaced(data: bytes) -> bytes:
    """Trailing spaces on every line that has text (an editor's form, not an edit)."""
    return b"\n".join(line + b"  " if line else line for line in data.split(b"\n"))


def main_moves(repo: GitRepo, *entries: bytes) -> bytes:
    repo.git("checkout", "-q", "main")
    data = appended(repo.read(LOG), *entries)
    repo.commit("main appends", **{LOG: data})
    repo.git("checkout", "-q", "feature")
    return data


def test_a_branch_that_merged_main_by_hand_is_rebased_to_mains_bytes_then_its_own(
    repo: GitRepo,
) -> None:
    """The branch took main's first entry by hand (no merge commit: its own entry now
    stands before main's, and the copy left trailing spaces on an old entry), then
    appended once more; main moved on. Every step of the real rebase merges: main's
    bytes, then the branch's own entries in their order."""
    project(repo)
    repo.commit("own entry", **{LOG: appended(BASE, OWN)})
    main_moves(repo, M1)
    by_hand = changelog(spaced(A), B, OWN, M1)  # main's entry taken after the own one
    repo.commit("take main's entry by hand", **{LOG: by_hand})
    repo.commit("one more", **{LOG: appended(by_hand, LATER)})
    main = main_moves(repo, M2)
    done = rebase(repo)
    assert done.returncode == 0, done.stderr
    assert repo.read(LOG) == appended(main, OWN, LATER)
    assert "history-modified" not in done.stderr


def test_a_merge_commit_of_main_with_the_own_entry_in_the_middle_rebases_cleanly(
    repo: GitRepo,
) -> None:
    """A real ``git merge main`` resolved by hand (the own entry left above main's,
    blank lines lost), a later append, then ``git rebase main``: git drops the merge
    and replays the appends onto main's bytes."""
    project(repo)
    repo.commit("own entry", **{LOG: appended(BASE, OWN)})
    main_moves(repo, M1)
    merged = subprocess.run(
        ["git", "merge", "-q", "--no-edit", "-s", "ours", "main"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert merged.returncode == 0, merged.stderr
    by_hand = A + B + OWN + M1  # no blank line between entries: form only
    repo.write(LOG, by_hand)
    repo.git("commit", "-q", "-a", "--amend", "--no-edit")
    repo.commit("one more", **{LOG: appended(by_hand, LATER)})
    main = main_moves(repo, M2)
    done = rebase(repo)
    assert done.returncode == 0, done.stderr
    assert repo.read(LOG) == appended(main, OWN, LATER)


def test_a_side_that_only_changed_spaces_and_blank_lines_in_old_entries_merges(
    repo: GitRepo,
) -> None:
    """Trailing spaces on old entries' lines and doubled blank lines between them are
    form: the rebase keeps main's bytes and appends the branch's entry."""
    project(repo)
    reformatted = spaced(A) + b"\n\n" + B  # every line of A spaced, two blank lines
    repo.commit("own entry", **{LOG: appended(reformatted, OWN)})
    main = main_moves(repo, M1)
    done = rebase(repo)
    assert done.returncode == 0, done.stderr
    assert repo.read(LOG) == appended(main, OWN)


def test_an_edit_of_an_old_entry_main_holds_is_refused_naming_it(repo: GitRepo) -> None:
    project(repo)
    edited = BASE.replace(b"Update b-vllm", b"Update b-vllm, reworded")
    repo.commit("edit and append", **{LOG: appended(edited, OWN)})
    main_moves(repo, M1)
    done = rebase(repo)
    assert done.returncode != 0
    said = [line for line in done.stderr.splitlines() if "history-modified" in line]
    assert len(said) == 1, done.stderr
    line = BASE[: BASE.index(b"Update b-vllm")].count(b"\n") + 1
    assert (
        f"theirs changed entry 2 (config-keys b-vllm, line 7 of the base), at its line {line}"
        in said[0]
    )
    assert "which ours holds" in said[0]
    assert b"<<<<<<<" in Path(repo.root / LOG).read_bytes()


def test_rebase_r_recreating_a_merge_of_main_never_replaces_mains_entry(repo: GitRepo) -> None:
    """``git rebase -r`` recreates the branch's merge of main as a merge of two lines
    (its ``merge`` command): not a commit replayed on main, so ours is not taken for
    main's side. The branch's copy of an entry (its placeholder link) must never stand
    in place of main's, which holds the real link: in doubt, the rebase stops."""
    project(repo)
    mine = entry("x-vllm", "X")
    repo.commit("branch appends X", **{LOG: appended(BASE, mine)})
    mains = entry("x-vllm", "X", link=5)
    main_moves(repo, mains)
    merged = subprocess.run(
        ["git", "merge", "-q", "--no-edit", "main"], cwd=repo.root, capture_output=True
    )
    assert merged.returncode == 0 and mains in repo.read(LOG)
    repo.commit("branch appends Y", **{LOG: appended(repo.read(LOG), OWN)})
    main_moves(repo, M1)
    done = subprocess.run(
        ["git", "rebase", "-r", "main"], cwd=repo.root, capture_output=True, text=True
    )
    assert done.returncode != 0 and "changelog resolve --protected" in done.stderr
    theirs = repo.git("show", f":3:{LOG}").encode()  # main's side of the merge, whole
    assert mains.rstrip() in theirs and M1.rstrip() in theirs
    assert b"pull/5" in repo.read(LOG)  # the conflict left still shows main's link
