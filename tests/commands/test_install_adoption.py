"""`changelog install` writes only to a repository that uses the tool (a changelog,
a settings file or a master config, found as `init` finds them); elsewhere it
refuses as `init --dry-run` does, writes nothing, and names ``--force``."""

from __future__ import annotations

import pytest
from conftest import GitRepo
from projects import run as tool

LOG = "perf-changelog.yaml"


def state(repo: GitRepo) -> tuple[list[str], str]:
    """Every file of the repository (the git directory's too) and its local config."""
    files = sorted(
        p.relative_to(repo.root).as_posix()
        for p in repo.root.rglob("*")
        if p.is_file() and "/objects/" not in p.as_posix() and "/logs/" not in p.as_posix()
    )
    return files, (repo.root / ".git" / "config").read_text()


def test_a_repository_that_does_not_use_the_tool_is_refused_as_init_refuses_it(
    repo: GitRepo,
) -> None:
    repo.commit("docs", **{"README.md": "# a project\n", "ci.yaml": "on: push\n"})
    before = state(repo)
    refused = tool(repo.root, "install")
    assert refused.returncode == 2 and refused.stdout == ""
    assert "this repository does not use perf-changelog" in refused.stderr
    assert "`changelog install --force`" in refused.stderr
    assert state(repo) == before  # no .gitattributes, no attribute line, no config, no script
    init = tool(repo.root, "init", "--dry-run")
    assert init.returncode == refused.returncode
    shared = "changelog: no master config (*-master.yaml) found in "
    assert init.stderr.startswith(shared) and refused.stderr.startswith(shared)


@pytest.mark.parametrize(
    "files",
    [
        {LOG: ""},
        {"configs/nvidia-master.yaml": "a: 1\n"},
        {".perf-changelog.toml": 'changelog = "history/perf.yaml"\n'},
    ],
    ids=["a changelog", "a master config", "a settings file"],
)
def test_any_sign_of_the_tool_lets_install_write_without_force(
    repo: GitRepo, files: dict[str, str]
) -> None:
    assert tool(repo.root, "install").returncode == 2
    repo.commit("start", **files)
    done = tool(repo.root, "install")
    assert done.returncode == 0, done.stderr


def test_force_installs_there_anyway_and_uninstall_is_never_refused(repo: GitRepo) -> None:
    assert tool(repo.root, "install", "--check").returncode == 1  # not set up: not refused
    assert tool(repo.root, "install").returncode == 2
    forced = tool(repo.root, "install", "--force")
    assert forced.returncode == 0, forced.stderr
    assert repo.git("check-attr", "merge", "--", LOG) == f"{LOG}: merge: perf-changelog"
    assert tool(repo.root, "install", "--uninstall").returncode == 0
    assert not (repo.root / ".gitattributes").exists()
