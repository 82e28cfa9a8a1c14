"""JSON means JSON: under --json / --format json every outcome, refusals, usage
errors and --dry-run included, is one JSON document on stdout."""

from __future__ import annotations

import json
import os

import pytest
from conftest import GitRepo
from projects import run

ENTRY = json.dumps({"config-keys": ["a-vllm"], "description": ["Bump"]})


@pytest.mark.parametrize(
    ("args", "stdin", "code"),
    [
        (["add", "--json"], json.dumps({"config-keys": ["nope"], "description": ["d"]}), 1),
        (["add", "--json"], "not json", 1),
        (["add", "--json", "--key", "a-vllm"], ENTRY, 2),
        (["verify", "--base", "no-such-ref", "--format", "json"], "", 2),
        (["keys", "--base", "no-such-ref", "--format", "json"], "", 2),
        (["sync", "--onto", "no-such-ref", "--format", "json"], "", 2),
        (["resolve", "--format", "json"], "", 1),
        (["verify", "--format", "json", "--bogus"], "", 2),
        (["log", "zz", "--format", "json", "--file", "missing.yaml"], "", 2),
    ],
)
def test_every_refusal_is_one_json_document(
    project: GitRepo, args: list[str], stdin: str, code: int
) -> None:
    done = run(project.root, *args, stdin=stdin)
    assert done.returncode == code, done.stderr
    document = json.loads(done.stdout)  # exactly one document, nothing else
    assert document["ok"] is False and document["error"]["exit_code"] == code
    assert done.stderr.startswith(("changelog", "usage"))


def test_a_dry_run_is_json_with_the_exact_bytes(project: GitRepo) -> None:
    before = project.read("perf-changelog.yaml")
    done = run(project.root, "add", "--json", "--dry-run", stdin=ENTRY)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["ok"] is True and document["dry_run"] is True
    assert (
        document["appended"]
        == '\n- config-keys:\n    - a-vllm\n  description:\n    - "Bump"\n  pr-link: XXX\n'
    )
    assert document["bytes"] == [len(before), len(before) + len(document["appended"].encode())]
    assert project.read("perf-changelog.yaml") == before
    written = json.loads(run(project.root, "add", "--json", stdin=ENTRY).stdout)
    assert (
        written["ok"] is True
        and project.read("perf-changelog.yaml") == before + document["appended"].encode()
    )


def test_a_file_name_that_is_not_utf8_keeps_the_json_utf8(project: GitRepo) -> None:
    """As in verify's documents, the name's byte is written as its ``\\udcXX`` escape."""
    name = os.fsdecode(b"x\xff.yaml")
    done = run(project.root, "add", "--json", "--dry-run", "--init", "--file", name, stdin=ENTRY)
    assert done.returncode == 0, done.stderr
    assert "\\udcff" in done.stdout and json.loads(done.stdout)["path"].endswith(name)


def booleans_are_booleans(document: object) -> None:
    """Every ``ok`` in the document, at any depth, is a JSON boolean."""
    if isinstance(document, dict):
        for name, value in document.items():
            if name == "ok":
                assert isinstance(value, bool), (name, value)
            booleans_are_booleans(value)
    elif isinstance(document, list):
        for value in document:
            booleans_are_booleans(value)


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "--base", "main", "--format", "json"],
        ["verify", "--file", "perf-changelog.yaml", "--format", "json"],
        ["keys", "--base", "main", "--format", "json"],
        ["lint", "--base", "main", "--format", "json"],
        ["log", "a-vllm", "--format", "json"],
        ["install", "--check", "--format", "json"],
        ["install", "--format", "json"],
        ["init", "--dry-run", "--source", "https://github.com/acme/tool@v1", "--format", "json"],
        ["sync", "--onto", "main", "--format", "json"],
        ["keys", "--format", "json", "--no-such-flag"],
    ],
    ids=lambda args: " ".join(args[:2]),
)
def test_every_json_document_says_ok_as_a_boolean(project: GitRepo, args: list[str]) -> None:
    done = run(project, *args)
    document = json.loads(done.stdout)
    assert isinstance(document.get("ok"), bool), document
    assert document["ok"] == (done.returncode == 0), (done.returncode, document)
    booleans_are_booleans(document)


def test_a_usage_error_in_json_carries_argparses_message(project: GitRepo) -> None:
    done = run(project, "keys", "--format", "json", "--no-such-flag")
    assert done.returncode == 2
    message = json.loads(done.stdout)["error"]["message"]
    assert "unrecognized arguments: --no-such-flag" in message
