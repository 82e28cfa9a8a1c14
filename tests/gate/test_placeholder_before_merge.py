"""A placeholder pr-link must not reach the protected branch: in a merge queue
(``verify --before-merge``, which the Action passes on ``merge_group``) and where the
base's settings say ``fill-before-merge = true`` it is an error naming finalize; on
an ordinary pull-request run it stays a warning. Each case is a real branch."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, run

SETTINGS = ".perf-changelog.toml"
PLACEHOLDER = entry("b-vllm", "Bump b's image", "XXX")
BUMPED = NVIDIA_TEXT.replace(key_block("b-vllm"), key_block("b-vllm", image="vllm/vllm-openai:v2"))


def branch(repo: GitRepo, settings: str = "") -> None:
    """main, then branch feature: b-vllm's image bumped and an entry with a placeholder."""
    repo.commit(
        "base",
        **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY, SETTINGS: f'repository = "acme/bench"\n{settings}'},
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("bump b", **{NVIDIA: BUMPED, LOG: HISTORY + "\n" + PLACEHOLDER})


def links(repo: GitRepo, *args: str) -> tuple[int, list[tuple[str, str, str]]]:
    done = run(repo, "verify", "--base", "main", "--format", "json", *args)
    findings = json.loads(done.stdout)["findings"]
    return done.returncode, [
        (f["code"], f["severity"], f["message"]) for f in findings if f["code"] == "pr-link"
    ]


def test_a_pull_request_run_warns_of_the_placeholder(repo: GitRepo) -> None:
    branch(repo)
    code, found = links(repo, "--pr-number", "7")
    assert code == 0 and [(c, s) for c, s, _ in found] == [("pr-link", "warning")]


def test_in_a_merge_queue_the_placeholder_is_an_error_naming_finalize(repo: GitRepo) -> None:
    branch(repo)
    code, found = links(repo, "--before-merge")
    assert code == 1 and [(c, s) for c, s, _ in found] == [("pr-link", "error")]
    assert "changelog finalize --pr-number" in found[0][2]


def test_with_the_pull_requests_number_the_error_names_its_link(repo: GitRepo) -> None:
    branch(repo)
    code, found = links(repo, "--before-merge", "--pr-number", "7")
    assert code == 1 and [(c, s) for c, s, _ in found] == [("pr-link", "error")]
    assert "https://github.com/acme/bench/pull/7" in found[0][2]
    assert "changelog finalize --pr-number 7" in found[0][2]


def test_the_base_setting_makes_every_pull_request_run_an_error(repo: GitRepo) -> None:
    branch(repo, "fill-before-merge = true\n")
    code, found = links(repo, "--pr-number", "7")
    assert code == 1 and [(c, s) for c, s, _ in found] == [("pr-link", "error")]


def test_a_filled_link_passes_in_the_merge_queue(repo: GitRepo) -> None:
    branch(repo)
    filled = PLACEHOLDER.replace("XXX", "https://github.com/acme/bench/pull/7")
    repo.commit("finalize", **{LOG: HISTORY + "\n" + filled})
    code, found = links(repo, "--before-merge")
    assert code == 0 and found == []
