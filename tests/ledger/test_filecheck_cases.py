"""``verify --file`` reports, for files damaged in different places
(tests/filecheck_cases.py), the codes, messages and lines recorded in
tests/ledger/snapshots/filecheck-findings.json."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from filecheck_cases import cases

from changelog_tool.ledger.filecheck import FileReport, check_file, check_path

SNAPSHOT = Path(__file__).parent / "snapshots" / "filecheck-findings.json"
EXPECTED: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
CASES = cases()
PATH = "perf-changelog.yaml"


def as_recorded(report: FileReport) -> dict[str, Any]:
    items = [[i.line, i.value, i.key_lines] for i in report.items]
    return {
        "findings": [[f.code, f.line, f.severity, f.message] for f in report.findings],
        "parsed": report.parsed,
        "items": len(items),
        "items_sha256": hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest(),
    }


def test_every_case_is_recorded() -> None:
    assert sorted(CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_file_reports_what_the_whole_file_check_reported(name: str) -> None:
    assert as_recorded(check_file(CASES[name], PATH)) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_path_reports_the_recorded_findings(name: str, tmp_path: Path) -> None:
    file = tmp_path / PATH
    file.write_bytes(CASES[name])
    report = check_path(file, PATH)
    expected = EXPECTED[name]
    assert [[f.code, f.line, f.severity, f.message] for f in report.findings] == expected[
        "findings"
    ]
    assert report.parsed == expected["parsed"]
