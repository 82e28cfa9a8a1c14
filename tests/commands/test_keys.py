"""`changelog keys`: what the branch changed, uncommitted edits included."""

from __future__ import annotations

import json
import subprocess

import pytest
from projects import run

MASTER = "configs/amd-master.yaml"


def key_block(key: str, image: str = "rocm/vllm:v1", points: str = "[4, 8]") -> str:
    return (
        f"{key}:\n  image: {image}\n  model: m\n  runner: mi355x\n  precision: fp8\n"
        f"  framework: vllm\n  multinode: false\n  scenarios:\n    fixed-seq-len:\n"
        f"    - isl: 1024\n      osl: 1024\n      search-space:\n"
        f"      - {{ tp: 8, conc-list: {points} }}\n"
    )


@pytest.fixture
def keys_project(repo):
    repo.commit(
        "base",
        **{
            MASTER: key_block("a-mi355x") + "\n" + key_block("b-mi355x"),
            "perf-changelog.yaml": "- config-keys:\n    - a-mi355x\n"
            '  description:\n    - "Add a"\n  pr-link: XXX\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def keys(repo, *args: str) -> subprocess.CompletedProcess[str]:
    return run(repo, "keys", *args)


def test_keys_lists_committed_and_uncommitted_changes(keys_project) -> None:
    keys_project.commit(
        "bump a",
        **{MASTER: key_block("a-mi355x", image="rocm/vllm:v2") + "\n" + key_block("b-mi355x")},
    )
    keys_project.write(
        MASTER,
        key_block("a-mi355x", image="rocm/vllm:v2")
        + "\n"
        + key_block("b-mi355x", points="[4]")
        + "\n"
        + key_block("c-mi355x"),
    )
    done = keys(keys_project)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("changes from ") and lines[0].endswith(" to work tree:")
    assert lines[1:] == [
        f"  modified  a-mi355x  (image)  {MASTER}:1",
        f"  reduced   b-mi355x  (scenarios.fixed-seq-len; no entry needed)  {MASTER}:15",
        f"  added     c-mi355x  {MASTER}:29",
    ]


def test_keys_json_carries_every_change_in_full(keys_project) -> None:
    head = keys_project.commit("drop b", **{MASTER: key_block("a-mi355x")})
    done = keys(keys_project, "--base", "main", "--head", head, "--format", "json")
    document = json.loads(done.stdout)
    assert document["base"] == keys_project.git("rev-parse", "main")
    assert document["head"] == head
    assert document["changed"]["removed"] == ["b-mi355x"]
    assert document["keys"] == [
        {
            "key": "b-mi355x",
            "kind": "removed",
            "fields": [],
            "scenarios": [],
            "reduced": False,
            "needs_entry": False,
            "path": MASTER,
            "line": 15,
            "recipes": [],
            "points": {},  # removed: nothing runs
        }
    ]
    assert document["appended"] == [] and document["findings"] == []


def test_keys_reports_a_master_config_that_does_not_parse(keys_project) -> None:
    keys_project.write(MASTER, key_block("a-mi355x", points="[4, 8") + "\n" + key_block("b-mi355x"))
    done = keys(keys_project, "--format", "json")
    document = json.loads(done.stdout)
    assert [p["code"] for p in document["findings"]] == ["yaml-syntax"]
    assert document["findings"][0]["path"] == MASTER
