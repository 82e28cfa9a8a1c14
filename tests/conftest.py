"""Shared fixtures: real git repositories in tmp_path, identity pinned by environment.

The tests mirror the package: a test file sits in the folder of the part of
``changelog_tool/`` it exercises (``ledger/``, ``merge/``, ``diff/``, ...), the end-to-end
test of one command in ``commands/`` (the merge driver's, git-run or not, in
``merge/``), and only the tests of the top-level modules here. Helper modules live
here, next to this file (pytest puts its folder on ``sys.path``): every test imports
them by their bare names (``from projects import run``). Test file names stay unique
across the folders, which have no ``__init__.py``."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
"""The project's checkout (``pyproject.toml``, ``docs/``, ``schema/``...): tests in any
folder find its files from here."""
CORPUS = ROOT.parent / "shared" / "corpus"


@pytest.fixture(autouse=True)
def _git_identity(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[None]:
    config = tmp_path_factory.mktemp("gitconfig") / "global"
    for name, value in {
        "GIT_AUTHOR_NAME": "Test Author",
        "GIT_AUTHOR_EMAIL": "author@example.invalid",
        "GIT_COMMITTER_NAME": "Test Committer",
        "GIT_COMMITTER_EMAIL": "committer@example.invalid",
        "GIT_CONFIG_GLOBAL": str(config),
        "GIT_CONFIG_NOSYSTEM": "1",
    }.items():
        monkeypatch.setenv(name, value)
    config.write_text("[init]\n\tdefaultBranch = main\n")
    yield


@pytest.fixture(autouse=True)
def _builtin_entry_schema() -> Iterator[None]:
    """Each test starts with the built-in entry schema in use (a command run in this
    process puts its repository's in use for the rest of the process)."""
    from changelog_tool.ledger import entryschema

    with entryschema.using(entryschema.builtin()):
        yield


class GitRepo:
    """A real repository for tests: write files, commit, branch, run git."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def git(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(
            ["git", *args],
            cwd=self.root,
            capture_output=True,
            text=True,
            env=os.environ,
            check=False,
        )
        if check and result.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed:\n{result.stdout}{result.stderr}")
        return result.stdout.strip()

    def write(self, path: str, data: str | bytes) -> Path:
        file = self.root / path
        file.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            data = data.encode("utf-8")
        file.write_bytes(data)
        return file

    def read(self, path: str) -> bytes:
        return (self.root / path).read_bytes()

    def commit(self, message: str, **files: str | bytes) -> str:
        for path, data in files.items():
            self.write(path, data)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    root = tmp_path / "repo"
    root.mkdir()
    r = GitRepo(root)
    r.git("init", "-q", "-b", "main")
    return r


def uses_the_tool(repo: GitRepo) -> GitRepo:
    """``repo`` with an empty changelog committed: a repository that uses the tool,
    where `install` writes."""
    repo.commit("changelog", **{"perf-changelog.yaml": ""})
    return repo


@pytest.fixture
def project(repo: GitRepo) -> GitRepo:
    """The shared project (:func:`projects.make_project`): on main both master files
    and a two-entry history; checked out, the branch ``feature``."""
    from projects import make_project

    return make_project(repo)


@pytest.fixture
def corpus() -> Path:
    if not (CORPUS / "inferencex-data.bundle").is_file():
        pytest.skip("../shared/corpus is absent")
    return CORPUS


HOSTILE_CPU_SECONDS = 6
"""The hard CPU limit of a child that reads a 1 MB hostile input (three times the 2 s
target ``benchmarks/bench_hostile.py`` holds on a quiet machine: on these two-core
virtual machines a loaded run stretched a 1.4 s command past 3 s of CPU). Every
unbounded class these tests guard against took 10 s to minutes."""


def cpu_limit(seconds: int = HOSTILE_CPU_SECONDS) -> Callable[[], None]:
    """A ``preexec_fn``: the child may spend ``seconds`` of CPU, then the kernel ends
    it (SIGXCPU; SIGKILL a second later)."""
    import resource

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))

    return limit


def run_within_cpu(
    root: Path, *args: str, seconds: int = HOSTILE_CPU_SECONDS, timeout: float = 60.0
) -> subprocess.CompletedProcess[bytes]:
    """``changelog ARGS`` in ``root`` as the installed tool runs it (``python -I``), in a child
    the kernel ends past ``seconds`` of CPU; it must not have been ended so."""
    done = subprocess.run(
        [sys.executable, "-I", "-m", "changelog_tool", *args],
        cwd=root,
        capture_output=True,
        env=os.environ,
        timeout=timeout,
        preexec_fn=cpu_limit(seconds),
        check=False,
    )
    assert done.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), f"over {seconds} s of CPU"
    return done
