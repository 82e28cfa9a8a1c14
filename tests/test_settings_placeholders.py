"""A placeholder the settings accept is one every entry may hold: the settings refuse
a placeholder the entry schema's pr-link rule refuses (``todo``), for every command,
and one it allows (``TODO``) is a placeholder to add, verify, the before-merge rule
and finalize alike. Each case runs the CLI in a real repository."""

from __future__ import annotations

import json

import pytest
from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, run

from changelog_tool.github import pull_link
from changelog_tool.settings import schema_document

SETTINGS = ".perf-changelog.toml"
BUMPED = NVIDIA_TEXT.replace(key_block("b-vllm"), key_block("b-vllm", image="vllm/vllm-openai:v2"))


def branch(repo: GitRepo, placeholder: str) -> None:
    """main with the placeholder setting, then branch feature: b-vllm's image bumped
    and an entry whose pr-link is the placeholder."""
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            LOG: HISTORY,
            SETTINGS: f'repository = "acme/bench"\nplaceholders = ["{placeholder}"]\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "bump b", **{NVIDIA: BUMPED, LOG: HISTORY + "\n" + entry("b-vllm", "Bump", placeholder)}
    )


@pytest.mark.parametrize(
    "command",
    [
        ("verify", "--file", LOG),
        ("verify", "--base", "main"),
        ("add", "--no-input", "--key", "a-vllm", "--description", "d", "--dry-run"),
        ("finalize", "--pr-number", "7"),
        ("sync",),
    ],
)
def test_a_placeholder_no_entry_can_hold_is_refused_by_every_command(
    repo: GitRepo, command: tuple[str, ...]
) -> None:
    branch(repo, "todo")
    before = repo.read(LOG)
    done = run(repo, *command)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "setting 'placeholders'" in done.stderr and "'todo'" in done.stderr
    assert "capital letters, such as XXX or TODO" in done.stderr
    assert repo.read(LOG) == before


def test_a_placeholder_the_schema_allows_is_one_everywhere(repo: GitRepo) -> None:
    branch(repo, "TODO")
    verified = run(repo, "verify", "--base", "main", "--pr-number", "7", "--format", "json")
    assert verified.returncode == 0, verified.stdout
    codes = {(f["code"], f["severity"]) for f in json.loads(verified.stdout)["findings"]}
    assert ("pr-link", "warning") in codes and "schema" not in {c for c, _ in codes}
    queued = run(repo, "verify", "--base", "main", "--before-merge", "--format", "json")
    assert queued.returncode == 1
    refused = [f for f in json.loads(queued.stdout)["findings"] if f["severity"] == "error"]
    assert [f["code"] for f in refused] == ["pr-link"] and "finalize" in refused[0]["message"]
    added = run(repo, "add", "--no-input", "--key", "a-vllm", "--description", "d", "--dry-run")
    assert added.returncode == 0 and added.stdout.endswith("  pr-link: TODO\n")
    filled = run(repo, "finalize", "--pr-number", "7")
    assert filled.returncode == 0, filled.stderr
    assert repo.read(LOG).endswith(b"  pr-link: https://github.com/acme/bench/pull/7\n")


@pytest.mark.parametrize(
    "link",
    ["https://github.com/acme/bench/extra/pull/XXX", "https://github.com/acme/pull/XXX"],
)
def test_a_link_the_schema_refuses_is_no_placeholder_to_finalize(repo: GitRepo, link: str) -> None:
    """The placeholder rule is the schema's shape of a link: finalize fills in only what
    verify takes for a placeholder, and leaves a malformed link to be fixed by hand."""
    branch(repo, "XXX")
    data = HISTORY + "\n" + entry("b-vllm", "Bump", link)
    repo.commit("a malformed link", **{LOG: data})
    checked = run(repo, "verify", "--base", "main", "--format", "json")
    assert "schema" in {f["code"] for f in json.loads(checked.stdout)["findings"]}
    done = run(repo, "finalize", "--pr-number", "7")
    assert done.returncode == 1
    assert f"links {link!r}" in done.stderr and "fix it by hand" in done.stderr
    assert repo.read(LOG) == data.encode()


def test_the_schema_spells_the_pull_link_shape_of_github_py() -> None:
    """The JSON Schema cannot call Python: its pr-link pattern is held to the one shape."""
    defs = schema_document()["$defs"]
    assert isinstance(defs, dict)
    assert defs["pr-link"]["pattern"] == rf"^({pull_link('[0-9]+|[A-Z]+')}|[A-Z]+)(?!\n)$"
