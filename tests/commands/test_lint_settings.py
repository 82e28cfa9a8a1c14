"""`changelog lint --base` (the pre-commit hook) judges a branch with the base's
settings, as `verify --base` does: a branch cannot turn off a lint the base made
an error, and its settings change is the `settings-changed` finding."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import make_project, run

RECIPE = "benchmarks/multi_node/srt-slurm-recipes/vllm/x.yaml"
SLIP = "prefill:\n  max-num-seqs: 8\n  block-size: 64\n  max_num_batched_tokens: 8\n"
STRICT = 'repository = "acme/bench"\n\n[severity]\nkey-style = "error"\n'


def lint(repo: GitRepo, *args: str) -> tuple[int, list[tuple[str, str]]]:
    done = run(repo, "lint", "--base", "main", "--format", "json", *args)
    assert done.returncode in (0, 1), done.stderr
    findings = json.loads(done.stdout)["findings"]
    return done.returncode, [(f["code"], f["severity"]) for f in findings]


def strict_project(repo: GitRepo) -> GitRepo:
    make_project(repo)
    repo.git("checkout", "-q", "main")
    repo.commit("key-style is an error here", **{".perf-changelog.toml": STRICT})
    repo.git("checkout", "-q", "feature")
    repo.git("merge", "-q", "--ff-only", "main")
    return repo


def test_a_branch_cannot_turn_off_a_lint_the_base_made_an_error(repo: GitRepo) -> None:
    strict_project(repo)
    repo.commit(
        "a slip, and the lint turned off",
        **{
            RECIPE: SLIP,
            ".perf-changelog.toml": STRICT.replace('"error"', '"off"'),
        },
    )
    code, found = lint(repo)
    assert code == 1
    assert found == [("settings-changed", "error"), ("key-style", "error")]
    code, found = lint(repo, "--allow-settings-change")
    assert code == 1  # allowed, the change is a warning; the base's error still rules
    assert found == [("settings-changed", "warning"), ("key-style", "error")]


def test_the_bases_severities_apply_when_the_branch_leaves_the_settings_alone(
    repo: GitRepo,
) -> None:
    strict_project(repo)
    repo.commit("a slip", **{RECIPE: SLIP})
    assert lint(repo) == (1, [("key-style", "error")])


def test_a_settings_change_alone_is_reported_by_lint(repo: GitRepo) -> None:
    make_project(repo)
    repo.commit("settings", **{".perf-changelog.toml": STRICT})
    code, found = lint(repo)
    assert (code, found) == (1, [("settings-changed", "error")])
    done = run(repo, "lint", "--base", "main")
    assert "the base's settings were used" in done.stdout
    assert "--allow-settings-change" in done.stdout
