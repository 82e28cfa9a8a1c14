"""Which repository a pr-link must point at, and where a placeholder is accepted
(real git; `add` and `verify --base` follow the same rule)."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import run, run_process

UPSTREAM = "https://github.com/SemiAnalysisAI/InferenceX/pull"
MASTER = "k-vllm:\n  image: a\n  scenarios:\n    fixed-seq-len:\n    - {isl: 1024, osl: 1024}\n"
OLD = f'- config-keys:\n    - k-vllm\n  description:\n    - "old"\n  pr-link: {UPSTREAM}/1\n'


def fork_clone(repo: GitRepo) -> GitRepo:
    """A contributor's clone: origin is their fork on GitHub, on a feature branch."""
    repo.commit("base", **{"configs/nvidia-master.yaml": MASTER, "perf-changelog.yaml": OLD})
    repo.git("remote", "add", "origin", "https://github.com/contrib/InferenceX.git")
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def test_in_a_forks_clone_the_upstream_link_is_accepted_and_the_forks_refused(
    repo: GitRepo,
) -> None:
    fork_clone(repo)
    ok = run(repo, "add", "--key", "k-vllm", "--description", "x", "--pr-link", f"{UPSTREAM}/7")
    assert ok.returncode == 0, ok.stderr
    refused = run(
        repo,
        "add",
        "--key",
        "k-vllm",
        "--description",
        "x",
        "--pr-link",
        "https://github.com/contrib/InferenceX/pull/7",
    )
    assert refused.returncode == 1
    assert "not this repository (SemiAnalysisAI/InferenceX)" in refused.stderr


def test_an_upstream_remote_names_the_repository_first(repo: GitRepo) -> None:
    fork_clone(repo)
    repo.git("remote", "add", "upstream", "git@github.com:acme/bench.git")
    refused = run(
        repo, "add", "--key", "k-vllm", "--description", "x", "--pr-link", f"{UPSTREAM}/7"
    )
    assert refused.returncode == 1 and "not this repository (acme/bench)" in refused.stderr


def test_verify_refuses_a_link_to_another_repository_without_any_github_remote(
    repo: GitRepo,
) -> None:
    repo.commit("base", **{"configs/nvidia-master.yaml": MASTER, "perf-changelog.yaml": OLD})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "entry",
        **{
            "perf-changelog.yaml": OLD
            + "\n"
            + OLD.replace(f"{UPSTREAM}/1", "https://github.com/evil/fork/pull/1")
        },
    )
    done = run(repo, "verify", "--base", "main", "--format", "json")
    assert done.returncode == 1, done.stdout
    findings = json.loads(done.stdout)["findings"]
    assert any(f["code"] == "pr-link" and "evil/fork" in f["message"] for f in findings)
    text = run(repo, "verify", "--base", "main").stdout
    assert "pr-link: 'https://github.com/evil/fork/pull/1'" in text  # the code once, no echo
    assert "pr-link: pr-link" not in text


def test_a_placeholder_is_refused_on_the_protected_branch_and_accepted_on_a_branch(
    repo: GitRepo,
) -> None:
    repo.commit("base", **{"configs/nvidia-master.yaml": MASTER, "perf-changelog.yaml": OLD})
    on_main = run(repo, "add", "--key", "k-vllm", "--description", "x")
    assert on_main.returncode == 1
    assert "is not allowed here" in on_main.stderr
    assert "main is the protected branch" in on_main.stderr
    assert repo.read("perf-changelog.yaml") == OLD.encode()
    repo.git("checkout", "-q", "-b", "feature")
    assert run(repo, "add", "--key", "k-vllm", "--description", "x").returncode == 0


def test_a_detached_head_at_the_protected_tip_is_the_protected_branch_for_add_and_verify(
    repo: GitRepo,
) -> None:
    repo.commit("base", **{"configs/nvidia-master.yaml": MASTER, "perf-changelog.yaml": OLD})
    repo.git("checkout", "-q", "--detach", "main")
    refused = run(repo, "add", "--key", "k-vllm", "--description", "x")
    assert refused.returncode == 1 and "main is the protected branch" in refused.stderr
    assert repo.read("perf-changelog.yaml") == OLD.encode()
    # the same entry written by hand: verify judges it as add did
    (repo.root / "perf-changelog.yaml").write_text(
        OLD + '\n- config-keys:\n    - k-vllm\n  description:\n    - "x"\n  pr-link: XXX\n'
    )
    judged = run(repo, "verify", "--base", "main", "--format", "json")
    assert judged.returncode == 1
    assert [f["code"] for f in json.loads(judged.stdout)["findings"]] == ["pr-link"]


def test_json_fields_must_be_lists_and_a_null_pr_link_is_the_placeholder(repo: GitRepo) -> None:
    repo.commit("base", **{"configs/nvidia-master.yaml": MASTER, "perf-changelog.yaml": OLD})
    repo.git("checkout", "-q", "-b", "feature")
    bare = run(repo, "add", "--json", stdin='{"config-keys": ["k-vllm"], "description": "Bump"}')
    assert bare.returncode == 1 and "'Bump' is not of type 'array'" in bare.stderr
    null = run(
        repo,
        "add",
        "--json",
        stdin='{"config-keys": ["k-vllm"], "description": ["Bump"], "pr-link": null}',
    )
    assert null.returncode == 0, null.stderr
    assert repo.read("perf-changelog.yaml").endswith(b"  pr-link: XXX\n")


def test_after_a_rename_the_origin_remote_wins_over_old_links(repo: GitRepo) -> None:
    repo.commit(
        "base",
        **{
            "configs/nvidia-master.yaml": MASTER,
            "perf-changelog.yaml": OLD.replace(
                UPSTREAM, "https://github.com/InferenceMAX/InferenceMAX/pull"
            ),
        },
    )
    repo.git("remote", "add", "origin", "https://github.com/SemiAnalysisAI/InferenceX.git")
    repo.git("checkout", "-q", "-b", "feature")
    ok = run(repo, "add", "--key", "k-vllm", "--description", "x", "--pr-link", f"{UPSTREAM}/7")
    assert ok.returncode == 0, ok.stderr


def test_a_rebase_stopped_on_the_protected_tip_is_not_the_protected_branch(
    repo: GitRepo,
) -> None:
    repo.commit(
        "base",
        **{"configs/nvidia-master.yaml": MASTER, "perf-changelog.yaml": OLD, "notes.txt": "one\n"},
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "entry and notes",
        **{
            "notes.txt": "feature\n",
            "perf-changelog.yaml": OLD + "\n" + OLD.replace(f"{UPSTREAM}/1", "XXX"),
        },
    )
    repo.git("checkout", "-q", "main")
    repo.commit("main notes", **{"notes.txt": "main\n"})
    repo.git("checkout", "-q", "feature")
    repo.git("rebase", "main", check=False)  # stops on notes.txt
    assert (repo.root / ".git" / "rebase-merge").is_dir() or (
        repo.root / ".git" / "rebase-apply"
    ).is_dir()
    assert repo.git("rev-parse", "HEAD") == repo.git("rev-parse", "main")
    done = run(repo, "verify", "--base", "main", "--format", "json")
    findings = json.loads(done.stdout)["findings"]
    assert not [f for f in findings if f["code"] == "pr-link"], findings


def test_add_reads_both_remotes_with_one_git_config(repo: GitRepo, tmp_path) -> None:
    """The slug rule's remotes (upstream, then origin) come from one `git config`,
    as verify's do: one rule for reading them, one process (git's own trace)."""
    fork_clone(repo)
    repo.git("remote", "add", "mirror", "https://github.com/other/mirror.git")
    trace = tmp_path / "trace"
    answers = ["--key", "k-vllm", "--description", "x", "--pr-link", f"{UPSTREAM}/7"]
    # a process of its own: every git it runs is traced, its start-up's included
    done = run_process(repo, "add", *answers, "--dry-run", env={"GIT_TRACE": str(trace)})
    assert done.returncode == 0, done.stderr
    configs = [line for line in trace.read_text().splitlines() if "built-in: git config" in line]
    assert len(configs) == 1 and "--get-regexp" in configs[0]
