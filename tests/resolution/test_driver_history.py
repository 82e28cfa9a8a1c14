"""Long histories: the driver proves the history the three files share by comparing
their bytes, merges only what follows it, and says and writes exactly what the
merge of the whole files says and writes. One byte changed deep in the history
(by main or by the branch) takes the whole-file merge, never the windows'."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, entry, recording_git
from projects import run, run_process

from changelog_tool.findings import format_text
from changelog_tool.merge.outcome import merge_sides
from changelog_tool.merge.protected import Context, by_upstream, decide
from changelog_tool.merge.threeway import Merged, merge

LOG = "perf-changelog.yaml"
COUNT = 10_000
HISTORY = [
    entry(f"model{n % 97}-fp8-b{n % 300}-sglang", f"Sweep {n}", link=n) for n in range(COUNT)
]
BASE = changelog(*HISTORY)
MAIN_NEW = [entry(f"main-key-{n}", link=20_000 + n) for n in range(3)]
OWN = [entry(f"branch-key-{n}", f"Branch change {n}") for n in range(2)]


def driver(
    repo: GitRepo, base: bytes, ours: bytes, theirs: bytes, action: str | None = None
) -> subprocess.CompletedProcess[str]:
    """git's call of the driver on three temp files in the work tree's top."""
    for name, data in (("O", base), ("A", ours), ("B", theirs)):
        repo.write(f".merge_file_{name}", data)
    return run_driver(repo, [f".merge_file_{name}" for name in "OAB"], action)


def run_driver(
    repo: GitRepo, files: list[str], action: str | None = None, path: str | None = None
) -> subprocess.CompletedProcess[str]:
    """``merge-driver O A B P`` on ``files``, with ``GIT_REFLOG_ACTION`` set to
    ``action`` (unset when ``None``); in this process, or with ``PATH`` set to
    ``path`` in a process of its own, as git starts it (the tests that count the
    git processes the driver runs count its start-up's too)."""
    if path is None:
        return run(repo, "merge-driver", *files, LOG, env={"GIT_REFLOG_ACTION": action})
    env = {"GIT_REFLOG_ACTION": action, "PATH": path}
    return run_process(repo, "merge-driver", *files, LOG, env=env)


def told(result: subprocess.CompletedProcess[str]) -> list[str]:
    prefix = "changelog merge-driver: "
    return [line.removeprefix(prefix) for line in result.stderr.splitlines()]


def edited(data: bytes, index: int, old: bytes, new: bytes) -> bytes:
    """``data`` with ``old`` replaced by ``new`` inside the ``index``-th entry."""
    start = data.index(HISTORY[index])
    at = data.index(old, start)
    return data[:at] + new + data[at + len(old) :]


@pytest.fixture
def long_repo(repo: GitRepo) -> GitRepo:
    repo.commit("main", **{LOG: appended(BASE, *MAIN_NEW)})
    return repo


def test_appends_to_a_long_history_merge_as_the_whole_files_do(long_repo: GitRepo) -> None:
    ours, theirs = appended(BASE, *MAIN_NEW), appended(BASE, *OWN)
    result = driver(long_repo, BASE, ours, theirs, action="rebase")
    assert result.returncode == 0, result.stderr
    whole = merge_sides(LOG, BASE, ours, theirs, Context(action="rebase"))
    assert isinstance(whole.result, Merged)
    assert long_repo.read(".merge_file_A") == whole.result.data == appended(ours, *OWN)
    assert told(result) == whole.summary()  # the same lines, counted in the whole files


def test_a_branch_entry_main_also_appended_is_dropped_at_its_whole_file_line(
    long_repo: GitRepo,
) -> None:
    ours, theirs = appended(BASE, *MAIN_NEW), appended(BASE, OWN[0], MAIN_NEW[1])
    result = driver(long_repo, BASE, ours, theirs, action="rebase")
    assert result.returncode == 0, result.stderr
    assert long_repo.read(".merge_file_A") == appended(ours, OWN[0])
    whole = merge_sides(LOG, BASE, ours, theirs, Context(action="rebase"))
    assert told(result)[:2] == whole.summary()
    warning = format_text(whole.findings())
    assert f"line {COUNT * 6 + 7}" in warning  # main's copy, in the result
    assert warning in result.stderr


def test_a_branch_that_changed_one_byte_deep_in_the_history_is_refused(
    long_repo: GitRepo,
) -> None:
    ours = appended(BASE, *MAIN_NEW)
    theirs = appended(edited(BASE, 3_000, b"Sweep 3000", b"Sweep 3001"), *OWN)
    assert len(theirs) == len(appended(BASE, *OWN))  # same sizes: only the bytes tell
    result = driver(long_repo, BASE, ours, theirs, action="rebase")
    assert result.returncode == 1
    refused = merge(BASE, ours, theirs, "ours")
    assert not isinstance(refused, Merged)
    assert [p.line for p in refused.problems] == [3_000 * 6 + 4]  # the description's line
    for problem in refused.problems:
        assert problem.message in result.stderr
    assert long_repo.read(".merge_file_A") != appended(ours, *OWN)


def test_main_that_edited_one_entry_deep_in_the_history_is_merged_as_a_whole(
    long_repo: GitRepo,
) -> None:
    main = edited(BASE, 5_000, b"Sweep 5000", b"Sweep 5009")
    ours, theirs = appended(main, *MAIN_NEW), appended(BASE, *OWN)
    assert len(ours) == len(appended(BASE, *MAIN_NEW))
    result = driver(long_repo, BASE, ours, theirs, action="rebase")
    assert result.returncode == 0, result.stderr
    assert long_repo.read(".merge_file_A") == appended(ours, *OWN)
    whole = merge_sides(LOG, BASE, ours, theirs, Context(action="rebase"))
    assert any("line 30001 of the base" in line for line in whole.summary())
    assert told(result) == whole.summary()


def test_main_that_edited_the_entry_before_the_bases_last_is_merged_as_a_whole(
    long_repo: GitRepo,
) -> None:
    """The last entry of the shared history, right before the boundary."""
    main = edited(BASE, COUNT - 2, b"Sweep 9998", b"Sweep 9990")
    ours, theirs = appended(main, *MAIN_NEW), appended(BASE, *OWN)
    result = driver(long_repo, BASE, ours, theirs, action="rebase")
    assert result.returncode == 0, result.stderr
    whole = merge_sides(LOG, BASE, ours, theirs, Context(action="rebase"))
    assert any(f"line {(COUNT - 2) * 6 + 1} of the base" in line for line in whole.summary())
    assert told(result) == whole.summary()


@pytest.mark.parametrize(("holder", "protected"), [("ours", "ours"), ("theirs", "theirs")])
def test_the_protected_ref_tells_the_sides_apart_without_reading_its_file(
    repo: GitRepo, holder: str, protected: str
) -> None:
    ours, theirs = appended(BASE, *MAIN_NEW), appended(BASE, *OWN)
    main = ours if holder == "ours" else theirs
    repo.commit("main", **{LOG: main})
    result = driver(repo, BASE, ours, theirs)
    expected = decide(hint=partial(by_upstream, ours, theirs, main, "main"))
    assert expected.side == protected
    assert f"protected side is {protected}: {expected.reason}" in result.stderr
    if protected == "ours":  # the operation's default, certain
        assert result.returncode == 0, result.stderr
        assert repo.read(".merge_file_A") == appended(ours, *OWN)
    else:  # theirs on the ref's hint only: ours' committed entries may not move after theirs'
        assert not expected.certain and result.returncode == 1
        assert "only a guess" in result.stderr and "changelog resolve --protected" in result.stderr


def test_a_protected_ref_older_than_the_base_does_not_decide(repo: GitRepo) -> None:
    repo.commit("main", **{LOG: changelog(*HISTORY[:9_000])})
    ours, theirs = appended(BASE, *MAIN_NEW), appended(BASE, *OWN)
    result = driver(repo, BASE, ours, theirs)
    assert result.returncode == 0, result.stderr
    expected = decide(hint=partial(by_upstream, ours, theirs, changelog(*HISTORY[:9_000]), "main"))
    assert f"protected side is ours: {expected.reason}" in result.stderr
    assert "not a merge: ours is HEAD" in expected.reason


def test_a_protected_ref_neither_side_begins_with_is_read(repo: GitRepo) -> None:
    """Main moved on past both sides: its file is read and the sides' entries counted."""
    main = appended(BASE, *MAIN_NEW, entry("newer-on-main", link=30_000))
    repo.commit("main", **{LOG: main})
    ours, theirs = appended(BASE, *MAIN_NEW), appended(BASE, *OWN)
    result = driver(repo, BASE, ours, theirs)
    expected = decide(hint=partial(by_upstream, ours, theirs, main, "main"))
    assert f"protected side is {expected.side}: {expected.reason}" in result.stderr


def test_one_git_process_at_most_and_none_when_git_says_the_operation(
    long_repo: GitRepo, tmp_path: Path
) -> None:
    tools, calls = recording_git(tmp_path)
    ours, theirs = appended(BASE, *MAIN_NEW), appended(BASE, *OWN)
    path = f"{tools}{os.pathsep}{os.environ['PATH']}"
    for action, expected in ((None, ["cat-file"]), ("rebase", [])):
        calls.write_text("")
        for name, data in (("O", BASE), ("A", ours), ("B", theirs)):
            long_repo.write(f".merge_file_{name}", data)
        result = run_driver(long_repo, [f".merge_file_{n}" for n in "OAB"], action, path)
        assert result.returncode == 0, result.stderr
        assert calls.read_text().split() == expected
        assert long_repo.read(".merge_file_A") == appended(ours, *OWN)


@pytest.mark.parametrize("name", [".merge_file_A", "perf-changelog.mine.yaml"])
def test_gits_temp_file_and_any_other_file_are_replaced_whole_never_written_in_place(
    long_repo: GitRepo, name: str
) -> None:
    """In a rebase %A holds main's side: the result is a new file renamed over it
    (its inode changes), git's own temp file as much as a file the driver is pointed
    at by hand, so a driver killed mid-write leaves %A as git gave it."""
    ours, theirs = appended(BASE, *MAIN_NEW), appended(BASE, *OWN)
    for file, data in ((".merge_file_O", BASE), (name, ours), (".merge_file_B", theirs)):
        long_repo.write(file, data)
    inode = (long_repo.root / name).stat().st_ino
    done = run_driver(long_repo, [".merge_file_O", name, ".merge_file_B"], "rebase")
    assert done.returncode == 0, done.stderr
    assert long_repo.read(name) == appended(ours, *OWN)
    assert (long_repo.root / name).stat().st_ino != inode


def test_the_whole_file_merge_is_computed_from_ours_as_read_under_the_lock(
    repo: GitRepo,
) -> None:
    """Another writer holds %A's lock and appends under it while the driver starts: the
    driver waits, then merges from %A as that writer left it (the bytes it replaces),
    rather than from what it read before. Theirs' entry inserted mid-history makes it
    merge the whole files."""
    base = changelog(*HISTORY[:3])
    theirs = changelog(HISTORY[0], OWN[0], *HISTORY[1:3])  # inserted: not an append
    ours = appended(base, MAIN_NEW[0])
    for name, data in ((".merge_file_O", base), (".merge_file_A", ours), (".merge_file_B", theirs)):
        repo.write(name, data)
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
            str(repo.root / ".merge_file_A"),
            "\n" + MAIN_NEW[1].decode(),
        ],
        stdout=subprocess.PIPE,
    )
    assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
    done = run_driver(repo, [".merge_file_O", ".merge_file_A", ".merge_file_B"], "rebase")
    holder.wait(timeout=30)
    assert done.returncode == 0, done.stderr
    assert repo.read(".merge_file_A") == appended(ours, MAIN_NEW[1], OWN[0])
