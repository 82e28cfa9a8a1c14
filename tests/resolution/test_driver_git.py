"""End to end with real git: rebase, merge, pull --rebase, cherry-pick and rebase -i
never stop on the changelog once the driver is installed; an edit to history stops
with git's conflict markers and a message naming the entry and line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, changelog_tool, entry

LOG = "perf-changelog.yaml"
DUP = entry("qwen3.5-fp8-mi355x-atom", "Add qwen3.5 atom", 1286)
OLD = [entry("dsr1-fp8-b200-sglang", link=10), DUP, entry("gptoss-fp4-b200-trt", link=11), DUP]
BASE = changelog(*OLD)
OWN = [entry(f"branch-key-{n}", f"Branch change {n}") for n in range(1, 6)]
MAIN_NEW = [entry(f"main-key-{n}", link=2000 + n) for n in range(1, 4)]
MAIN = appended(changelog(*OLD[:3]), *MAIN_NEW)  # the duplicate removed, three appended


def git(
    repo: GitRepo,
    *args: str,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        check=False,
    )


def installed(repo: GitRepo) -> GitRepo:
    repo.commit("base", **{LOG: BASE})
    assert changelog_tool(repo.root, "install").returncode == 0
    repo.commit("mark the changelog for the merge driver")
    return repo


def five_commit_branch(repo: GitRepo, name: str = "feature") -> None:
    repo.git("checkout", "-q", "-b", name, "main")
    data = BASE
    for own in OWN:
        data = appended(data, own)
        repo.commit(f"append {own.splitlines()[1].strip().decode()}", **{LOG: data})


def move_main(repo: GitRepo) -> None:
    repo.git("checkout", "-q", "main")
    repo.commit("Remove duplicate qwen3.5-fp8-mi355x-atom entry", **{LOG: changelog(*OLD[:3])})
    for n in range(1, 4):
        repo.commit(f"main {n}", **{LOG: appended(changelog(*OLD[:3]), *MAIN_NEW[:n])})


@pytest.fixture
def story(repo: GitRepo) -> GitRepo:
    installed(repo)
    five_commit_branch(repo)
    move_main(repo)
    repo.git("checkout", "-q", "feature")
    return repo


def test_a_rebase_onto_a_moved_main_completes_with_main_then_the_branchs_entries(
    story: GitRepo,
) -> None:
    result = git(story, "rebase", "main")
    assert result.returncode == 0, result.stderr
    assert story.read(LOG) == appended(MAIN, *OWN)
    assert story.git("rev-list", "--count", "main..feature") == "5"
    assert story.read(LOG).count(DUP) == 1  # the reverted duplicate did not come back


def test_merging_main_into_the_branch_gives_the_same_file(story: GitRepo) -> None:
    result = git(story, "merge", "-q", "--no-edit", "main")
    assert result.returncode == 0, result.stderr
    assert story.read(LOG) == appended(MAIN, *OWN)


def test_pull_rebase_from_a_clone_appends_the_local_entries_after_upstreams(
    repo: GitRepo, tmp_path: Path
) -> None:
    installed(repo)
    clone = GitRepo(tmp_path / "clone")
    subprocess.run(["git", "clone", "-q", str(repo.root), str(clone.root)], check=True)
    assert changelog_tool(clone.root, "install").returncode == 0
    clone.commit("local entry", **{LOG: appended(BASE, OWN[0])})
    move_main(repo)
    result = git(clone, "pull", "-q", "--rebase", "origin", "main")
    assert result.returncode == 0, result.stderr
    assert clone.read(LOG) == appended(MAIN, OWN[0])


def test_cherry_picking_a_branch_commit_onto_main_appends_its_entry(story: GitRepo) -> None:
    third = story.git("rev-parse", "feature~2")
    story.git("checkout", "-q", "main")
    result = git(story, "cherry-pick", third)
    assert result.returncode == 0, result.stderr
    assert story.read(LOG) == appended(MAIN, OWN[2])


def test_an_interactive_rebase_that_reorders_and_squashes_keeps_every_entry_once(
    story: GitRepo, tmp_path: Path
) -> None:
    editor = tmp_path / "todo.py"
    editor.write_text(
        "import sys\n"
        "path = sys.argv[1]\n"
        "picks = [l for l in open(path) if l.startswith('pick ')]\n"
        "order = [picks[4], picks[0], picks[1].replace('pick', 'squash', 1), picks[3], picks[2]]\n"
        "open(path, 'w').write(''.join(order))\n"
    )
    env = {"GIT_SEQUENCE_EDITOR": f"{sys.executable} {editor}", "GIT_EDITOR": "true"}
    result = git(story, "rebase", "-i", "main", env=env)
    assert result.returncode == 0, result.stderr
    assert story.read(LOG) == appended(MAIN, OWN[4], OWN[0], OWN[1], OWN[3], OWN[2])
    assert story.git("rev-list", "--count", "main..feature") == "4"


def test_a_rebase_replays_a_later_commit_that_fills_in_the_branchs_own_pr_link(
    repo: GitRepo,
) -> None:
    installed(repo)
    repo.git("checkout", "-q", "-b", "feature")
    draft = appended(BASE, entry("own-key", "Own change", "XXX"))
    repo.commit("append own entry", **{LOG: draft})
    final = appended(BASE, entry("own-key", "Own change", 2391))
    repo.commit("fill in the pr-link", **{LOG: final})
    move_main(repo)
    repo.git("checkout", "-q", "feature")
    result = git(repo, "rebase", "main")
    assert result.returncode == 0, result.stderr
    assert repo.read(LOG) == appended(MAIN, entry("own-key", "Own change", 2391))


def test_a_branch_that_edited_history_stops_with_markers_and_names_entry_and_line(
    repo: GitRepo,
) -> None:
    installed(repo)
    repo.git("checkout", "-q", "-b", "feature")
    edited = BASE.replace(b"Update gptoss-fp4-b200-trt", b"Reword gptoss-fp4-b200-trt")
    repo.commit("edit history and append", **{LOG: appended(edited, OWN[0])})
    move_main(repo)
    repo.git("checkout", "-q", "feature")
    result = git(repo, "rebase", "main")
    assert result.returncode != 0
    assert b"<<<<<<< ours" in repo.read(LOG) and b">>>>>>> theirs" in repo.read(LOG)
    start = changelog(*OLD[:2]).count(b"\n") + 2  # entry 3's first line
    line = edited[: edited.index(b"Reword gptoss")].count(b"\n") + 1  # the edited line
    assert f"{LOG}:{line}: history-modified: theirs changed entry 3" in result.stderr
    assert f"line {start} of the base" in result.stderr
    assert LOG in git(repo, "diff", "--name-only", "--diff-filter=U").stdout


def merge_file(repo: GitRepo, ours: str, base: str, theirs: str) -> bytes:
    """``git merge-file``'s own output, as the driver runs it."""
    return subprocess.run(
        ["git", "merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs", ours, base, theirs],
        cwd=repo.root,
        capture_output=True,
        check=False,
    ).stdout


def test_the_driver_exits_1_and_leaves_git_merge_files_markers_when_they_keep_ours(
    repo: GitRepo,
) -> None:
    ours = appended(BASE, MAIN_NEW[0])
    theirs = appended(BASE, b"- config-keys: [unclosed\n")
    for name, data in (("O", BASE), ("A", ours), ("copy-of-A", ours), ("B", theirs)):
        repo.write(name, data)
    result = changelog_tool(repo.root, "merge-driver", "O", "A", "B", LOG)
    assert result.returncode == 1
    by_git = merge_file(repo, "copy-of-A", "O", "B")
    assert b"<<<<<<< ours" in by_git and repo.read("A") == by_git
    assert "git's conflict markers (1) are left in the file" in result.stderr


def test_the_driver_leaves_both_sides_whole_when_gits_text_merge_would_edit_ours(
    repo: GitRepo,
) -> None:
    # git's own text merge applies theirs' edit of entry 1 outside its markers: one
    # `git add` would publish it, so one conflict holds both sides, untouched
    ours = appended(BASE, MAIN_NEW[0])
    theirs = appended(BASE.replace(b"Update dsr1", b"Edit dsr1"), OWN[0])
    for name, data in (("O", BASE), ("A", ours), ("copy-of-A", ours), ("B", theirs)):
        repo.write(name, data)
    assert b"Edit dsr1" in merge_file(repo, "copy-of-A", "O", "B").split(b"<<<<<<<")[0]
    result = changelog_tool(repo.root, "merge-driver", "O", "A", "B", LOG)
    assert result.returncode == 1
    assert repo.read("A") == b"<<<<<<< ours\n" + ours + b"=======\n" + theirs + b">>>>>>> theirs\n"
    line = theirs[: theirs.index(b"Edit dsr1")].count(b"\n") + 1
    assert f"{LOG}:{line}: history-modified: theirs changed entry 1" in result.stderr
    assert "one conflict holds both sides whole" in result.stderr


def test_the_driver_writes_the_merge_into_ours_and_exits_0(repo: GitRepo) -> None:
    for name, data in (("O", BASE), ("A", MAIN), ("B", appended(BASE, OWN[0]))):
        repo.write(name, data)
    result = changelog_tool(repo.root, "merge-driver", "O", "A", "B", LOG)
    assert result.returncode == 0, result.stderr
    assert repo.read("A") == appended(MAIN, OWN[0])
    assert "merged" in result.stderr


def test_a_side_with_crlf_is_refused_and_left_to_git(repo: GitRepo) -> None:
    for name, data in (
        ("O", BASE),
        ("A", MAIN),
        ("B", appended(BASE, OWN[0]).replace(b"\n", b"\r\n")),
    ):
        repo.write(name, data)
    result = changelog_tool(repo.root, "merge-driver", "O", "A", "B", LOG)
    assert result.returncode == 1
    assert "carriage return" in result.stderr
    assert repo.read("A") != appended(MAIN, OWN[0])


def test_without_a_protected_ref_a_rebase_is_recognised_from_the_git_directory(
    repo: GitRepo,
) -> None:
    repo.write(".perf-changelog.toml", 'protected-ref = ["origin/main"]\n')
    installed(repo)
    five_commit_branch(repo)
    move_main(repo)
    repo.git("checkout", "-q", "feature")
    result = git(repo, "rebase", "main")
    assert result.returncode == 0, result.stderr
    assert "protected side is ours: a rebase is in progress" in result.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN)


def test_without_a_protected_ref_a_merge_is_recognised_from_git_reflog_action(
    repo: GitRepo,
) -> None:
    repo.write(".perf-changelog.toml", 'protected-ref = ["origin/main"]\n')
    installed(repo)
    five_commit_branch(repo)
    move_main(repo)
    repo.git("checkout", "-q", "feature")
    result = git(repo, "merge", "--no-edit", "main")
    assert result.returncode == 0, result.stderr
    assert "protected side is theirs: GIT_REFLOG_ACTION is 'merge main'" in result.stderr
    assert repo.read(LOG) == appended(MAIN, *OWN)


def test_a_broken_settings_file_still_leaves_gits_own_conflict(repo: GitRepo) -> None:
    repo.write(".perf-changelog.toml", "no-such-setting = 1\n")
    ours, theirs = appended(BASE, MAIN_NEW[0]), appended(BASE, OWN[0])
    for name, data in (("O", BASE), ("A", ours), ("copy-of-A", ours), ("B", theirs)):
        repo.write(name, data)
    result = changelog_tool(repo.root, "merge-driver", "O", "A", "B", LOG)
    assert result.returncode == 1
    assert "unknown setting 'no-such-setting'" in result.stderr
    by_git = subprocess.run(
        [
            "git",
            "merge-file",
            "-p",
            "-L",
            "ours",
            "-L",
            "base",
            "-L",
            "theirs",
            "copy-of-A",
            "O",
            "B",
        ],
        cwd=repo.root,
        capture_output=True,
        check=False,
    ).stdout
    assert repo.read("A") == by_git


def test_a_branch_that_only_corrects_an_old_pr_link_rebases_keeping_mains_entries(
    repo: GitRepo,
) -> None:
    installed(repo)
    repo.git("checkout", "-q", "-b", "feature")
    corrected = BASE.replace(b"pull/10\n", b"pull/1010\n")
    repo.commit("correct a pr-link", **{LOG: corrected})
    move_main(repo)
    repo.git("checkout", "-q", "feature")
    result = git(repo, "rebase", "main")
    assert result.returncode == 0, result.stderr
    # main's bytes (its removal and its new entries included), that one line corrected
    assert repo.read(LOG) == MAIN.replace(b"pull/10\n", b"pull/1010\n", 1)
    assert "carried theirs' pr-link correction onto line" in result.stderr


def test_a_correction_main_also_touched_or_to_a_non_canonical_link_still_stops(
    repo: GitRepo,
) -> None:
    installed(repo)
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("a wrong link", **{LOG: BASE.replace(b"pull/10\n", b"pull/oops\n")})
    move_main(repo)
    repo.git("checkout", "-q", "feature")
    result = git(repo, "rebase", "main")
    assert result.returncode != 0 and "corrected the pr-link of entry 1" in result.stderr
