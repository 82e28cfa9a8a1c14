"""The command line as a person meets it: a mistyped command gets the closest name,
a wrong option the usage of its own command, and outside a git repository every
command that needs one says so in one line, with exit 2 (the error boundary)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import run, run_process

from changelog_tool.cli import main


def test_a_mistyped_command_gets_the_closest_name(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verfy", "--base", "main"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'verfy' (did you mean verify?)" in err
    assert "invalid choice" not in err


def test_a_command_nothing_resembles_lists_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["zzzz"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'zzzz'" in err and "did you mean" not in err


@pytest.mark.parametrize("command", ["verify", "keys", "sync", "install"])
def test_an_unknown_option_shows_the_usage_of_its_command(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([command, "--no-such-flag"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"usage: changelog {command} ")
    assert f"changelog {command}: error: unrecognized arguments: --no-such-flag" in err
    assert "usage: changelog [-h]" not in err


def test_an_unknown_option_with_json_asked_is_a_json_refusal_naming_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["verify", "--no-such-flag", "--format", "json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["message"] == "changelog verify: error: unrecognized arguments: --no-such-flag"


OUTSIDE = {
    "add": ["add"],
    "add with answers": ["add", "--key", "k", "--description", "d", "--no-input"],
    "add --init": ["add", "--key", "k", "--description", "d", "--no-input", "--init"],
    "verify": ["verify"],
    "verify --base": ["verify", "--base", "main"],
    "keys": ["keys"],
    "log": ["log", "k"],
    "lint": ["lint"],
    "install": ["install"],
    "install --check": ["install", "--check"],
    "resolve": ["resolve"],
    "sync": ["sync"],
    "init": ["init"],
    "init --dry-run": ["init", "--dry-run"],
    "finalize": ["finalize", "--pr-number", "1"],
}


@pytest.mark.parametrize("name", OUTSIDE)
def test_outside_a_repository_every_command_says_so_in_one_line_with_exit_2(
    tmp_path: Path, name: str
) -> None:
    args = OUTSIDE[name]
    (tmp_path / "configs").mkdir()  # a folder that looks like a checkout, but no git
    (tmp_path / "configs" / "nvidia-master.yaml").write_text("k:\n  image: i\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    done = run(tmp_path, *args)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith(
        f"changelog: {tmp_path} is not inside a git repository; "
        f"run `changelog {args[0]}` in a clone"
    )
    assert done.stderr.count("\n") == 1
    assert "--init" not in done.stderr
    if args[0] != "verify":
        assert "verify --file" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written


def test_outside_a_repository_verify_names_its_file_mode(tmp_path: Path) -> None:
    done = run(tmp_path, "verify")
    assert "(or `changelog verify --file PATH`, which checks a file without git)" in done.stderr


def test_outside_a_repository_json_asked_gets_the_refusal_as_json(tmp_path: Path) -> None:
    done = run(tmp_path, "lint", "--format", "json")
    assert done.returncode == 2
    error = json.loads(done.stdout)["error"]
    assert error["kind"] == "EnvironmentProblem" and error["exit_code"] == 2
    assert "is not inside a git repository; run `changelog lint` in a clone" in error["message"]


def test_outside_a_repository_a_copy_of_the_changelog_is_still_read_and_added_to(
    tmp_path: Path,
) -> None:
    """``add`` and ``log`` work on the changelog the settings name without git, when
    it exists (the check is on the folder, not on what the commands can do)."""
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "nvidia-master.yaml").write_text("k:\n  image: i\n")
    (tmp_path / "perf-changelog.yaml").write_text("")
    added = run(tmp_path, "add", "--key", "k", "--description", "d", "--no-input")
    assert added.returncode == 0, added.stderr
    assert run(tmp_path, "log", "k").returncode == 0


def test_in_a_process_of_its_own_outside_a_repository_is_one_line(tmp_path: Path) -> None:
    done = run_process(tmp_path, "keys")
    assert done.returncode == 2
    assert done.stderr == (
        f"changelog: {tmp_path} is not inside a git repository; run `changelog keys` in a clone\n"
    )


def test_help_as_a_command_shows_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help"]) == 0
    assert capsys.readouterr().out.startswith("usage: changelog [-h]")
    assert main(["help", "verify"]) == 0
    assert capsys.readouterr().out.startswith("usage: changelog verify ")


def test_finalize_without_a_number_says_what_the_number_is(repo: GitRepo) -> None:
    done = run(repo.root, "finalize")
    assert done.returncode == 2
    assert done.stderr == (
        "changelog: finalize needs the number of the pull request whose link replaces the "
        "placeholder pr-links: `changelog finalize --pr-number N` (add --commit to commit "
        "the result)\n"
    )
