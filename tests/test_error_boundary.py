"""One error boundary: an unexpected exception is one line and exit 2 (never the
"findings" exit 1), the traceback only with --debug; OS errors get their own line."""

from __future__ import annotations

import errno
from collections.abc import Iterator
from pathlib import Path

import pytest

from changelog_tool.cli import main
from changelog_tool.commands import verify


def broken(**_: object) -> int:
    raise ValueError("a bug deep inside\nsecond line")


def test_an_unexpected_exception_is_one_line_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setattr(verify, "run", broken)
    monkeypatch.delenv("CHANGELOG_DEBUG", raising=False)
    assert main(["verify", "--file", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert err == (
        "changelog: internal error: ValueError: a bug deep inside "
        "(run with --debug for the traceback)\n"
    )


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_debug_shows_the_traceback(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    how: str,
) -> None:
    monkeypatch.setattr(verify, "run", broken)
    args = ["verify", "--file", str(tmp_path / "x")]
    if how == "flag":
        args.append("--debug")
    else:
        monkeypatch.setenv("CHANGELOG_DEBUG", "1")
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "in broken" in err
    assert "changelog: internal error: ValueError" in err


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (errno.ENOSPC, "no space left"),
        (errno.EACCES, "permission denied"),
        (errno.EFBIG, "too large"),
        (errno.EROFS, "read-only"),
        (errno.EISDIR, "a directory"),
    ],
)
def test_os_errors_get_a_clear_message_and_exit_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], code: int, words: str
) -> None:
    def failing(**_: object) -> int:
        raise OSError(code, "raw", "/repo/perf-changelog.yaml")

    monkeypatch.setattr(verify, "run", failing)
    assert main(["verify", "--file", "x"]) == 2
    err = capsys.readouterr().err
    assert words in err and "/repo/perf-changelog.yaml" in err and "nothing was changed" in err
    assert "Traceback" not in err


def test_an_error_message_cannot_start_a_workflow_command_on_stderr(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from changelog_tool.errors import ChangelogError

    def refusing(**_: object) -> int:
        raise ChangelogError("refused:\n::error title=x::from a branch name\r::warning::y")

    monkeypatch.setattr(verify, "run", refusing)
    assert main(["verify", "--file", "x"]) == 1
    err = capsys.readouterr().err
    assert not any(line.lstrip().startswith("::") for line in err.splitlines())
    assert "%3A:error title=x::from a branch name\\r::warning::y" in err


@pytest.mark.parametrize("argv", [[], ["--debug"]])
def test_no_command_prints_the_help_and_exits_2_as_ruff_does(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("usage: changelog")
    assert "Keep perf-changelog.yaml honest." in err and "finalize" in err  # the whole help
    assert "Traceback" not in err


@pytest.mark.parametrize("command", [["verify", "--file", "x.yaml"], ["finalize"]])
@pytest.mark.parametrize("number", ["0", "-5", "seven"])
def test_a_pull_request_number_below_one_is_a_usage_error(
    command: list[str], number: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """verify and finalize take `--pr-number` by one rule: a pull request number."""
    assert main([*command, f"--pr-number={number}"]) == 2
    assert "must be a pull request number (1 or more)" in capsys.readouterr().err


def test_every_format_option_says_what_it_prints(capsys: pytest.CaptureFixture[str]) -> None:
    from changelog_tool.cli import COMMANDS, build_parser

    for name in COMMANDS:
        parser = build_parser([name])
        sub = next(a for a in parser._actions if a.dest == "command")
        command = sub.choices[name]  # type: ignore[index]
        formats = [a for a in command._actions if "--format" in a.option_strings]
        for action in formats:
            assert action.help and action.help.startswith("output: text (default)"), name


def _exception_types() -> list[type[BaseException]]:
    import importlib
    import pkgutil

    import changelog_tool

    for module in pkgutil.walk_packages(changelog_tool.__path__, "changelog_tool."):
        importlib.import_module(module.name)
    found, todo = [], [BaseException]
    while todo:
        kind = todo.pop()
        todo.extend(kind.__subclasses__())
        if kind.__module__.startswith("changelog_tool."):
            found.append(kind)
    return found


def test_every_exception_type_of_the_package_takes_a_traceback() -> None:
    """Raising sets ``__traceback__`` (a ``with`` block re-raising does too): an
    exception type with frozen fields would turn into FrozenInstanceError."""
    import contextlib
    import dataclasses

    kinds = _exception_types()
    assert len(kinds) > 5
    frozen = [
        k.__qualname__
        for k in kinds
        if dataclasses.is_dataclass(k) and k.__dataclass_params__.frozen  # type: ignore[attr-defined]
    ]
    assert frozen == []

    from changelog_tool.yaml.items import YamlProblem

    @contextlib.contextmanager
    def held() -> Iterator[None]:
        yield

    with pytest.raises(YamlProblem), held():
        raise YamlProblem("yaml-syntax", "broken", 3)
