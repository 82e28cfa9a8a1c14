"""The top of the work tree is found by git's own rule (``toplevel.work_tree_top``),
for the settings, the confinement rule and the commands alike: an empty ``sub/.git``
folder is passed over, as git passes it over; an empty ``sub/.git`` file stops the
tool, as it stops git. The rule is held to ``git rev-parse --show-toplevel`` on each
layout, and the CLI is run from inside ``sub``."""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, run

from changelog_tool import settings
from changelog_tool.confinement import top_of, work_tree_top
from changelog_tool.errors import EnvironmentProblem

GITS_WORDS_FOR_NO_WORK_TREE = ("not a git repository (or any", "must be run in a work tree")


def gits_top(folder: Path, env: dict[str, str]) -> Path | str | None:
    """What git says: the top, ``None`` for no work tree, or its error."""
    done = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=False,
    )
    if done.returncode == 0:
        return Path(done.stdout.strip())
    return None if any(w in done.stderr for w in GITS_WORDS_FOR_NO_WORK_TREE) else done.stderr


def _empty_folder(outer: GitRepo) -> Path:
    (outer.root / "sub" / ".git").mkdir(parents=True)
    return outer.root / "sub"


def _empty_file(outer: GitRepo) -> Path:
    (outer.root / "sub").mkdir()
    (outer.root / "sub" / ".git").write_bytes(b"")
    return outer.root / "sub"


def _head_only(outer: GitRepo) -> Path:
    (outer.root / "sub" / ".git").mkdir(parents=True)
    (outer.root / "sub" / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    return outer.root / "sub"


def _nested_repository(outer: GitRepo) -> Path:
    (outer.root / "sub" / "deeper").mkdir(parents=True)
    GitRepo(outer.root / "sub").git("init", "-q")
    return outer.root / "sub" / "deeper"


def _linked_work_tree(outer: GitRepo) -> Path:
    outer.commit("first")
    outer.git("worktree", "add", "-q", str(outer.root / "linked"), "-b", "other")
    return outer.root / "linked"


def _gitfile_to_nowhere(outer: GitRepo) -> Path:
    (outer.root / "sub").mkdir()
    (outer.root / "sub" / ".git").write_text("gitdir: ../nowhere\n")
    return outer.root / "sub"


def _inside_the_git_directory(outer: GitRepo) -> Path:
    return outer.root / ".git" / "refs"


def _below_a_ceiling(outer: GitRepo) -> Path:
    (outer.root / "a" / "b").mkdir(parents=True)
    return outer.root / "a" / "b"


LAYOUTS: dict[str, tuple[Callable[[GitRepo], Path], bool]] = {
    "an empty .git folder": (_empty_folder, False),
    "an empty .git file": (_empty_file, False),
    "a .git folder with HEAD only": (_head_only, False),
    "a repository inside the repository": (_nested_repository, False),
    "a linked work tree": (_linked_work_tree, False),
    "a gitfile naming no git directory": (_gitfile_to_nowhere, False),
    "inside .git": (_inside_the_git_directory, False),
    "below GIT_CEILING_DIRECTORIES": (_below_a_ceiling, True),
}


@pytest.mark.parametrize("layout", list(LAYOUTS))
def test_the_top_is_the_one_git_finds(
    repo: GitRepo, layout: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    make, ceiling = LAYOUTS[layout]
    start = make(repo)
    env = {"GIT_CEILING_DIRECTORIES": str(repo.root / "a")} if ceiling else {}
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    expected = gits_top(start, env)
    if isinstance(expected, str):  # git stops: so does the tool, with git's reason
        with pytest.raises(EnvironmentProblem, match=r"\.git"):
            work_tree_top(start)
        return
    found = work_tree_top(start)
    assert (found.resolve() if found else None) == (expected.resolve() if expected else None)
    assert top_of(start) == (found or Path(os.path.abspath(start)))


def project_with_sub(repo: GitRepo, dot_git: str) -> Path:
    """main: masters, history, settings at the top; branch feature: b-vllm bumped and
    its entry appended; ``sub/.git`` an empty folder or file."""
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            LOG: HISTORY,
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    bumped = NVIDIA_TEXT.replace(key_block("b-vllm"), key_block("b-vllm", "vllm/vllm-openai:v2"))
    repo.commit("bump", **{NVIDIA: bumped, LOG: HISTORY + "\n" + entry("b-vllm", "Bump b")})
    sub = repo.root / "sub"
    sub.mkdir()
    if dot_git == "folder":
        (sub / ".git").mkdir()
    else:
        (sub / ".git").write_bytes(b"")
    return sub


def test_from_inside_sub_with_an_empty_git_folder_the_top_is_the_parent(repo: GitRepo) -> None:
    sub = project_with_sub(repo, "folder")
    done = run(sub, "verify", "--base", "main", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout)["changed"]["modified"] == {"b-vllm": ["image"]}
    logged = run(sub, "log", "b-vllm")
    assert logged.returncode == 0 and "Bump b" in logged.stdout
    added = run(sub, "add", "--no-input", "--key", "a-vllm", "--description", "d", "--dry-run")
    assert added.returncode == 0, added.stderr
    assert settings.load(sub).root == repo.root.resolve()


def test_from_inside_sub_with_an_empty_git_file_the_tool_stops_as_git_does(repo: GitRepo) -> None:
    sub = project_with_sub(repo, "file")
    assert subprocess.run(["git", "status"], cwd=sub, capture_output=True).returncode != 0
    for command in (("verify", "--base", "main"), ("log", "b-vllm"), ("verify", "--file", LOG)):
        done = run(sub, *command)
        assert done.returncode == 2, (command, done.stdout, done.stderr)
        assert f"{sub / '.git'} is not a git directory nor a gitfile" in done.stderr
