"""`install --check` runs the configured driver command as git would (its ``%O %A
%B %P`` replaced, through the shell, from the top of a work tree) on a trial merge,
and calls it ready only when git would get the merge: never for a command that
misses ``%P``, names a moved interpreter, or passes the files in the wrong order.
The JSON says what the text says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GitRepo, uses_the_tool
from projects import run as tool

from changelog_tool.commands import driver_trial

PYTHON = f"{sys.executable} -I -m changelog_tool merge-driver"


@pytest.fixture
def repo(repo: GitRepo) -> GitRepo:
    return uses_the_tool(repo)


def check(repo: GitRepo, command: str) -> tuple[int, str, dict[str, object]]:
    """The exit code, text and JSON of `install --check` with ``command`` configured."""
    assert tool(repo.root, "install").returncode == 0
    repo.git("config", "--local", "merge.perf-changelog.driver", command)
    text = tool(repo.root, "install", "--check")
    data = tool(repo.root, "install", "--check", "--format", "json")
    assert text.returncode == data.returncode, (text.stdout, data.stdout)
    document = json.loads(data.stdout)
    for step in document["steps"]:  # the text names every step the JSON holds
        assert f"install: {step['what']}: {step['done']}" in text.stdout
    assert document["ok"] is ("the driver is ready" in text.stdout)
    return text.returncode, text.stdout, document


def trial_step(document: dict[str, object]) -> dict[str, object]:
    steps = document["steps"]
    assert isinstance(steps, list)
    [step] = [s for s in steps if str(s["what"]).startswith("a trial merge")]
    return dict(step)


def test_the_installed_command_merges_the_trial_and_is_ready(repo: GitRepo) -> None:
    code, text, document = check(repo, f"{PYTHON} %O %A %B %P")
    assert code == 0 and document["ok"] is True and "the driver is ready" in text
    assert trial_step(document)["exit_code"] == 0


@pytest.mark.parametrize(
    ("command", "exit_code", "said"),
    [
        (f"{PYTHON} %O %A %B", 2, "required: P"),
        (
            "/nonexistent/venv/bin/python3 -I -m changelog_tool merge-driver %O %A %B %P",
            127,
            "moved",
        ),
        (f"{PYTHON} %O %B %A %P", 0, "holds main's file unchanged, not the merge"),
        # the base's entry both "sides" lack stays removed: a merge, of the wrong files
        (f"{PYTHON} %A %O %B %P", 0, "git would commit that as the merge"),
        ("true", 0, "git would commit that as the merge"),
    ],
    ids=[
        "no %P",
        "a moved interpreter",
        "ours and theirs swapped",
        "base and ours swapped",
        "a no-op",
    ],
)
def test_a_command_git_cannot_merge_with_is_not_ready(
    repo: GitRepo, command: str, exit_code: int, said: str
) -> None:
    code, text, document = check(repo, command)
    assert code == 1 and document["ok"] is False and "the driver is not ready" in text
    step = trial_step(document)
    assert step["ok"] is False and step["exit_code"] == exit_code
    assert said in str(step["done"])


def test_the_trial_runs_the_command_as_git_runs_it(repo: GitRepo, tmp_path: Path) -> None:
    """A command that records its arguments and folder, run once by a real `git merge`
    and once by the trial: the same shape (three temp files named as git names them
    at the top of the work tree, then the path and git's labels of the three sides),
    the same exit-code meaning."""
    record = tmp_path / "args"
    command = f"printf '%s\\n' \"$PWD\" %O %A %B %P %L %S %X %Y >> {record}; exit 3"
    repo.commit("base", **{"f.yaml": "a: 1\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("ours", **{"f.yaml": "a: 2\n"})
    repo.git("checkout", "-q", "main")
    repo.commit("theirs", **{"f.yaml": "a: 3\n"})
    repo.git("config", "merge.rec.driver", command)
    (repo.root / ".git" / "info" / "attributes").write_text("f.yaml merge=rec\n")
    merged = subprocess.run(
        ["git", "merge", "-q", "feature", "-m", "m"], cwd=repo.root, capture_output=True
    )
    assert merged.returncode == 1  # the driver's exit 3 is a conflict to git
    trial = driver_trial.run(command.replace("exit 3", "exit 0"))
    assert trial.exit_code == 0 and not trial.ok
    lines = record.read_text().splitlines()
    by_git, by_trial = lines[:9], lines[9:]
    assert by_git[0] == str(repo.root.resolve())
    for seen, path in ((by_git, "f.yaml"), (by_trial, driver_trial.PATH)):
        assert all(name.startswith(".merge_file_") and "/" not in name for name in seen[1:4])
        assert seen[4:6] == [path, "7"]
    assert by_git[6:] == by_trial[6:]  # %S %X %Y: what this git makes of them
    assert not Path(by_trial[0]).exists()  # the trial's repository is gone


def test_a_wrapped_command_is_judged_by_what_it_does(repo: GitRepo, tmp_path: Path) -> None:
    """A command that is not ``<python> -m changelog_tool`` itself (here ``sh -c``
    around it) is still run and judged: ready when isolated, not when its Python
    would import the work tree's own ``changelog_tool/``."""
    isolated = f"sh -c '{PYTHON} \"$@\"' driver %O %A %B %P"
    code, _, document = check(repo, isolated)
    assert code == 0 and document["ok"] is True
    plain = isolated.replace(" -I ", " ")
    code, _, document = check(repo, plain)
    assert code == 1
    assert "not isolated" in str(trial_step(document)["done"])
