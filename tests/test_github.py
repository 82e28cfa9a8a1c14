"""One parser of GitHub repository URLs (``github.slug_of``): the host is exactly
github.com, for the repository pr-links must name (a remote's URL) and for the
Action ``init`` writes (``--source``)."""

from __future__ import annotations

import json

import pytest
from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, run

from changelog_tool.github import slug_of

ACME = HISTORY  # its entries link to acme/bench's pull requests


@pytest.mark.parametrize(
    ("url", "slug"),
    [
        ("https://github.com/acme/bench", "acme/bench"),
        ("https://github.com/acme/bench.git/", "acme/bench"),
        ("git@github.com:acme/bench.git", "acme/bench"),
        ("ssh://git@github.com:22/acme/bench.git", "acme/bench"),
        ("https://x-access-token:secret@github.com/acme/bench", "acme/bench"),
        ("git+https://github.com/acme/bench", "acme/bench"),
        ("https://notgithub.com/acme/bench", None),
        ("git@notgithub.com:acme/bench.git", None),
        ("https://github.com.example.org/acme/bench", None),
        ("https://example.org/github.com/acme/bench", None),
        ("file:///srv/github.com/acme/bench", None),
        ("https://github.com/acme", None),
        ("https://github.com/acme/bench/tree/main", None),
    ],
)
def test_only_github_com_itself_is_github(url: str, slug: str | None) -> None:
    assert slug_of(url) == slug


def test_a_remote_on_another_host_does_not_name_the_repository_of_pr_links(
    repo: GitRepo,
) -> None:
    """origin is on notgithub.com: the repository is the newest pr-link's (acme/bench),
    not the remote's path (evil/other)."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: ACME})
    repo.git("remote", "add", "origin", "https://notgithub.com/evil/other.git")
    repo.git("checkout", "-q", "-b", "feature")
    own = entry("a-vllm", "Retune a", "https://github.com/acme/bench/pull/5")
    repo.write(LOG, ACME + "\n" + own)
    assert run(repo, "verify", "--base", "main").returncode == 0
    repo.write(LOG, ACME + "\n" + own.replace("acme/bench", "evil/other"))
    done = run(repo, "verify", "--base", "main", "--format", "json")
    messages = [f["message"] for f in json.loads(done.stdout)["findings"] if f["code"] == "pr-link"]
    assert done.returncode == 1 and "not this repository (acme/bench)" in messages[0]


def test_init_takes_no_action_from_a_source_on_another_host(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: ACME})
    done = run(repo, "init", "--source", "https://notgithub.com/acme/perf-changelog@v1.2.3")
    assert done.returncode == 0, done.stderr
    assert "is not a GitHub repository, so a workflow cannot use its Action" in done.stdout
    assert not (repo.root / ".github").exists()
