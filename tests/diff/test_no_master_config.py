"""No master config is an error, not a silence: `keys`, `verify --base` and `add`
say which setting and globs found nothing (exit 2) and write nothing."""

from __future__ import annotations

import pytest
from conftest import GitRepo
from projects import run

OLD = '- config-keys:\n    - k\n  description:\n    - "old"\n  pr-link: XXX\n'


@pytest.mark.parametrize(
    "command",
    [
        ["keys", "--base", "main"],
        ["verify", "--base", "main"],
        ["add", "--no-input", "--key", "k", "--description", "d"],
    ],
)
def test_a_repository_without_master_configs_is_told_so(repo: GitRepo, command: list[str]) -> None:
    repo.commit("base", **{"perf-changelog.yaml": OLD, "configs/other.yaml": "k: {}\n"})
    repo.git("checkout", "-q", "-b", "feature")
    done = run(repo, *command)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "no master config found" in done.stderr
    assert "`master-configs` (configs/*-master.yaml, .github/configs/*-master.yaml" in done.stderr
    assert repo.read("perf-changelog.yaml") == OLD.encode()
