"""The Action and the hook ``init`` writes are pinned by commit, with the release tag
in a comment when it is known; a tag alone is written as given, with the command
that finds its commit (real git, the real CLI)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from conftest import GitRepo
from projects import HISTORY, NVIDIA, NVIDIA_TEXT, run

from changelog_tool.commands import init, init_files
from changelog_tool.commands.init_files import from_install_record, source_of

COMMIT = "0123456789abcdef0123456789abcdef01234567"
WORKFLOW = ".github/workflows/perf-changelog.yml"


def test_the_release_tag_of_the_installed_commit_is_the_comment(
    repo: GitRepo, tmp_path: Path
) -> None:
    record = json.dumps(
        {
            "url": "https://github.com/acme/perf-changelog.git",
            "vcs_info": {"vcs": "git", "commit_id": COMMIT},
        }
    )
    released = from_install_record(record, "1.2.3")
    assert released is not None and released.tag == "v1.2.3"
    between = from_install_record(record, "1.2.4.dev3+g0123456")
    assert between is not None and between.tag is None
    step = init._workflow_step(tmp_path, "main", released)
    assert f"      - uses: acme/perf-changelog@{COMMIT} # v1.2.3\n" in step.text
    hook = init_files.pre_commit(tmp_path / init_files.PRE_COMMIT, released)
    assert f'    rev: "{COMMIT}"  # frozen: v1.2.3\n' in hook.text


def test_a_tag_alone_is_said_with_the_command_that_finds_its_commit(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    done = run(
        repo, "init", "--dry-run", "--source", "https://github.com/acme/perf-changelog@v1.2.3"
    )
    assert done.returncode == 0, done.stderr
    assert (
        f"init: {WORKFLOW}: v1.2.3 is not a commit, so the Action is pinned by a name that "
        "can be moved (zizmor reports it as unpinned-uses); its commit is the last line's "
        "first field of `git ls-remote https://github.com/acme/perf-changelog "
        "refs/tags/v1.2.3 'refs/tags/v1.2.3^{}'`"
    ) in done.stdout


def test_the_command_printed_for_a_tag_finds_its_commit(tmp_path: Path) -> None:
    """Run as printed, on a repository with an annotated tag (whose own object is not
    the commit) and a tag whose name starts with the same characters."""
    upstream = GitRepo(tmp_path / "upstream")
    upstream.root.mkdir()
    upstream.git("init", "-q")
    upstream.commit("tagged", **{"a": "1\n"})
    tagged = upstream.git("rev-parse", "HEAD").strip()
    upstream.git("tag", "-a", "v1.2.3", "-m", "release")
    upstream.commit("later", **{"a": "2\n"})
    upstream.git("tag", "v1.2.30")
    command = source_of(str(upstream.root), "v1.2.3").find_commit()
    out = subprocess.run(
        command, shell=True, cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines()[-1].split()[0] == tagged


def test_an_existing_workflow_is_left_as_it_is_whatever_the_source(repo: GitRepo) -> None:
    """A clone that already has the workflow and the hook (installed from a folder:
    no source known) is told they exist, not that the source is unknown."""
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            "perf-changelog.yaml": HISTORY,
            WORKFLOW: "name: perf-changelog\n",
            ".pre-commit-config.yaml": "repos:\n  - repo: x\n    rev: y\n    hooks:\n"
            "      - id: perf-changelog\n",
        },
    )
    done = run(repo, "init", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert f"init: {WORKFLOW}: exists; left as it is\n" in done.stdout
    assert "init: .pre-commit-config.yaml: already has the perf-changelog hook\n" in done.stdout
    assert "is unknown" not in done.stdout
