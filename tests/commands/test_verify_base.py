"""`changelog verify --base`: every finding code on a real git repository."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from projects import run, run_process

from changelog_tool.cli import main

RECIPES = "benchmarks/multi_node/srt-slurm-recipes"
MASTER = "configs/nvidia-master.yaml"
LOG = "perf-changelog.yaml"


def key_block(
    key: str, image: str = "vllm/vllm-openai:v1", recipe: str | None = None, agentic: bool = False
) -> str:
    settings = f'\n        additional-settings:\n        - "CONFIG_FILE={recipe}"' if recipe else ""
    scenario = (
        (
            "    agentic-coding:\n    - duration: 1800\n      search-space:\n"
            "      - { tp: 8, conc-list: [1, 2] }\n"
        )
        if agentic
        else ""
    )
    return (
        f"{key}:\n  image: {image}  # pinned\n  model: some/model\n  runner: b200\n"
        f"  precision: fp4\n  framework: vllm\n  multinode: false\n  scenarios:\n"
        f"    fixed-seq-len:\n    - isl: 1024\n      osl: 1024\n      search-space:\n"
        f"      - tp: 8\n        conc-list: [4, 8, 16]{settings}\n{scenario}"
    )


BASE_KEYS = [
    key_block("a-vllm"),
    key_block("b-vllm", agentic=True),
    key_block("c-vllm", recipe="recipes/vllm/c.yaml"),
]


def master(*blocks: str) -> str:
    return "# NVIDIA configs\n" + "\n".join(blocks)


def entry(keys: list[str], link: str = "XXX", text: str = "Change", scenarios: str = "") -> str:
    listed = "".join(f"    - {k}\n" for k in keys)
    return f'- config-keys:\n{listed}{scenarios}  description:\n    - "{text}"\n  pr-link: {link}\n'


HISTORY = (
    entry(["a-vllm"], "https://github.com/acme/bench/pull/1", "Add a")
    + "\n"
    + entry(["b-vllm"], "https://github.com/acme/bench/pull/2", "Add b")
)


@pytest.fixture
def verify_project(repo):
    repo.commit(
        "base",
        **{
            MASTER: master(*BASE_KEYS),
            LOG: HISTORY,
            f"{RECIPES}/vllm/c.yaml": "name: c\n",
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def cli(repo, capsys, *argv: str) -> tuple[int, str, str]:
    """The command in this process (from the repository's directory)."""
    cwd = os.getcwd()
    os.chdir(repo.root)
    try:
        code = main(list(argv))
    finally:
        os.chdir(cwd)
    out = capsys.readouterr()
    return code, out.out, out.err


def verify(repo, capsys, *args: str) -> tuple[int, str, str]:
    return cli(repo, capsys, "verify", "--base", "main", *args)


def verify_json(repo, capsys, *args: str) -> tuple[int, dict]:
    code, out, _ = verify(repo, capsys, *args, "--format", "json")
    return code, json.loads(out)


def codes(document: dict) -> list[tuple[str, str]]:
    return [(f["code"], f["severity"]) for f in document["findings"]]


def append(repo, text: str, message: str = "entry") -> str:
    return repo.commit(message, **{LOG: HISTORY + "\n" + text})


def on_main(repo, message: str, **files: str) -> None:
    """Commit ``files`` on main and rebase the branch onto it: settings are read at
    the base, so a settings change takes effect once main has it."""
    repo.git("checkout", "-q", "main")
    repo.commit(message, **files)
    repo.git("checkout", "-q", "feature")
    repo.git("rebase", "-q", "main")


# --- the headline case: keys added without an entry ------------------------------------
def test_three_new_keys_without_an_entry_fail_with_one_annotation_each(verify_project) -> None:
    added = [key_block("x1-vllm"), key_block("x2-vllm"), key_block("x3-vllm")]
    text = master(*BASE_KEYS, *added)
    verify_project.commit("three keys", **{MASTER: text})
    done = run(verify_project.root, "verify", "--base", "main", "--format", "github")
    assert done.returncode == 1
    annotations = [line for line in done.stdout.splitlines() if line.startswith("::error")]
    lines = [text.split("\n").index(f"{k}:") + 1 for k in ("x1-vllm", "x2-vllm", "x3-vllm")]
    assert annotations == [
        f"::error file={MASTER},line={n},title=uncovered-key::{k} was added but no appended "
        "perf-changelog entry covers it; append one (see the suggested entry) or it will never "
        "be benchmarked"
        for k, n in zip(("x1-vllm", "x2-vllm", "x3-vllm"), lines, strict=True)
    ]
    assert "- config-keys:\n    - x1-vllm\n    - x2-vllm\n    - x3-vllm\n" in done.stdout


def test_the_suggested_entry_appended_as_is_makes_the_branch_pass(verify_project, capsys) -> None:
    verify_project.commit("keys", **{MASTER: master(*BASE_KEYS, key_block("x1-vllm"))})
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and document["ok"] is False
    suggested = document["suggested_entry"]
    # every scenario type of the new key changed: the entry names none (all run)
    assert suggested == (
        '- config-keys:\n    - x1-vllm\n  description:\n    - "Add x1-vllm"\n  pr-link: XXX\n'
    )
    append(verify_project, suggested)
    code, document = verify_json(verify_project, capsys)
    assert (code, codes(document)) == (0, [])
    assert "suggested_entry" not in document


def test_the_json_document_follows_the_contract(verify_project, capsys) -> None:
    head = verify_project.commit(
        "bump", **{MASTER: master(key_block("a-vllm", image="v2"), *BASE_KEYS[1:])}
    )
    code, document = verify_json(verify_project, capsys, "--head", head)
    assert code == 1
    assert set(document) == {
        "ok",
        "base",
        "head",
        "changed",
        "appended",
        "findings",
        "suggested_entry",
        "opt_out",
    }
    assert document["base"] == verify_project.git("rev-parse", "main") and document["head"] == head
    assert document["changed"] == {
        "added": [],
        "modified": {"a-vllm": ["image"]},
        "removed": [],
        "recipes": {},
        "orphan_recipes": [],
        "reduced": [],
    }
    assert document["findings"] == [
        {
            "code": "uncovered-key",
            "severity": "error",
            "path": MASTER,
            "line": 2,
            "key": "a-vllm",
            "message": "a-vllm changed (image) but no appended perf-changelog "
            "entry covers it; append one (see the suggested entry) or it will never be benchmarked",
        }
    ]


# --- what passes ---------------------------------------------------------------------------
def test_reformatting_comments_in_a_master_config_passes(verify_project, capsys) -> None:
    restyled = (
        master(*BASE_KEYS)
        .replace("# NVIDIA configs", "# NVIDIA configs (sorted)")
        .replace("  # pinned", "")
        .replace("conc-list: [4, 8, 16]", "conc-list:\n        - 4\n        - 8\n        - 16")
    )
    verify_project.commit("comments", **{MASTER: restyled})
    code, out, _ = verify(verify_project, capsys)
    assert code == 0
    assert "no master-config key changed" in out and "verify: ok (0 error(s)" in out


def test_uncommitted_edits_are_checked_without_head(verify_project, capsys) -> None:
    verify_project.write(MASTER, master(key_block("a-vllm", image="v3"), *BASE_KEYS[1:]))
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and document["head"] == "WORKTREE"
    verify_project.write(LOG, HISTORY + "\n" + entry(["a-vllm"], text="Bump a"))
    code, document = verify_json(verify_project, capsys)
    assert (code, codes(document)) == (0, [])
    assert document["appended"] == [
        {"config-keys": ["a-vllm"], "description": ["Bump a"], "pr-link": "XXX", "line": 13}
    ]


def test_removed_and_reduced_keys_are_listed_but_need_no_entry(verify_project, capsys) -> None:
    no_agentic = key_block("b-vllm")
    verify_project.commit("drop", **{MASTER: master(BASE_KEYS[0], no_agentic)})
    code, out, _ = verify(verify_project, capsys)
    assert code == 0
    assert "reduced  b-vllm  (scenarios.agentic-coding; no entry needed)" in out
    assert "removed  c-vllm  (no entry needed)" in out


# --- history ---------------------------------------------------------------------------------
def test_an_edited_historical_byte_fails(verify_project, capsys) -> None:
    verify_project.commit("edit", **{LOG: HISTORY.replace("Add a", "Add A")})
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and codes(document) == [("history-modified", "error")]
    assert document["findings"][0]["line"] == 4


def test_pr_link_corrections_warn_alone_and_fail_mixed_with_entries(verify_project, capsys) -> None:
    fixed = HISTORY.replace("pull/2", "pull/22")
    verify_project.commit("fix link", **{LOG: fixed})
    code, document = verify_json(verify_project, capsys)
    assert (code, codes(document)) == (0, [("correction", "warning")])
    verify_project.commit("and an entry", **{LOG: fixed + "\n" + entry(["a-vllm"])})
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and ("mixed-correction", "error") in codes(document)


def test_a_duplicate_entry_is_a_warning_unless_settings_make_it_an_error(
    verify_project, capsys
) -> None:
    append(verify_project, entry(["a-vllm"], "XXX", "Add a"))
    code, document = verify_json(verify_project, capsys)
    assert (code, codes(document)) == (0, [("duplicate-entry", "warning")])
    assert "line 1" in document["findings"][0]["message"]
    on_main(
        verify_project,
        "strict",
        **{".perf-changelog.toml": 'repository = "acme/bench"\nduplicate-entry = "error"\n'},
    )
    code, document = verify_json(verify_project, capsys)
    assert (code, codes(document)) == (1, [("duplicate-entry", "error")])


def test_a_pattern_that_matches_no_key_dangles(verify_project, capsys) -> None:
    append(verify_project, entry(["a-vllm", "zz-*"]))
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and codes(document) == [("dangling-pattern", "error")]
    assert document["findings"][0]["line"] == 15


def test_a_schema_violation_in_an_appended_entry_is_reported_once_at_its_field(
    verify_project, capsys
) -> None:
    append(verify_project, entry(["a-vllm"]) + "  flavour: spicy\n")
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and codes(document) == [("schema", "error")]
    assert document["findings"][0]["line"] == 13
    assert (
        "new entry 1 (line 13), (entry): Additional properties"
        in (document["findings"][0]["message"])
    )


def test_a_scenario_type_that_no_matched_key_has_is_a_mismatch(verify_project, capsys) -> None:
    append(verify_project, entry(["a-vllm"], scenarios="  scenario-type:\n    - agentic-coding\n"))
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and codes(document) == [("scenario-mismatch", "error")]
    assert document["findings"][0]["line"] == 16
    append(
        verify_project, entry(['"*-vllm"'], scenarios="  scenario-type:\n    - agentic-coding\n")
    )
    code, document = verify_json(verify_project, capsys)
    # one *-vllm key has agentic-coding; for the others the entry runs zero points
    zero = [f for f in document["findings"] if "zero points" in f["message"]]
    assert code == 1 and {f["code"] for f in document["findings"]} == {"scenario-mismatch"}
    assert zero and all("has none of the named scenario types" in f["message"] for f in zero)


def test_pr_links_follow_the_repository_and_the_pull_request(verify_project, capsys) -> None:
    append(verify_project, entry(["a-vllm"], "https://github.com/other/repo/pull/5"))
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and codes(document) == [("pr-link", "error")]
    append(verify_project, entry(["a-vllm"], "https://github.com/acme/bench/pull/5"))
    assert verify_json(verify_project, capsys, "--pr-number", "5")[0] == 0
    code, document = verify_json(verify_project, capsys, "--pr-number", "6")
    # another pull request of this repository: a re-land keeps its first link
    assert code == 0 and codes(document) == [("re-land", "warning")]
    append(verify_project, entry(["a-vllm"], "https://github.com/acme/bench/pull/XXX"))
    assert verify_json(verify_project, capsys, "--pr-number", "6")[0] == 0


def test_without_a_setting_the_origin_remote_names_the_repository(verify_project, capsys) -> None:
    on_main(verify_project, "no settings", **{".perf-changelog.toml": ""})
    verify_project.git("remote", "add", "origin", "git@github.com:acme/bench.git")
    append(verify_project, entry(["a-vllm"], "https://github.com/acme/bench/pull/5"))
    assert verify_json(verify_project, capsys)[0] == 0
    append(verify_project, entry(["a-vllm"], "https://github.com/fork/bench/pull/5"))
    code, document = verify_json(verify_project, capsys)
    assert code == 1 and "not this repository (acme/bench)" in document["findings"][0]["message"]


def test_a_placeholder_is_refused_on_the_protected_branch(verify_project, capsys) -> None:
    verify_project.git("checkout", "-q", "main")
    verify_project.commit("straight to main", **{LOG: HISTORY + "\n" + entry(["a-vllm"])})
    assert verify_json(verify_project, capsys, "--head", "HEAD")[0] == 0  # main vs itself: nothing
    code, out, _ = cli(verify_project, capsys, "verify", "--base", "HEAD~1", "--head", "HEAD")
    assert code == 1 and "pr-link: placeholder pr-link 'XXX' is not allowed here" in out
    code, out, _ = cli(verify_project, capsys, "verify", "--base", "HEAD~1")  # work tree on main
    assert code == 1 and "(main is the protected branch" in out


# --- recipes ---------------------------------------------------------------------------------
def test_a_changed_recipe_needs_an_entry_for_its_keys_and_an_orphan_warns(
    verify_project, capsys
) -> None:
    verify_project.commit(
        "recipes",
        **{
            f"{RECIPES}/vllm/c.yaml": "name: c\ntuned: 1\n",
            f"{RECIPES}/vllm/orphan.yaml": "name: o\n",
        },
    )
    code, document = verify_json(verify_project, capsys)
    assert code == 1
    assert codes(document) == [("uncovered-key", "error"), ("orphan-recipe", "warning")]
    assert document["findings"][0]["key"] == "c-vllm"
    assert document["findings"][1]["path"] == f"{RECIPES}/vllm/orphan.yaml"
    assert document["changed"]["recipes"] == {
        f"{RECIPES}/vllm/c.yaml": ["c-vllm"],
        f"{RECIPES}/vllm/orphan.yaml": [],
    }


# --- the opt-out -----------------------------------------------------------------------------
def test_a_commit_trailer_opts_out_with_its_reason(verify_project, capsys) -> None:
    verify_project.commit(
        "Rename runner label\n\nNo-Perf-Change: runner label rename only",
        **{MASTER: master(key_block("a-vllm").replace("b200", "b200-dgxc"), *BASE_KEYS[1:])},
    )
    code, document = verify_json(verify_project, capsys)
    assert code == 0 and codes(document) == [("uncovered-key", "warning")]
    assert (
        "opted out: runner label rename only (No-Perf-Change trailer of commit"
        in document["findings"][0]["message"]
    )
    assert document["opt_out"]["reason"] == "runner label rename only"


def test_a_flag_from_a_pr_label_opts_out_and_shows_in_the_log(verify_project, capsys) -> None:
    verify_project.commit(
        "bump", **{MASTER: master(key_block("a-vllm", image="v2"), *BASE_KEYS[1:])}
    )
    code, out, _ = verify(verify_project, capsys, "--skip-reason", "label no-perf-change: revert")
    assert code == 0
    assert "opt-out: label no-perf-change: revert (--skip-reason)" in out


def test_the_repositorys_skip_sweep_subject_tag_opts_out(verify_project, capsys) -> None:
    verify_project.commit(
        'Revert "bump" [skip-sweep] (#12)',
        **{MASTER: master(key_block("a-vllm", image="v0"), *BASE_KEYS[1:])},
    )
    code, document = verify_json(verify_project, capsys)
    assert code == 0 and document["opt_out"]["source"].startswith("subject tag of commit")


def git_commands(repo, monkeypatch, tmp_path: Path, *args: str) -> tuple[list[str], dict]:
    """The git commands `verify --base main --format json` runs (git's own trace)."""
    trace = tmp_path / "trace"
    # a process of its own: every git it runs is traced, its start-up's included
    env = {"GIT_TRACE": str(trace)}
    done = run_process(repo, "verify", "--base", "main", "--format", "json", *args, env=env)
    ran = [
        line.split("trace: built-in: git ", 1)[1].split()[0]
        for line in trace.read_text().splitlines()
        if "trace: built-in: git " in line
    ]
    return ran, json.loads(done.stdout)


def test_the_commits_are_read_for_an_opt_out_only_when_a_key_is_uncovered(
    verify_project, monkeypatch, tmp_path
) -> None:
    bump = master(key_block("a-vllm", image="v2"), *BASE_KEYS[1:])
    verify_project.commit(
        "bump [skip-sweep]", **{MASTER: bump, LOG: HISTORY + "\n" + entry(["a-vllm"])}
    )
    ran, document = git_commands(verify_project, monkeypatch, tmp_path)
    assert document["ok"] and document["opt_out"] is None
    assert "log" not in ran and "cat-file" in ran
    ran, document = git_commands(verify_project, monkeypatch, tmp_path, "--skip-reason", "a rename")
    assert document["opt_out"] == {"reason": "a rename", "source": "--skip-reason"}
    verify_project.commit(
        "bump b [skip-sweep]",
        **{
            MASTER: master(
                key_block("a-vllm", image="v2"),
                key_block("b-vllm", agentic=True, image="v2"),
                BASE_KEYS[2],
            )
        },
    )
    ran, document = git_commands(verify_project, monkeypatch, tmp_path)
    assert "log" in ran
    assert document["ok"] and document["opt_out"]["source"].startswith("subject tag of commit")


def test_an_opt_out_never_excuses_edited_history(verify_project, capsys) -> None:
    verify_project.commit("edit [skip-sweep]", **{LOG: HISTORY.replace("Add b", "Add B")})
    assert verify_json(verify_project, capsys)[0] == 1


# --- the environment ---------------------------------------------------------------------------
def test_outside_a_git_repository_the_error_says_so(tmp_path) -> None:
    done = run(tmp_path, "verify", "--base", "main")
    assert done.returncode == 2
    assert "is not inside a git repository" in done.stderr


def test_an_unknown_ref_names_the_fetch_to_run(verify_project, capsys) -> None:
    code, _, err = cli(verify_project, capsys, "verify", "--base", "origin/release")
    assert code == 2 and "this clone has no remote named 'origin' yet" in err
    verify_project.git("remote", "add", "origin", "https://github.com/acme/bench.git")
    code, _, err = cli(verify_project, capsys, "verify", "--base", "origin/release")
    assert code == 2 and "run `git fetch origin release:refs/remotes/origin/release`" in err
    code, _, err = cli(verify_project, capsys, "verify", "--base", "main", "--head", "nope")
    assert code == 2 and "unknown ref 'nope'" in err


def test_a_shallow_clone_without_the_merge_base_says_which_fetch_brings_it(
    verify_project, tmp_path
) -> None:
    verify_project.commit("feature work", **{MASTER: master(*BASE_KEYS, key_block("x-vllm"))})
    verify_project.git("checkout", "-q", "main")
    verify_project.commit(
        "main moves",
        **{LOG: HISTORY + "\n" + entry(["a-vllm"], "https://github.com/acme/bench/pull/3")},
    )
    clone = tmp_path / "shallow"
    subprocess.run(
        [
            "git",
            "clone",
            "-q",
            "--depth",
            "1",
            "--branch",
            "feature",
            f"file://{verify_project.root}",
            str(clone),
        ],
        check=True,
        env=os.environ,
    )
    done = run(clone, "verify", "--base", "origin/main")
    assert (
        done.returncode == 2
        and "run `git fetch origin main:refs/remotes/origin/main`" in done.stderr
    )
    subprocess.run(
        ["git", "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main"],
        cwd=clone,
        check=True,
        env=os.environ,
    )
    done = run(clone, "verify", "--base", "origin/main")
    assert done.returncode == 2
    assert "this clone is shallow" in done.stderr and "git fetch --unshallow" in done.stderr


def test_a_changelog_absent_at_base_counts_wholly_as_appended(repo, capsys) -> None:
    repo.commit("configs only", **{MASTER: master(*BASE_KEYS)})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("first changelog", **{LOG: HISTORY})
    code, document = verify_json(repo, capsys)
    assert code == 0
    assert [e["line"] for e in document["appended"]] == [1, 7]


def test_a_changelog_absent_everywhere_is_an_environment_error(repo, capsys) -> None:
    repo.commit("configs only", **{MASTER: master(*BASE_KEYS)})
    code, _, err = cli(repo, capsys, "verify", "--base", "main")
    assert code == 2 and "exists neither at head nor at the base" in err
    assert "`changelog init`" in err and "`changelog add --init`" in err  # what to run


def test_the_gate_never_imports_the_tui() -> None:
    code = (
        "import sys, changelog_tool.cli, changelog_tool.diff.engine, changelog_tool.gate.verdict, "
        "changelog_tool.commands.verify, changelog_tool.commands.keys; "
        "assert 'textual' not in sys.modules, 'textual imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
