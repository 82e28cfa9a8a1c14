"""docs/troubleshooting.md: each section's commands, run once on the trouble it
describes (real git, the real CLI), and found verbatim in the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT, GitRepo
from projects import run

PAGE = ROOT / "docs" / "troubleshooting.md"
LOG = "perf-changelog.yaml"
MASTER = "configs/nvidia-master.yaml"


def commands(heading: str) -> list[str]:
    """The commands of a section's ``sh`` block, without their comments."""
    text = PAGE.read_text(encoding="utf-8")
    section = text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    block = section.split("```sh\n", 1)[1].split("```", 1)[0]
    return [re.sub(r"\s+#.*$", "", line).strip() for line in block.splitlines()]


def entry(key: str, text: str, link: str) -> str:
    return f'- config-keys:\n    - {key}\n  description:\n    - "{text}"\n  pr-link: {link}\n'


def diverged(repo: GitRepo) -> GitRepo:
    """main and the branch ``feature`` each appended an entry since their base."""
    link = "https://github.com/acme/bench/pull/"
    repo.commit(
        "base",
        **{
            MASTER: "a-vllm:\n  image: v1\nb-vllm:\n  image: v1\n",
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
            LOG: entry("a-vllm", "A", link + "1"),
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "bump a",
        **{
            MASTER: "a-vllm:\n  image: v2\nb-vllm:\n  image: v1\n",
            LOG: entry("a-vllm", "A", link + "1") + "\n" + entry("a-vllm", "Own entry", "XXX"),
        },
    )
    repo.git("checkout", "-q", "main")
    repo.commit(
        "bump b",
        **{
            MASTER: "a-vllm:\n  image: v1\nb-vllm:\n  image: v3\n",
            LOG: entry("a-vllm", "A", link + "1") + "\n" + entry("b-vllm", "Main", link + "2"),
        },
    )
    repo.git("checkout", "-q", "feature")
    return repo


def changelog(repo: GitRepo, line: str, code: int = 0) -> str:
    done = run(repo, *line.split()[1:])
    assert done.returncode == code, (line, done.stdout, done.stderr)
    return done.stdout + done.stderr


@pytest.fixture(autouse=True)
def _no_editor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_EDITOR", "true")


def test_the_merge_driver_cannot_start(repo: GitRepo) -> None:
    diverged(repo)
    changelog(repo, "changelog install")
    driver = repo.git("config", "merge.perf-changelog.driver")
    moved = re.sub(r"^'[^']*'|^\S+", "/moved/venv/bin/python", driver, count=1)
    repo.git("config", "merge.perf-changelog.driver", moved)
    stopped = repo.git("rebase", "main", check=False)
    assert "rebase --continue" in stopped or repo.git("status").count("rebase")
    fix = commands("The merge driver cannot start")
    assert fix == ["changelog resolve", "changelog install", "changelog install --check"]
    changelog(repo, fix[0])
    repo.git("rebase", "--continue")
    changelog(repo, fix[1])
    assert "the driver is ready" in changelog(repo, fix[2])


def test_after_an_upgrade_and_to_uninstall(repo: GitRepo) -> None:
    """The pip lines are shown with the install's own evidence (README); here the
    commands run in the clone."""
    diverged(repo)
    steps = commands("After an upgrade")
    assert steps[0].startswith('pip install -U "git+') and steps[1] == "changelog --version"
    for line in steps[2:]:
        changelog(repo, line)
    text = PAGE.read_text(encoding="utf-8")
    assert "`changelog install --uninstall`" in text
    assert "was removed" not in changelog(repo, "changelog install --uninstall")
    assert repo.git("config", "--get", "merge.perf-changelog.driver", check=False) == ""


def test_a_rebase_stopped_mid_way(repo: GitRepo) -> None:
    diverged(repo)
    repo.git("rebase", "main", check=False)  # no driver: git stops on the file
    assert "is unmerged (rebase in progress)" in changelog(repo, "changelog verify", 1)
    steps = commands("A rebase stopped mid-way")
    assert steps == ["changelog resolve", "git rebase --continue", "changelog install"]
    changelog(repo, steps[0])
    repo.git(*steps[1].split()[1:])
    changelog(repo, steps[2])
    assert b"Main" in repo.read(LOG) and b"Own entry" in repo.read(LOG)
    changelog(repo, "changelog verify --base main")


def test_entries_lost_after_x_theirs(repo: GitRepo) -> None:
    diverged(repo)
    repo.git("rebase", "-X", "theirs", "main")
    assert b"Main" not in repo.read(LOG)
    said = changelog(repo, "changelog verify --base main", 1)
    assert "history-modified: this branch removed entry 2" in said
    steps = commands("Entries lost after -X theirs")
    assert steps[0] == "changelog sync"
    named = changelog(repo, steps[0], 1)
    assert "changelog sync --rebuild" in named and "- a-vllm" in named
    assert steps[1] == "changelog sync --rebuild"
    changelog(repo, steps[1])
    assert b"Main" in repo.read(LOG) and b"Own entry" in repo.read(LOG)
    assert steps[2].startswith("git commit -am ")
    repo.git("commit", "-qam", "perf-changelog.yaml: main's entries, then this branch's")
    assert steps[3] == "changelog verify --base main"
    changelog(repo, steps[3])


def test_a_required_gate_on_forks(repo: GitRepo, tmp_path: Path) -> None:
    """In a fork's clone, the upstream repository is the remote ``upstream``."""
    upstream = diverged(repo)
    fork = GitRepo(tmp_path / "fork")
    upstream.git("clone", "-q", "-b", "feature", str(upstream.root), str(fork.root))
    fork.git("remote", "rename", "origin", "upstream")
    steps = commands("A required gate on forks")
    assert steps == ["git fetch upstream", "changelog verify --base upstream/main"]
    fork.git(*steps[0].split()[1:])
    assert "verify: ok" in changelog(fork, steps[1])


def test_the_placeholder_before_a_merge_queue(repo: GitRepo, tmp_path: Path) -> None:
    diverged(repo)
    repo.git("rebase", "main", check=False)
    changelog(repo, "changelog resolve")
    repo.git("rebase", "--continue")
    origin = tmp_path / "origin.git"
    repo.git("clone", "-q", "--bare", str(repo.root), str(origin))
    repo.git("remote", "add", "origin", str(origin))
    repo.git("fetch", "-q", "origin")
    steps = commands("The placeholder before a merge queue")
    assert steps == [
        "changelog finalize --pr-number 123 --onto origin/main --commit",
        "changelog verify --base origin/main --before-merge",
        "git push",
    ]
    changelog(repo, steps[1], 1)  # the placeholder would reach main
    changelog(repo, steps[0])
    assert b"pr-link: https://github.com/acme/bench/pull/123\n" in repo.read(LOG)
    changelog(repo, steps[1])
    repo.git("push", "-q", "origin", "HEAD:feature")


def test_every_section_a_message_names_is_a_heading_of_the_page() -> None:
    headings = {
        line[3:] for line in PAGE.read_text(encoding="utf-8").splitlines() if line[:3] == "## "
    }
    named = {
        found
        for path in (ROOT / "changelog_tool").rglob("*.py")
        for found in re.findall(r"\bsee\(\s*[\"']([^\"']+)[\"']", path.read_text(encoding="utf-8"))
    }
    assert len(named) >= 3 and named <= headings, sorted(named - headings)
