"""A rebase that stopped on the changelog (no driver in this clone): `verify` says
only that the file is unmerged, and `add` refuses to append to it, both naming
`changelog resolve` (a finding at the markers, or "append one" for a key the
conflict hides, would lead to a doubled entry; an append would be lost to
`resolve`, which rebuilds the file from the index)."""

from __future__ import annotations

import json
import subprocess

from conftest import GitRepo
from projects import LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, make_project, run


def stopped_rebase(repo: GitRepo) -> bytes:
    """feature changes a-vllm and appends its entry; main appends another; the rebase
    stops on the changelog with git's markers. The conflicted file's bytes."""
    make_project(repo)
    changed = NVIDIA_TEXT.replace(
        key_block("a-vllm"), key_block("a-vllm", image="vllm/vllm-openai:v2")
    )
    history = repo.read(LOG).decode()
    repo.commit("change a", **{NVIDIA: changed, LOG: history + "\n" + entry("a-vllm", "Bump a")})
    repo.git("checkout", "-q", "main")
    repo.commit(
        "main's entry",
        **{
            LOG: history
            + "\n"
            + entry("b-vllm", "Main's own", "https://github.com/acme/bench/pull/3")
        },
    )
    repo.git("checkout", "-q", "feature")
    done = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, check=False
    )
    assert done.returncode != 0
    conflicted = repo.read(LOG)
    assert b"<<<<<<< " in conflicted
    return conflicted


def test_verify_gives_one_finding_that_names_resolve(repo: GitRepo) -> None:
    stopped_rebase(repo)
    text = run(repo, "verify", "--base", "main")
    assert text.returncode == 1, text.stdout + text.stderr
    message = (
        "perf-changelog.yaml is unmerged (rebase in progress): run `changelog resolve` (see "
        "'A rebase stopped mid-way' in perf-changelog's docs/troubleshooting.md)"
    )
    assert f"{LOG}: unmerged: {message}" in text.stdout
    assert "history-modified" not in text.stdout and "uncovered-key" not in text.stdout
    as_json = run(repo, "verify", "--base", "main", "--format", "json")
    assert as_json.returncode == 1
    findings = json.loads(as_json.stdout)["findings"]
    assert [(f["code"], f["message"], f["path"]) for f in findings] == [("unmerged", message, LOG)]


def test_add_refuses_to_append_to_the_unmerged_changelog(repo: GitRepo) -> None:
    conflicted = stopped_rebase(repo)
    done = run(repo, "add", "--no-input", "--key", "a-vllm", "--description", "More")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "is unmerged (rebase in progress): run `changelog resolve` first" in done.stderr
    assert repo.read(LOG) == conflicted
    assert run(repo, "resolve").returncode == 0  # then resolve, and add works again
    assert (
        run(repo, "add", "--no-input", "--key", "a-vllm", "--description", "More").returncode == 0
    )
