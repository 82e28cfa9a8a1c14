"""`changelog log KEY`: the entries that apply to a key, patterns resolved, newest first."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
from projects import key_block, run

from changelog_tool.cli import main
from changelog_tool.errors import relative
from changelog_tool.ledger.filecheck import applying, entries

CHANGELOG = """\
- config-keys:
    - dsr1-fp4-b200-sglang
  description:
    - "First"
  pr-link: https://github.com/o/r/pull/1

- config-keys:
    - gptoss-*
  scenario-type:
    - agentic-coding
  description:
    - "Second, by pattern"
  pr-link: https://github.com/o/r/pull/2
@@
- config-keys:
    - llama70b-fp8-h100-vllm
  description:
    - "Third, another key"
  pr-link: https://github.com/o/r/pull/3

- config-keys:
    - dsr1-fp4-b200-sglang
    - gptoss-fp4-b200-vllm
  description:
    - "Fourth"
  pr-link: XXX
""".replace("@@\n", "  \n")  # a separator line holding two spaces, as in the real history


@pytest.fixture
def changelog(tmp_path: Path) -> Path:
    path = tmp_path / "perf-changelog.yaml"
    path.write_text(CHANGELOG)
    return path


def test_entries_for_a_key_come_newest_first_with_their_lines(
    changelog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "dsr1-fp4-b200-sglang", "--file", str(changelog)]) == 0
    out = capsys.readouterr().out
    shown = relative(changelog)  # the path as every command shows it
    assert out.index(f"{shown}:21:") < out.index(f"{shown}:1:")
    assert "Second" not in out and "Third" not in out
    assert "2 entries apply to dsr1-fp4-b200-sglang (newest first)" in out


def test_a_pattern_entry_applies_and_says_which_pattern_matched(
    changelog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "gptoss-fp4-b200-vllm", "--file", str(changelog)]) == 0
    out = capsys.readouterr().out
    assert "(matched by gptoss-*)" in out
    assert "scenario-type: agentic-coding" in out
    assert "Second, by pattern" in out and "Fourth" in out


def test_json_output_lists_entries_with_line_and_matching_patterns(
    changelog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "gptoss-fp4-b200-vllm", "--file", str(changelog), "--format", "json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["total"] == 2
    assert [(e["line"], e["matched-by"]) for e in document["entries"]] == [
        (21, ["gptoss-fp4-b200-vllm"]),
        (7, ["gptoss-*"]),
    ]
    assert document["entries"][1]["description"] == ["Second, by pattern"]


def test_limit_shows_only_the_newest_entries(
    changelog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "dsr1-fp4-b200-sglang", "--file", str(changelog), "--limit", "1"]) == 0
    out = capsys.readouterr().out
    assert "Fourth" in out and "First" not in out
    assert "1 of 2 entries apply" in out


def test_a_key_no_entry_mentions_is_reported_plainly(
    changelog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "kimik3-fp4-b200-vllm", "--file", str(changelog)]) == 0
    assert "no entry applies to kimik3-fp4-b200-vllm" in capsys.readouterr().out


def test_a_pattern_matches_whole_keys_only() -> None:
    items = [(1, {"config-keys": ["dsr1-*"]}), (5, {"config-keys": ["dsr1"]})]
    assert [a.line for a in applying(items, ["xdsr1-fp4"])] == []
    assert [a.line for a in applying(items, ["dsr1-fp4"])] == [1]


def test_a_broken_entry_is_skipped_and_named_while_the_others_are_still_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_text(CHANGELOG.replace('    - "Third, another key"', '    - "Third: [broken'))
    found, problems = entries(path.read_bytes())
    assert [line for line, _ in found] == [1, 7, 21]
    assert problems and "entry skipped" in problems[0]
    assert main(["log", "dsr1-fp4-b200-sglang", "--file", str(path)]) == 0
    captured = capsys.readouterr()
    assert "2 entries apply" in captured.out and "entry skipped" in captured.err


def test_a_broken_entry_never_hides_that_no_readable_entry_applies(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Readable entries exist but none applies to the key: the broken one is named and
    the answer is "none applies", not "cannot read" (the filter keeps none of them)."""
    path = tmp_path / "perf-changelog.yaml"
    path.write_text(CHANGELOG.replace('    - "Third, another key"', '    - "Third: [broken'))
    assert main(["log", "no-such-key", "--file", str(path), "--format", "json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["total"] == 0 and "entry skipped" in captured.err
    assert "cannot read" not in captured.err


def test_a_missing_file_is_said_first_and_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "k", "--file", str(tmp_path / "nope.yaml")]) == 2
    err = capsys.readouterr().err
    assert "does not exist" in err and err.count("changelog:") == 1
    assert "pass --file" not in err  # it was passed


def test_a_missing_file_is_a_usage_error(tmp_path: Path) -> None:
    assert main(["log", "k", "--file", str(tmp_path / "nope.yaml")]) == 2


def test_without_file_the_changelog_comes_from_the_settings(repo: object, tmp_path: Path) -> None:
    root = tmp_path / "repo"
    (root / "perf-changelog.yaml").write_text(CHANGELOG)
    result = run(root, "log", "llama70b-fp8-h100-vllm")
    assert result.returncode == 0, result.stderr
    assert "perf-changelog.yaml:15:" in result.stdout and "Third, another key" in result.stdout


def test_log_agrees_with_the_real_changelog(corpus: Path, tmp_path: Path) -> None:
    clone = tmp_path / "ix"
    subprocess.run(
        ["git", "clone", "-q", str(corpus / "inferencex-data.bundle"), str(clone)], check=True
    )
    data = (clone / "perf-changelog.yaml").read_bytes()
    found, problems = entries(data)
    assert not problems
    assert len(found) == data.count(b"\n- config-keys:") + data.startswith(b"- config-keys:")
    newest_key = found[-1][1]["config-keys"][0]
    assert applying(found, [newest_key])[0].line == found[-1][0]


WITH_MASTERS = """\
- config-keys:
    - dsr1-fp8-b300-sglang
  description:
    - "Exact sglang"
  pr-link: https://github.com/o/r/pull/1

- config-keys:
    - dsr1-fp8-b300-vllm
    - gptoss-fp4-b200-vllm
  description:
    - "Exact vllm"
  pr-link: https://github.com/o/r/pull/2

- config-keys:
    - dsr1*
  description:
    - "All dsr1"
  pr-link: https://github.com/o/r/pull/3

- config-keys:
    - gptoss-fp4-b200-vllm
  description:
    - "Unrelated"
  pr-link: https://github.com/o/r/pull/4

- config-keys:
    - dsr1-fp8-b300-retired
  description:
    - "A key no longer in the masters"
  pr-link: https://github.com/o/r/pull/5
"""


@pytest.fixture
def bench_tree(tmp_path: Path) -> Path:
    """A work tree with a master config (three dsr1-fp8-b300 keys and one other)."""
    root = tmp_path / "bench"
    (root / "configs").mkdir(parents=True)
    (root / ".perf-changelog.toml").write_text('repository = "acme/bench"\n')
    (root / "configs" / "nvidia-master.yaml").write_text(
        "\n".join(
            key_block(k)
            for k in (
                "dsr1-fp8-b300-sglang",
                "dsr1-fp8-b300-vllm",
                "dsr1-fp8-b300-trt",
                "gptoss-fp4-b200-vllm",
            )
        )
    )
    (root / "perf-changelog.yaml").write_text(WITH_MASTERS)
    return root


def run_log(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run(root, "log", *args)


def test_a_star_argument_is_expanded_against_the_master_keys(bench_tree: Path) -> None:
    done = run_log(bench_tree, "dsr1-fp8-b300*")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.findall(r"perf-changelog\.yaml:(\d+):", out) == ["14", "7", "1"]
    assert "Unrelated" not in out and "no longer" not in out
    assert "applies to: dsr1-fp8-b300-sglang, dsr1-fp8-b300-trt, dsr1-fp8-b300-vllm" in out
    assert "applies to: dsr1-fp8-b300-vllm\n" in out
    assert "3 entries apply to dsr1-fp8-b300* (3 keys) (newest first)" in out
    assert done.stderr == ""


def test_a_star_argument_in_json_lists_the_matched_keys_per_argument_and_entry(
    bench_tree: Path,
) -> None:
    done = run_log(bench_tree, "dsr1-fp8-b300*", "gptoss-fp4-b200-vllm", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["matched-keys"] == {
        "dsr1-fp8-b300*": ["dsr1-fp8-b300-sglang", "dsr1-fp8-b300-trt", "dsr1-fp8-b300-vllm"],
        "gptoss-fp4-b200-vllm": ["gptoss-fp4-b200-vllm"],
    }
    assert document["total"] == 4
    assert [(e["line"], e["applies-to"]) for e in document["entries"]] == [
        (20, ["gptoss-fp4-b200-vllm"]),
        (14, ["dsr1-fp8-b300-sglang", "dsr1-fp8-b300-trt", "dsr1-fp8-b300-vllm"]),
        (7, ["dsr1-fp8-b300-vllm", "gptoss-fp4-b200-vllm"]),
        (1, ["dsr1-fp8-b300-sglang"]),
    ]


def test_a_mistyped_key_is_named_with_a_hint_and_fails_when_nothing_is_found(
    bench_tree: Path,
) -> None:
    done = run_log(bench_tree, "dsr1-fp8-b300-sglan")
    assert done.returncode == 1
    assert "All dsr1" not in done.stdout
    assert "'dsr1-fp8-b300-sglan' matches no key in configs/nvidia-master.yaml" in done.stderr
    assert "(did you mean dsr1-fp8-b300-sglang?)" in done.stderr


def test_a_pattern_matching_no_key_is_named_too(bench_tree: Path) -> None:
    done = run_log(bench_tree, "dsr2-fp8*", "--format", "json")
    assert done.returncode == 1
    assert "'dsr2-fp8*' matches no key" in done.stderr
    assert json.loads(done.stdout)["matched-keys"] == {"dsr2-fp8*": []}


def test_an_unknown_argument_beside_a_known_one_warns_and_keeps_going(bench_tree: Path) -> None:
    done = run_log(bench_tree, "dsr1-fp8-b300-sglan", "gptoss-fp4-b200-vllm")
    assert done.returncode == 0
    assert "matches no key" in done.stderr and "Unrelated" in done.stdout


def test_a_key_gone_from_the_masters_still_finds_the_entries_naming_it(bench_tree: Path) -> None:
    done = run_log(bench_tree, "dsr1-fp8-b300-retired")
    assert done.returncode == 0
    assert "matches no key" in done.stderr
    assert "A key no longer in the masters" in done.stdout and "All dsr1" not in done.stdout


def test_with_file_the_masters_come_from_that_file_s_work_tree(
    bench_tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "dsr1-fp8-b300-t*", "--file", str(bench_tree / "perf-changelog.yaml")]) == 0
    out = capsys.readouterr().out
    assert "All dsr1" in out and "Exact" not in out
    assert "applies to: dsr1-fp8-b300-trt" in out


def test_without_master_configs_a_star_argument_matches_literally(
    changelog: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", "gptoss-*", "--file", str(changelog)]) == 0
    captured = capsys.readouterr()
    assert "Second, by pattern" in captured.out and "Fourth" not in captured.out
    assert captured.err == ""


def test_an_entry_s_control_characters_are_shown_escaped_never_as_lines_of_their_own(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    forged = '"\\e[2J\\e[31mok\\n::error file=x::forged\\u2028::warning::y"'
    path = tmp_path / "perf-changelog.yaml"
    path.write_text(f"- config-keys:\n    - k\n  description:\n    - {forged}\n  pr-link: XXX\n")
    assert main(["log", "k", "--file", str(path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u2028" not in out
    assert not [line for line in out.splitlines() if line.lstrip().startswith("::")]
    assert "  - \\x1b[2J\\x1b[31mok\\n::error file=x::forged\\u2028::warning::y" in out
