from __future__ import annotations

import json
from pathlib import Path

import pytest
from projects import run

from changelog_tool.cli import main
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.yaml.strict import load_value

OLD = (
    '- config-keys:\n    - dsr1-fp4-b200-sglang\n  description:\n    - "old"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/1\n"
)

MASTER_KEYS = ("a", "b", "dsr1-fp4-b200-sglang", "dsr1-fp8-mi355x-sglang")


def write_masters(root: Path) -> None:
    """A master config naming the keys these tests add entries for."""
    (root / "configs").mkdir(parents=True, exist_ok=True)
    (root / "configs" / "nvidia-master.yaml").write_text(
        "".join(
            f"{key}:\n  image: i\n  scenarios:\n    fixed-seq-len:\n    - {{isl: 1}}\n"
            f"    agentic-coding:\n    - {{users: 1}}\n"
            for key in MASTER_KEYS
        )
    )


@pytest.fixture
def checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "checkout"
    root.mkdir()
    (root / "perf-changelog.yaml").write_bytes(OLD.encode())
    (root / ".perf-changelog.toml").write_text('repository = "SemiAnalysisAI/InferenceX"\n')
    write_masters(root)
    monkeypatch.chdir(root)
    return root


def changelog(root: Path) -> bytes:
    return (root / "perf-changelog.yaml").read_bytes()


def test_add_with_flags_appends_one_byte_exact_entry(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "add",
            "--key",
            "dsr1-fp4-b200-sglang",
            "--key",
            "dsr1-*-mi355x-*",
            "--scenario-type",
            "agentic-coding",
            "--description",
            'Bump image to "v2"',
            "--description",
            "Retune TP: 8 -> 4",
            "--pr-link",
            "https://github.com/SemiAnalysisAI/InferenceX/pull/2391",
        ]
    )
    assert code == 0
    assert changelog(checkout) == OLD.encode() + (
        b"\n- config-keys:\n    - dsr1-fp4-b200-sglang\n    - dsr1-*-mi355x-*\n"
        b"  scenario-type:\n    - agentic-coding\n"
        b'  description:\n    - "Bump image to \\"v2\\""\n    - "Retune TP: 8 -> 4"\n'
        b"  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/2391\n"
    )
    out = capsys.readouterr().out
    assert "appended 1 entry" in out and "at line 7" in out


def test_the_pr_link_defaults_to_the_placeholder(checkout: Path) -> None:
    assert (
        main(
            [
                "add",
                "--key",
                "a",
                "--description",
                "d",
                "--evals-only",
                "--eval-min-prefill-ep",
                "4",
            ]
        )
        == 0
    )
    assert load_value(changelog(checkout))[-1] == {
        "config-keys": ["a"],
        "description": ["d"],
        "pr-link": "XXX",
        "evals-only": True,
        "eval-min-prefill-ep": 4,
    }


def test_dry_run_prints_the_exact_bytes_and_writes_nothing(
    checkout: Path, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    assert main(["add", "--key", "a", "--description", "d", "--dry-run"]) == 0
    printed = capsysbinary.readouterr().out
    assert printed == b'\n- config-keys:\n    - a\n  description:\n    - "d"\n  pr-link: XXX\n'
    assert changelog(checkout) == OLD.encode()
    assert main(["add", "--key", "a", "--description", "d"]) == 0
    assert changelog(checkout) == OLD.encode() + printed


def test_a_link_to_another_repository_is_refused(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "add",
            "--key",
            "a",
            "--description",
            "d",
            "--pr-link",
            "https://github.com/someone/else/pull/3",
        ]
    )
    assert code == 1
    assert "not this repository (SemiAnalysisAI/InferenceX)" in capsys.readouterr().err
    assert changelog(checkout) == OLD.encode()


@pytest.mark.parametrize(
    ("args", "flag"), [(["--description", "d"], "--key"), (["--key", "a"], "--description")]
)
def test_a_missing_answer_without_a_terminal_names_the_flag(
    checkout: Path, capsys: pytest.CaptureFixture[str], args: list[str], flag: str
) -> None:
    assert main(["add", "--no-input", *args]) == 2
    assert f"pass {flag}" in capsys.readouterr().err
    assert changelog(checkout) == OLD.encode()


def test_schema_violations_are_refused_with_the_field(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            "add",
            "--key",
            "a",
            "--description",
            "d",
            "--scenario-type",
            "long-context",
            "--append-only",
            "--all-evals",
        ]
    )
    assert code == 1
    err = capsys.readouterr().err
    assert "scenario-type/0" in err and "append-only cannot be combined" in err
    assert changelog(checkout) == OLD.encode()


def test_json_on_stdin_appends_a_list_of_entries_and_reports_lines(checkout: Path) -> None:
    entries = [
        {"config-keys": ["a"], "description": ["first ✓"]},
        {
            "config-keys": ["b"],
            "description": ["second"],
            "scenario-type": ["fixed-seq-len"],
            "pr-link": "https://github.com/SemiAnalysisAI/InferenceX/pull/9",
        },
    ]
    result = run(checkout, "add", "--json", stdin=json.dumps(entries))
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["lines"] == [7, 13]
    parsed = load_value(changelog(checkout))
    assert parsed[1:] == [
        {**entries[0], "pr-link": "XXX"},
        {
            "config-keys": ["b"],
            "scenario-type": ["fixed-seq-len"],
            "description": ["second"],
            "pr-link": "https://github.com/SemiAnalysisAI/InferenceX/pull/9",
        },
    ]
    assert check_file(changelog(checkout), "p").findings == []


def test_bad_json_on_stdin_is_refused(checkout: Path) -> None:
    result = run(checkout, "add", "--json", stdin="{not json")
    assert result.returncode == 1 and "stdin is not JSON" in result.stderr
    assert changelog(checkout) == OLD.encode()


def test_init_creates_a_missing_changelog(tmp_path: Path) -> None:
    target = tmp_path / "new.yaml"
    write_masters(tmp_path)
    refused = run(tmp_path, "add", "--file", str(target), "--key", "a", "--description", "d")
    assert refused.returncode == 2 and "--init" in refused.stderr and not target.exists()
    created = run(
        tmp_path, "add", "--file", str(target), "--key", "a", "--description", "d", "--init"
    )
    assert created.returncode == 0, created.stderr
    assert check_file(target.read_bytes(), "p").findings == []
    assert run(tmp_path, "verify", "--file", str(target)).returncode == 0


def test_without_settings_the_repository_comes_from_the_newest_pr_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "perf-changelog.yaml").write_bytes(OLD.encode())
    write_masters(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert (
        main(
            [
                "add",
                "--key",
                "a",
                "--description",
                "d",
                "--pr-link",
                "https://github.com/someone/else/pull/3",
            ]
        )
        == 1
    )
    assert "not this repository (SemiAnalysisAI/InferenceX)" in capsys.readouterr().err
    assert (
        main(
            [
                "add",
                "--key",
                "a",
                "--description",
                "d",
                "--pr-link",
                "https://github.com/SemiAnalysisAI/InferenceX/pull/3",
            ]
        )
        == 0
    )


def test_without_any_master_config_add_says_so_and_writes_nothing(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (checkout / "configs" / "nvidia-master.yaml").unlink()
    assert main(["add", "--key", "a", "--description", "d"]) == 2
    err = capsys.readouterr().err
    assert "no master config found" in err and "`master-configs`" in err
    assert "configs/*-master.yaml" in err
    assert changelog(checkout) == OLD.encode()


def test_a_broken_last_entry_is_refused_with_file_lines_in_the_message(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The last entry is read at its place in the file: the finding's line and the
    line its message names are both the file's, as `verify --file` gives them."""
    twice = OLD.replace("  pr-link:", "  pr-link: XXX\n  pr-link:", 1)
    data = (OLD + "\n" + twice).encode()
    (checkout / "perf-changelog.yaml").write_bytes(data)
    assert main(["add", "--key", "a", "--description", "d", "--no-input"]) == 1
    err = capsys.readouterr().err
    first = OLD.count("\n") + 2 + twice.count("\n") - 2  # the first pr-link of the last entry
    assert f"perf-changelog.yaml:{first + 1}: duplicate-yaml-key" in err
    assert f"(first on line {first})" in err
    assert [f.message for f in check_file(data, "perf-changelog.yaml").findings] == [
        f"duplicate key 'pr-link' (first on line {first}); keep only one"
    ]
    assert changelog(checkout) == data


def test_base_without_the_tui_is_refused_rather_than_ignored(
    checkout: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--base` is the TUI's diff base: with flags it would change nothing, so a
    ref that does not exist must not pass unnoticed."""
    code = main(["add", "--key", "a", "--description", "d", "--base", "no-such-ref"])
    assert code == 2
    assert "drop --base" in capsys.readouterr().err
    assert changelog(checkout) == OLD.encode()
