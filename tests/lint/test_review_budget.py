"""The review budget never lowers a severity: what the lints cannot read within
``REVIEW_BYTES`` fails closed for every lint the base's settings make an error,
and no one large file, whatever its name sorts as, starves the master configs."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, key_block, make_project, run

from changelog_tool.lint.review import REVIEW_BYTES, Changed, MasterKey, review

STRICT = 'repository = "acme/bench"\n\n[severity]\nkey-style = "error"\n'
HUGE = "benchmarks/multi_node/srt-slurm-recipes/aaa-huge.yaml"
"""Sorted before every other changed file, and referenced by no key."""


def huge_recipe() -> str:
    """Within the budget alone, but not with the master key's few hundred bytes."""
    text = "models:\n" + "".join(
        f"  model-{n:06d}:\n    block-size: {n}\n" for n in range(REVIEW_BYTES // 40)
    )
    return text + "# " + "x" * (REVIEW_BYTES - 64 - len(text)) + "\n"


def slipped_key() -> str:
    return key_block("x1-vllm").replace(
        "      osl: 1024\n", "      osl: 1024\n      max_seq_len: 8\n"
    )


def strict_branch(repo: GitRepo) -> None:
    make_project(repo)
    repo.git("checkout", "-q", "main")
    repo.commit("key-style is an error here", **{".perf-changelog.toml": STRICT})
    repo.git("checkout", "-q", "feature")
    repo.git("merge", "-q", "--ff-only", "main")


def findings(repo: GitRepo, *command: str) -> tuple[int, list[dict[str, object]]]:
    done = run(repo, *command, "--base", "main", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)["findings"]


def test_a_huge_recipe_sorted_first_does_not_hide_a_master_configs_key_style_error(
    repo: GitRepo,
) -> None:
    strict_branch(repo)
    assert REVIEW_BYTES - 100 < len(huge_recipe()) < REVIEW_BYTES
    repo.commit(
        "a huge recipe and a slip",
        **{HUGE: huge_recipe(), NVIDIA: NVIDIA_TEXT + "\n" + slipped_key()},
    )
    for command in ("lint", "verify"):
        code, found = findings(repo, command)
        assert code == 1, command
        styles = [(f["severity"], f["path"]) for f in found if f["code"] == "key-style"]
        assert ("error", NVIDIA) in styles, command
        skipped = [f for f in found if f["code"] == "review-skipped"]
        [closed] = [f for f in skipped if f["severity"] == "error"]
        assert HUGE in str(closed["message"]) and "key-style" in str(closed["message"])


def test_what_an_error_lint_cannot_review_fails_the_gate_closed() -> None:
    small = b"a-vllm:\n  image: x\n  model-name: m\n  max-model-len: 8\n"
    big = b"b-vllm:\n  image: " + b"x" * REVIEW_BYTES + b"\n"
    changed = Changed(
        master_keys=[
            MasterKey("configs/nvidia-master.yaml", small, None, 1, None),
            MasterKey("configs/amd-master.yaml", big, None, 1, None),
        ]
    )
    strict = review(changed, lambda p: True, lambda r: None, {"key-style": "error"})
    assert [(f.code, f.severity, f.path) for f in strict] == [
        ("review-skipped", "error", "configs/amd-master.yaml")
    ]
    assert "key-style is an error" in strict[0].message
    plain = review(changed, lambda p: True, lambda r: None)
    assert [(f.code, f.severity) for f in plain] == [("review-skipped", "notice")]
    off = {"key-style": "off", "repeated-block": "off"}
    assert review(changed, lambda p: True, lambda r: None, off) == []


def test_the_smaller_files_are_reviewed_before_a_large_one_whatever_their_names() -> None:
    slip = b"prefill:\n  max-num-seqs: 8\n  block-size: 64\n  max_num_batched_tokens: 8\n"
    big = b"a: " + b"x" * (REVIEW_BYTES - len(slip)) + b"\n"
    changed = Changed(recipes={"a.yaml": (big, None), "b.yaml": (slip, None)})
    found = review(changed, lambda p: True, lambda r: None, {"repeated-block": "error"})
    assert [(f.code, f.severity, f.path) for f in found] == [
        ("key-style", "warning", "b.yaml"),
        ("review-skipped", "error", "a.yaml"),  # repeated-block fails closed
        ("review-skipped", "notice", "a.yaml"),  # key-style, a warning, need not
    ]


def test_repeated_block_cut_short_by_its_work_budget_fails_closed_when_an_error() -> None:
    """Past its pair budget, repeated-block stops comparing siblings: a repeat may go
    unseen, so a lint the settings make an error fails closed there too."""
    from changelog_tool.lint import repeated

    blocks = "".join(
        f"  model-{n:04d}:\n" + "".join(f"    own-{i}: v{n}-{i}\n" for i in range(8))
        for n in range(400)  # 400 siblings: about 80,000 pairs, over MAX_PAIRS
    )
    assert repeated.MAX_PAIRS < 400 * 399 // 2
    changed = Changed(recipes={"r.yaml": (("models:\n" + blocks).encode(), None)})
    strict = review(changed, lambda p: True, lambda r: None, {"repeated-block": "error"})
    assert [(f.code, f.severity, f.path) for f in strict] == [("review-skipped", "error", "r.yaml")]
    plain = review(changed, lambda p: True, lambda r: None)
    assert [(f.code, f.severity) for f in plain] == [("review-skipped", "notice")]
