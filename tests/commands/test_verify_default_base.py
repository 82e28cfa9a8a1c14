"""``verify`` with neither ``--base`` nor ``--file`` judges the branch against the
protected ref the settings name, as ``keys`` and ``lint`` do (real git)."""

from __future__ import annotations

from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, key_block, run


def test_without_base_verify_judges_against_the_protected_ref(project: GitRepo) -> None:
    project.commit("add z", **{NVIDIA: NVIDIA_TEXT + key_block("z-vllm")})
    plain = run(project, "verify", "--format", "json")
    explicit = run(project, "verify", "--base", "main", "--format", "json")
    assert plain.returncode == explicit.returncode == 1, plain.stderr
    assert plain.stdout == explicit.stdout
    assert '"uncovered-key"' in plain.stdout and "z-vllm" in plain.stdout


def test_without_base_the_first_protected_ref_that_exists_is_used(project: GitRepo) -> None:
    project.git("branch", "trunk", "main")
    project.commit(
        "settings",
        **{".perf-changelog.toml": 'repository = "acme/bench"\nprotected-ref = ["trunk"]\n'},
    )
    project.git("branch", "-D", "main")
    done = run(project, "verify")
    # judged against trunk: its settings differ from the branch's, and that is named
    assert done.returncode == 1 and "settings-changed" in done.stdout, done.stderr


def test_without_base_and_without_a_protected_ref_it_says_what_to_pass(project: GitRepo) -> None:
    project.git("branch", "-m", "main", "old-main")
    done = run(project, "verify")
    assert done.returncode == 2
    assert "none of the protected refs (origin/main or main) exists" in done.stderr
    assert "pass --base REF" in done.stderr
