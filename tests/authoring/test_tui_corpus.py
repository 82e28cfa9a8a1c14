"""The add screen's starting point on real InferenceX commits (../shared/corpus): the keys
it lists and preselects, against the ground truth in commits.jsonl."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from changelog_tool import settings as settings_module
from changelog_tool.authoring.rows import preselected
from changelog_tool.authoring.session import AddSession
from changelog_tool.diff.keychange import ADDED, MODIFIED

SAMPLE = 12


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import CORPUS

    if not (CORPUS / "inferencex-data.bundle").is_file():
        pytest.skip("../shared/corpus is absent")
    target = tmp_path_factory.mktemp("ix") / "ix"
    subprocess.run(
        ["git", "clone", "-q", str(CORPUS / "inferencex-data.bundle"), str(target)], check=True
    )
    return target


def records() -> list[dict[str, Any]]:
    from conftest import CORPUS

    path = CORPUS / "commits.jsonl"
    if not path.is_file():
        return []
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    chosen = [
        r
        for r in rows
        if (r["master"]["added_keys"] or r["master"]["modified_keys"])
        and not r["master"]["parse_errors"]
        and r["changelog"]["other_change"] is None
    ]
    step = max(1, len(chosen) // SAMPLE)
    return chosen[::step][:SAMPLE]


def test_the_listed_and_preselected_keys_match_the_ground_truth(clone: Path) -> None:
    sample = records()
    assert len(sample) == SAMPLE
    checked = 0
    for record in sample:
        sha = record["replay_sha"]
        subprocess.run(["git", "checkout", "-q", "--detach", sha], cwd=clone, check=True)
        settings = settings_module.load(clone)
        if not settings.changelog_path.exists():
            continue  # the earliest commits predate the changelog
        checked += 1
        loaded = AddSession(settings, settings.changelog_path, base=f"{sha}^").load()
        assert loaded.changes is not None, (sha, loaded.problem)
        listed = {r.key for r in loaded.rows if r.change and r.change.kind in (ADDED, MODIFIED)}
        truth = set(record["master"]["added_keys"]) | set(record["master"]["modified_keys"])
        assert listed == truth, sha
        chosen = set(preselected(loaded.rows))
        uncovered = set(record["coverage"]["uncovered_keys"])
        needing = {r.key for r in loaded.rows if r.change and r.change.needs_entry}
        # preselected = what needs an entry and no appended entry covers
        assert chosen == uncovered & needing, sha
    assert checked >= SAMPLE - 2
