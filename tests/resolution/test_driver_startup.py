"""The merge driver, as git runs it inside a rebase, merges without loading Textual
(checked in a fresh interpreter, inside a real repository)."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import GitRepo
from merge_helpers import appended, changelog, entry

PROBE = """
import sys
from changelog_tool.cli import main
code = main(["merge-driver", "O", "A", "B", "perf-changelog.yaml"])
print(code, "textual" if "textual" in sys.modules else "none")
"""


def _three_sides(repo: GitRepo) -> bytes:
    """main holds base + main's entry; O, A, B are git's three versions; the base."""
    base = changelog(entry("a"), entry("b"))
    repo.commit("base", **{"perf-changelog.yaml": appended(base, entry("main"))})
    for name, data in (
        ("O", base),
        ("A", appended(base, entry("main"))),
        ("B", appended(base, entry("own"))),
    ):
        repo.write(name, data)
    return base


def test_the_merge_driver_does_not_load_textual(repo: GitRepo) -> None:
    base = _three_sides(repo)
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert result.stdout.split() == ["0", "none"], result.stderr
    assert repo.read("A") == appended(base, entry("main"), entry("own"))


RUN_MODULE = """
import atexit, runpy, sys
sys.argv = ["changelog_tool", "merge-driver", *sys.argv[1:], "O", "A", "B", "perf-changelog.yaml"]
# runs when the process ends, after the driver
atexit.register(lambda: print("textual" if "textual" in sys.modules else "none"))
runpy.run_module("changelog_tool", run_name="__main__", alter_sys=True)
"""


def test_gits_own_call_merges_in_a_rebase_without_textual(repo: GitRepo) -> None:
    """``python -m changelog_tool merge-driver %O %A %B %P`` (what ``install`` sets up)
    merges the branch's own entry after main's."""
    base = _three_sides(repo)
    assert _run_in_a_rebase(repo) == ["0", "none"]
    assert repo.read("A") == appended(base, entry("main"), entry("own"))


def test_the_installed_call_exits_with_its_conflict_code(repo: GitRepo) -> None:
    """``merge-driver --conflict-exit 3 %O %A %B %P``, as ``install`` writes it: a
    conflict it leaves exits 3, which the installed command tells apart from a driver
    that did not finish."""
    base = _three_sides(repo)
    assert _run_in_a_rebase(repo, "--conflict-exit", "3") == ["0", "none"]
    repo.write("A", appended(base, entry("main")))
    repo.write("B", changelog(entry("a"), entry("b", "Edited by the branch")))  # history edited
    code, _ = _run_in_a_rebase(repo, "--conflict-exit", "3")[:2]
    assert code == "3" and b"<<<<<<< " in repo.read("A")


def _run_in_a_rebase(repo: GitRepo, *options: str) -> list[str]:
    """Git's own call of the driver in a rebase step: its exit code, and whether it
    loaded Textual."""
    result = subprocess.run(
        [sys.executable, "-c", RUN_MODULE, *options],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env={**os.environ, "GIT_REFLOG_ACTION": "rebase"},
        check=False,
    )
    assert result.stdout, result.stderr
    return [str(result.returncode), *result.stdout.split()]


def test_an_entry_in_another_layout_is_merged_with_the_yaml_parser(repo: GitRepo) -> None:
    """A hand-written entry (list items at indent 2) is read by the same reader and
    merged as any other."""
    base = _three_sides(repo)
    own = entry("own", indent=2)
    repo.write("B", appended(base, own))
    assert _run_in_a_rebase(repo) == ["0", "none"]
    assert repo.read("A") == appended(base, entry("main"), own)
