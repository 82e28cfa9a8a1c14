"""The merge driver, as git runs it inside a rebase, merges without loading Textual
(checked in a fresh interpreter, inside a real repository); when it cannot start,
the rebase stops on git's own conflict with one line saying what to run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, entry
from projects import run as tool

from changelog_tool.merge.conflict import resolved_to
from changelog_tool.merge.setup import TROUBLESHOOTING

LOG = "perf-changelog.yaml"

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


def _venv_link(tmp_path: Path) -> Path:
    """This virtualenv reached through a link in ``tmp_path``: its Python there is
    what ``install`` records, and removing the link moves the virtualenv away."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("the tests do not run in a virtualenv")
    link = tmp_path / "venv"
    link.symlink_to(sys.prefix, target_is_directory=True)
    return link


def _diverged(repo: GitRepo) -> tuple[bytes, bytes]:
    """main and feature (checked out) each appended one entry since the base:
    main's file and the branch's."""
    base = changelog(entry("a", link=1), entry("b", link=2))
    repo.commit("base", **{LOG: base})
    repo.git("checkout", "-q", "-b", "feature")
    own = appended(base, entry("own"))
    repo.commit("own", **{LOG: own})
    repo.git("checkout", "-q", "main")
    main = appended(base, entry("main", link=3))
    repo.commit("main", **{LOG: main})
    repo.git("checkout", "-q", "feature")
    return main, own


@pytest.mark.parametrize("gone", ["the interpreter", "the package"])
def test_a_driver_that_cannot_start_says_so_in_one_line_and_leaves_gits_conflict(
    repo: GitRepo, tmp_path: Path, gone: str
) -> None:
    """``install`` run by a virtualenv's Python that then moves (or no longer holds
    the tool): the rebase stops on git's own conflict, nothing lost, with one line
    from the driver naming the repair; ``install`` from a working Python repairs it."""
    main, own = _diverged(repo)
    link = _venv_link(tmp_path)
    python = link / "bin" / Path(sys.executable).name
    done = subprocess.run(
        [str(python), "-I", "-m", "changelog_tool", "install"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    command = repo.git("config", "--get", "merge.perf-changelog.driver")
    assert len(command) < 100 and str(tmp_path) not in command
    link.unlink()
    if gone == "the package":  # a bare Python where the virtualenv was: no changelog_tool
        (link / "bin").mkdir(parents=True)
        python.symlink_to(Path(sys._base_executable).resolve())
    rebase = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert rebase.returncode != 0
    said = [line for line in rebase.stderr.splitlines() if "merge-driver" in line]
    assert len(said) == 1, rebase.stderr
    assert "changelog merge-driver could not start" in said[0]
    for words in ("`changelog install`", "`changelog install --check`", TROUBLESHOOTING):
        assert words in said[0]
    assert "not found" not in rebase.stderr and "%O" not in rebase.stderr
    assert "Traceback" not in rebase.stderr
    conflicted = repo.read(LOG)  # git's own conflict: markers, every entry kept
    assert b"<<<<<<< " in conflicted and b">>>>>>> " in conflicted
    assert (resolved_to(conflicted, "ours"), resolved_to(conflicted, "theirs")) == (main, own)
    assert repo.git("show", f":2:{LOG}").encode() == main.rstrip(b"\n")
    assert repo.git("show", f":3:{LOG}").encode() == own.rstrip(b"\n")
    assert [p.name for p in repo.root.iterdir() if p.name.startswith(".merge_file")] == []

    checked = tool(repo.root, "install", "--check")
    assert checked.returncode == 1 and "run `changelog install`" in checked.stdout
    if gone == "the interpreter":
        assert f"runs {python}, which is not there" in checked.stdout
    else:
        assert "No module named changelog_tool" in checked.stdout
    repo.git("rebase", "--abort")
    repaired = tool(repo.root, "install")
    assert repaired.returncode == 0 and f"(it ran {python})" in repaired.stdout
    again = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert again.returncode == 0, again.stderr
    assert repo.read(LOG) == appended(main, entry("own"))
