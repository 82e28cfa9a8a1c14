"""``max-bytes``: one size limit, set in the settings, that every command applies
before it reads the changelog (the installed command, real git repositories)."""

from __future__ import annotations

import pytest
from projects import HISTORY, LOG, entry, make_project, run

LIMIT = 1200
BIG = HISTORY + "".join("\n" + entry(f"k{n}-vllm", f"Change {n}") for n in range(20))


@pytest.fixture
def limited_project(repo):
    limited_project = make_project(repo)
    limited_project.git("checkout", "-q", "main")
    limited_project.commit(
        "a long history and a small limit",
        **{
            LOG: BIG,
            ".perf-changelog.toml": f'repository = "acme/bench"\nmax-bytes = {LIMIT}\n',
        },
    )
    limited_project.git("checkout", "-q", "-B", "feature")
    assert len(BIG.encode()) > LIMIT
    return limited_project


COMMANDS = {
    "verify --file": ["verify", "--file", LOG],
    "verify --base": ["verify", "--base", "main"],
    "keys --base": ["keys", "--base", "main"],
    "add": ["add", "--key", "a-vllm", "--description", "Retune a", "--no-input"],
    "add --dry-run": ["add", "--key", "a-vllm", "--description", "Retune", "--dry-run"],
    "log": ["log", "a-vllm"],
    "sync": ["sync", "--onto", "main"],
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_refuses_a_changelog_over_max_bytes(limited_project, name: str) -> None:
    before = limited_project.read(LOG)
    done = run(limited_project, *COMMANDS[name])
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert f"over the {LIMIT}-byte limit" in done.stderr
    assert "max-bytes" in done.stderr
    assert "Traceback" not in done.stderr
    assert limited_project.read(LOG) == before


def test_the_merge_driver_refuses_before_reading_and_leaves_a_conflict(limited_project) -> None:
    for name in "OAB":
        limited_project.write(f".merge_{name}", BIG)
    done = run(limited_project, "merge-driver", ".merge_O", ".merge_A", ".merge_B", LOG)
    assert done.returncode != 0
    assert f"over the {LIMIT}-byte limit" in done.stderr
    assert "max-bytes" in done.stderr and "Traceback" not in done.stderr


def test_under_the_limit_nothing_changes(limited_project) -> None:
    limited_project.commit("a higher limit", **{".perf-changelog.toml": "max-bytes = 1000000\n"})
    assert run(limited_project, "verify", "--file", LOG).returncode == 0


@pytest.mark.parametrize("value", ["0", "-5", "true", '"big"', "1.5"])
def test_max_bytes_must_be_a_positive_whole_number(limited_project, value: str) -> None:
    limited_project.write(".perf-changelog.toml", f"max-bytes = {value}\n")
    done = run(limited_project, "log", "a-vllm")
    assert done.returncode == 2
    assert "'max-bytes'" in done.stderr and "whole number of bytes" in done.stderr
