"""The remote and the branch of a ref have one rule (``refnames.remote_and_branch``):
the refusal for a missing protected ref or ``--base`` names the fetch that makes it for
every spelling the settings take (``refs/remotes/origin/B`` too), as the protected
branch's name is read from the same split."""

from __future__ import annotations

from conftest import GitRepo
from projects import HISTORY, NVIDIA, NVIDIA_TEXT, run

from changelog_tool.refnames import branch_name, remote_and_branch


def _clone_with_origin_unfetched(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    repo.git("remote", "add", "origin", str(repo.root))


def test_a_missing_full_remote_ref_is_told_its_fetch(repo: GitRepo) -> None:
    _clone_with_origin_unfetched(repo)
    repo.write(".perf-changelog.toml", b'protected-ref = ["refs/remotes/origin/main"]\n')
    done = run(repo, "keys")
    assert done.returncode == 2
    assert "run `git fetch origin main:refs/remotes/origin/main`" in done.stderr


def test_a_missing_full_remote_base_is_told_its_fetch(repo: GitRepo) -> None:
    _clone_with_origin_unfetched(repo)
    done = run(repo, "verify", "--base", "refs/remotes/origin/main")
    assert done.returncode == 2
    assert "run `git fetch origin main:refs/remotes/origin/main`" in done.stderr


def test_the_split_names_the_branch_the_protected_side_reads() -> None:
    for ref in ("origin/release/2.x", "refs/remotes/origin/release/2.x"):
        assert remote_and_branch(ref) == ("origin", "release/2.x")
        assert branch_name(ref) == "release/2.x"
    assert remote_and_branch("release/2.x") == (None, "release/2.x")
    assert remote_and_branch("refs/heads/release/2.x") == (None, "release/2.x")
    assert remote_and_branch("fork/main", lambda: {"fork"}) == ("fork", "main")
