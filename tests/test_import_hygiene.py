"""The core never loads Textual: verify, the merge driver, log and scripted add run in CI
and inside `git rebase`, and must start fast."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ENTRY = '- config-keys:\n    - k\n  description:\n    - "d"\n  pr-link: XXX\n'

PROBE = """
import sys
from changelog_tool.cli import main
code = main({argv!r})
print("TEXTUAL" if any(m == "textual" or m.startswith("textual.") for m in sys.modules)
      else "CLEAN", code)
"""


def run_probe(argv: list[str], cwd: Path) -> str:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(argv=argv)],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


@pytest.fixture
def files(repo: object, tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    for name in ("base.yaml", "ours.yaml", "theirs.yaml", "perf-changelog.yaml"):
        (root / name).write_text(ENTRY)
    (root / "configs").mkdir()
    (root / "configs" / "nvidia-master.yaml").write_text("k:\n  image: i\n")
    return root


def test_verify_file_does_not_import_textual(files: Path) -> None:
    assert run_probe(["verify", "--file", "perf-changelog.yaml"], files) == "CLEAN 0"


def test_the_merge_driver_does_not_import_textual(files: Path) -> None:
    out = run_probe(
        ["merge-driver", "base.yaml", "ours.yaml", "theirs.yaml", "perf-changelog.yaml"], files
    )
    assert out.startswith("CLEAN")


def test_log_and_scripted_add_do_not_import_textual(files: Path) -> None:
    assert run_probe(["log", "k"], files) == "CLEAN 0"
    assert (
        run_probe(
            [
                "add",
                "--key",
                "k",
                "--description",
                "again",
                "--dry-run",
                "--pr-link",
                "https://github.com/o/r/pull/1",
            ],
            files,
        )
        == "CLEAN 0"
    )


def test_the_commands_that_open_the_tui_import_textual_only_to_open_it(files: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, changelog_tool.authoring.session, changelog_tool.commands.add, "
            "changelog_tool.commands.demo; print('textual' in sys.modules)",
        ],
        cwd=files,
        capture_output=True,
        text=True,
        check=True,
    )
    assert result.stdout.strip() == "False"


def test_a_command_imports_only_its_own_module(files: Path) -> None:
    probe = (
        "import sys\nfrom changelog_tool.cli import main\nmain(['verify', '--file', "
        "'perf-changelog.yaml'])\nprint(sorted(m for m in sys.modules "
        "if m.startswith('changelog_tool.commands.')))"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], cwd=files, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip().splitlines()[-1] == "['changelog_tool.commands.verify']"


def test_the_help_is_as_wide_as_the_columns_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    from changelog_tool.cli import build_parser

    monkeypatch.setenv("COLUMNS", "64")
    text = build_parser(["verify"]).format_help()
    assert max(len(line) for line in text.splitlines()) <= 62


@pytest.mark.parametrize("columns", ["²", "-3", "wide", ""])
def test_a_columns_value_that_is_no_width_falls_back_as_argparse_does(
    columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from changelog_tool.cli import build_parser

    monkeypatch.setenv("COLUMNS", columns)
    text = build_parser(["verify"]).format_help()  # no terminal here: 80 columns
    assert text.startswith("usage: changelog") and max(map(len, text.splitlines())) <= 78


def test_plain_pytest_and_python_m_pytest_collect_the_same_tests() -> None:
    """One import style: the bare name of a helper module (``from projects import``),
    which both ways of running pytest resolve."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    plain = Path(sys.executable).with_name("pytest")
    started = [  # both at once: each is a whole collection
        subprocess.Popen(
            [*command, "--collect-only", "-q", "-p", "no:cacheprovider", "tests"],
            cwd=root,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for command in ([str(plain)], [sys.executable, "-m", "pytest"])
    ]
    outputs = [process.communicate()[0] for process in started]
    assert [p.returncode for p in started] == [0, 0], outputs[0][-2000:]
    counts = [out.strip().splitlines()[-1].split(" tests collected")[0] for out in outputs]
    assert counts[0] == counts[1]


def loaded(modules: list[str], condition: str) -> list[str]:
    """The modules a fresh ``python -I`` holds after importing ``modules``, that meet
    ``condition`` (an expression of ``m``, a module's name)."""
    probe = (
        f"import sys, {', '.join(modules)}\nprint(sorted(m for m in sys.modules if {condition}))"
    )
    result = subprocess.run(
        [sys.executable, "-I", "-c", probe], capture_output=True, text=True, check=True
    )
    return list(ast.literal_eval(result.stdout.strip()))


def test_commands_that_do_not_merge_do_not_load_the_merge() -> None:
    """verify, keys, log, lint and add start without the merge's modules (what the merge
    commands share lives below commands/, not in the package every command loads)."""
    commands = [
        f"changelog_tool.commands.{name}" for name in ("add", "keys", "lint", "log", "verify")
    ]
    condition = "m.startswith(('changelog_tool.merge', 'changelog_tool.resolution'))"
    assert loaded(commands, condition) == []


def test_the_merge_driver_starts_without_pyyaml() -> None:
    """The driver runs at every rebase step: the benchmark CI's YAML 1.1 reading of a diff
    (PyYAML) is the gate's, and stays out of the merge's and the writer's imports."""
    modules = ["commands.merge_driver", "resolution.driver", "ledger.writer", "merge.proof"]
    condition = "m == 'yaml' or m.endswith('.yaml11')"
    assert loaded([f"changelog_tool.{name}" for name in modules], condition) == []
