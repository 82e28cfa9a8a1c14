from __future__ import annotations

import json
from pathlib import Path

import pytest
from projects import run

from changelog_tool.cli import main

GOOD = (
    '- config-keys:\n    - a\n  description:\n    - "first"\n'
    "  pr-link: https://github.com/o/r/pull/1\n\n"
    '- config-keys:\n    - b*\n  description:\n    - "second"\n  pr-link: XXX\n'
)


def verify(tmp_path: Path, data: bytes, *extra: str) -> tuple[int, str]:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(data)
    return main(["verify", "--file", str(path), *extra]), str(path)


def test_a_sound_file_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = verify(tmp_path, GOOD.encode())
    assert code == 0
    assert "verify: ok" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("data", "code", "line"),
    [
        (GOOD.encode() + b"\xff\n", "encoding", 12),
        (GOOD.replace("\n", "\r\n").encode(), "encoding", 1),
        (GOOD.replace("    - b*", "\t- b*").encode(), "encoding", 8),
        (b"\xef\xbb\xbf" + GOOD.encode(), "encoding", 1),
        (GOOD.rstrip("\n").encode(), "final-newline", 11),
        (
            GOOD.replace('  description:\n    - "second"', "  description: [\n").encode(),
            "yaml-syntax",
            None,
        ),
        (
            GOOD.replace("  pr-link: XXX", "  pr-link: XXX\n  pr-link: YYY").encode(),
            "duplicate-yaml-key",
            12,
        ),
        (GOOD.replace("    - b*", "    - &k b*").encode(), "yaml-alias", 8),
        (GOOD.replace("    - b*", "    - !!str b*").encode(), "yaml-tag", 8),
        (b"config-keys: [a]\n", "not-a-list", 1),
        (
            GOOD.replace(
                "- config-keys:\n    - b*", "- description2: x\n  config-keys:\n    - b*"
            ).encode(),
            "entry-count",
            7,
        ),
        (GOOD.replace("  pr-link: XXX", "  pr-link: maybe").encode(), "schema", 11),
    ],
)
def test_each_broken_file_gets_its_own_code_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes, code: str, line: int | None
) -> None:
    exit_code, path = verify(tmp_path, data, "--format", "json")
    assert exit_code == 1
    document = json.loads(capsys.readouterr().out)
    assert document["ok"] is False
    found = [f for f in document["findings"] if f["code"] == code]
    assert found, document["findings"]
    assert found[0]["path"] == path and found[0]["severity"] == "error"
    if line is not None:
        assert found[0]["line"] == line


def test_text_output_is_file_line_code_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = GOOD.replace("  pr-link: XXX", "  pr-link: XXX\n  pr-link: YYY").encode()
    code, path = verify(tmp_path, data)
    assert code == 1
    first = capsys.readouterr().out.splitlines()[0]
    assert first == (
        f"{path}:12: duplicate-yaml-key: duplicate key 'pr-link' (first on line 11); keep only one"
    )


def test_github_output_is_workflow_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = GOOD.replace('    - "second"', '    - ""').encode()
    code, path = verify(tmp_path, data, "--format", "github")
    assert code == 1
    out = capsys.readouterr().out.splitlines()
    assert out == [
        f"::error file={path},line=10,title=schema::entry 2 (line 7), description/0: "
        "'' is empty: a description bullet needs some text"
    ]


def test_every_broken_entry_is_reported_even_after_a_syntax_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = (
        GOOD.replace('    - "first"', '    - "first" x').replace(
            "  pr-link: XXX", "  pr-link: nope"
        )
    ).encode()
    assert verify(tmp_path, data, "--format", "json")[0] == 1
    codes = [(f["code"], f["line"]) for f in json.loads(capsys.readouterr().out)["findings"]]
    assert ("yaml-syntax", 4) in codes and ("schema", 11) in codes


def test_an_adjacent_entry_is_only_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = verify(tmp_path, GOOD.replace("\n\n", "\n").encode(), "--format", "json")
    assert code == 0
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["code"], finding["severity"], finding["line"]) == ("separator", "warning", 6)


def test_a_missing_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["verify", "--file", str(tmp_path / "nope.yaml")]) == 2
    assert "does not exist" in capsys.readouterr().err


def test_outside_a_repository_verify_without_a_file_names_the_file_mode(tmp_path: Path) -> None:
    """(Inside one, it judges the branch against the protected ref:
    tests/commands/test_verify_default_base.py.)"""
    done = run(tmp_path, "verify")
    assert done.returncode == 2 and "`changelog verify --file PATH`" in done.stderr


def test_a_trailing_empty_line_is_a_warning_since_appends_can_follow_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _ = verify(tmp_path, GOOD.encode() + b"\n", "--format", "json")
    assert code == 0
    (finding,) = json.loads(capsys.readouterr().out)["findings"]
    assert (finding["code"], finding["severity"], finding["line"]) == ("separator", "warning", 12)


def test_a_nul_byte_is_one_encoding_finding_not_a_yaml_error_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    verify(tmp_path, GOOD.replace('"second"', '"sec\x00ond"').encode(), "--format", "json")
    codes = [f["code"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert codes == ["encoding"]


def test_crlf_line_endings_are_one_finding_not_one_per_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert verify(tmp_path, GOOD.replace("\n", "\r\n").encode(), "--format", "json")[0] == 1
    findings = json.loads(capsys.readouterr().out)["findings"]
    assert [(f["code"], f["line"]) for f in findings] == [("encoding", 1)]
    assert "CRLF" in findings[0]["message"]
