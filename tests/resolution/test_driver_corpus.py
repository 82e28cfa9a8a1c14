"""The special corpus scenarios, replayed through real git with the installed driver:
`git rebase main` completes with the expected bytes, or stops where the corpus
expects a refusal; the resolved files pass `changelog verify --file`."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest
from conftest import GitRepo
from merge_helpers import Scenario, clone_bundle, scenarios
from projects import run

LOG = "perf-changelog.yaml"


@pytest.fixture(scope="module")
def special(tmp_path_factory: pytest.TempPathFactory) -> list[Scenario]:
    from conftest import CORPUS

    if not (CORPUS / "inferencex-data.bundle").is_file():
        pytest.skip("../shared/corpus is absent")
    clone = clone_bundle(CORPUS, tmp_path_factory.mktemp("corpus") / "ix")
    return [s for s in scenarios(CORPUS, clone) if s.record["kind"] != "regular"]


def rebase(repo: GitRepo, s: Scenario) -> subprocess.CompletedProcess[str]:
    repo.commit("base", **{LOG: s.base})
    done = run(repo, "install")
    assert done.returncode == 0, done.stderr
    repo.commit("attributes")
    repo.git("checkout", "-q", "-b", "pr")
    repo.commit("the pull request", **{LOG: s.pr})
    repo.git("checkout", "-q", "main")
    repo.commit("main moved", **{LOG: s.main})
    repo.git("checkout", "-q", "pr")
    return subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, check=False
    )


def test_special_scenarios_rebase_through_git_to_the_expected_bytes(
    corpus: Path, special: list[Scenario], tmp_path: Path
) -> None:
    assert len(special) == 12
    for n, s in enumerate(special):
        root = tmp_path / f"r{n}"
        root.mkdir()
        repo = GitRepo(root)
        repo.git("init", "-q", "-b", "main")
        result = rebase(repo, s)
        if s.record["expected_sha256"] is None:
            assert result.returncode != 0, s.id
            assert "history-modified" in result.stderr, s.id
            continue
        assert result.returncode == 0, (s.id, result.stderr)
        merged = repo.read(LOG)
        assert hashlib.sha256(merged).hexdigest() == s.record["expected_sha256"], s.id
        if s.record.get("expect_flag") == "duplicate-entry" and s.pr != s.main:
            # (when the PR's file equals main's, git drops the commit without a merge)
            assert "duplicate-entry: warning" in result.stderr, s.id


def test_a_resolved_corpus_file_passes_verify_file(
    corpus: Path, special: list[Scenario], repo: GitRepo
) -> None:
    [s] = [s for s in special if s.record["kind"] == "reverted-duplicate"]
    assert rebase(repo, s).returncode == 0
    verify = run(repo, "verify", "--file", LOG)
    assert verify.returncode == 0, verify.stdout
