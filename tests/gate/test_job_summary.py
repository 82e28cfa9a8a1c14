"""The job summary: with --format github and GITHUB_STEP_SUMMARY set, verify appends
Markdown people read (real git, the real CLI)."""

from __future__ import annotations

from pathlib import Path

from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, make_project, run


def verify_with_summary(repo: GitRepo, tmp_path: Path, *args: str) -> tuple[int, str]:
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    done = run(
        repo,
        "verify",
        "--base",
        "main",
        "--format",
        "github",
        *args,
        env={"GITHUB_STEP_SUMMARY": str(summary)},
    )
    return done.returncode, summary.read_text()


def test_the_summary_lists_changed_keys_findings_and_the_suggested_entry(
    repo: GitRepo, tmp_path: Path
) -> None:
    make_project(repo)
    repo.commit(
        "keys",
        **{
            NVIDIA: NVIDIA_TEXT.replace("image: vllm/vllm-openai:v1", "image: v2", 1)
            + "\n"
            + key_block("x1-vllm")
        },
    )
    code, text = verify_with_summary(repo, tmp_path)
    assert code == 1
    assert text.startswith("earlier step\n## perf-changelog: failed (2 error(s))\n")
    assert "| a\\-vllm | modified | image | **no** |" in text
    assert "| x1\\-vllm | added | \\- | **no** |" in text
    assert "`uncovered-key`" in text
    assert "~~~~yaml\n- config-keys:\n    - a-vllm\n    - x1-vllm\n" in text


def test_a_covered_change_passes_and_an_opt_out_has_no_suggested_entry(
    repo: GitRepo, tmp_path: Path
) -> None:
    make_project(repo)
    repo.commit("key", **{NVIDIA: NVIDIA_TEXT + "\n" + key_block("x1-vllm")})
    code, text = verify_with_summary(repo, tmp_path, "--skip-reason", "a rename")
    assert code == 0 and "passed" in text and "~~~~yaml" not in text
    repo.commit("entry", **{LOG: HISTORY + "\n" + entry("x1-vllm", "Add x1")})
    code, text = verify_with_summary(repo, tmp_path)
    assert code == 0 and "| x1\\-vllm | added | \\- | yes |" in text


def test_names_from_the_branch_cannot_break_the_table(repo: GitRepo, tmp_path: Path) -> None:
    make_project(repo)
    hostile = key_block("x1-vllm") + '  "a|b</td><script>": 1\n'
    repo.commit(
        "key",
        **{
            NVIDIA: NVIDIA_TEXT
            + "\n"
            + key_block("y-vllm")
            + "\n"
            + hostile.replace("x1-vllm", "z-vllm")
        },
    )
    code, text = verify_with_summary(repo, tmp_path)
    assert code == 1
    rows = [line for line in text.splitlines() if line.startswith("| ") and "vllm" in line]
    assert all(line.count(" | ") == 3 for line in rows), rows
    assert "<script>" not in text
