"""`verify --base` takes its settings from the base commit, never from the branch it
judges, and every configured path stays inside the repository (docs/security.md)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, codes, make_project, run, verify

from changelog_tool.settings import DEFAULT_MAX_BYTES as MAX_BYTES
from changelog_tool.settings import MAX_SETTINGS_BYTES

EDITED = HISTORY.replace('"Add a"', '"Add A"')


def severities(document: dict) -> dict[str, str]:
    return {f["code"]: f["severity"] for f in document["findings"]}


def test_a_branch_cannot_point_the_changelog_setting_at_a_decoy(repo) -> None:
    project = make_project(repo)
    project.commit(
        "rewrite history, and hide it behind a decoy changelog",
        **{
            LOG: EDITED,
            "decoy.yaml": HISTORY,
            ".perf-changelog.toml": 'repository = "acme/bench"\nchangelog = "decoy.yaml"\n',
        },
    )
    code, document = verify(project)
    assert code == 1
    assert "history-modified" in codes(document)
    changed = [f for f in document["findings"] if f["code"] == "settings-changed"]
    assert len(changed) == 1 and changed[0]["severity"] == "error"
    assert changed[0]["path"] == ".perf-changelog.toml"
    assert "the base's settings were used" in changed[0]["message"]
    assert "--allow-settings-change" in changed[0]["message"]


def test_allowing_a_settings_change_makes_it_a_warning_but_the_base_still_rules(repo) -> None:
    project = make_project(repo)
    project.commit(
        "decoy",
        **{
            LOG: EDITED,
            "decoy.yaml": HISTORY,
            ".perf-changelog.toml": 'repository = "acme/bench"\nchangelog = "decoy.yaml"\n',
        },
    )
    code, document = verify(project, "--allow-settings-change")
    assert code == 1
    assert severities(document) == {"settings-changed": "warning", "history-modified": "error"}


def test_settings_added_to_pyproject_in_the_branch_are_not_used(repo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY, "pyproject.toml": "[project]\n"})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "settings in pyproject",
        **{
            LOG: EDITED,
            "decoy.yaml": HISTORY,
            "pyproject.toml": '[project]\n\n[tool.perf-changelog]\nchangelog = "decoy.yaml"\n',
        },
    )
    code, document = verify(repo)
    assert code == 1
    assert [(f["code"], f["path"]) for f in document["findings"]] == [
        ("settings-changed", "pyproject.toml"),
        ("history-modified", LOG),
    ]


def test_invalid_settings_in_the_branch_are_a_finding_not_a_crash(repo) -> None:
    project = make_project(repo)
    project.commit("bad settings", **{".perf-changelog.toml": "changelog = [\n"})
    code, document = verify(project)
    assert code == 1 and codes(document) == ["settings-changed"]
    assert "they are refused: cannot read settings in" in document["findings"][0]["message"]


def test_a_pyproject_change_outside_the_table_is_not_a_settings_change(repo) -> None:
    table = '[tool.perf-changelog]\nrepository = "acme/bench"\n'
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            LOG: HISTORY,
            "pyproject.toml": '[project]\nversion = "1"\n' + table,
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("bump", **{"pyproject.toml": '[project]\nversion = "2"\n\n# note\n' + table})
    code, document = verify(repo)
    assert (code, codes(document)) == (0, [])


def test_the_settings_of_a_head_commit_are_compared_too(repo) -> None:
    project = make_project(repo)
    head = project.commit("settings", **{".perf-changelog.toml": 'repository = "other/repo"\n'})
    project.git("checkout", "-q", "main")
    code, document = verify(project, "--head", head)
    assert code == 1 and codes(document) == ["settings-changed"]


def test_a_changelog_setting_that_leaves_the_repository_is_refused(repo, tmp_path) -> None:
    outside = tmp_path / "outside.yaml"
    outside.write_text(HISTORY)
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            LOG: HISTORY,
            ".perf-changelog.toml": 'changelog = "../outside.yaml"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    done = run(repo, "verify", "--base", "main", "--format", "json")
    assert done.returncode == 2, done.stdout
    assert "'../outside.yaml' leads outside the repository" in done.stderr


def test_a_changelog_symlinked_out_of_the_repository_is_refused(repo, tmp_path) -> None:
    project = make_project(repo)
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(HISTORY)
    (project.root / LOG).unlink()
    os.symlink(outside, project.root / LOG)
    done = run(project, "verify", "--base", "main")
    assert done.returncode == 2, done.stdout + done.stderr
    assert f"'{LOG}' is a symbolic link that leads outside the repository" in done.stderr


def test_a_master_config_symlinked_out_of_the_repository_is_not_read(repo, tmp_path) -> None:
    project = make_project(repo)
    secret = tmp_path / "secret.yaml"
    secret.write_text("token-7d1e9: [unclosed\n")
    os.symlink(secret, project.root / "configs" / "zz-master.yaml")
    done = run(project, "verify", "--base", "main", "--format", "github")
    assert done.returncode == 2
    assert "token-7d1e9" not in done.stdout + done.stderr
    assert "'configs/zz-master.yaml' is a symbolic link that leads outside" in done.stderr


def test_a_master_config_symlinked_into_the_git_directory_is_not_read(repo) -> None:
    project = make_project(repo)
    project.git("config", "http.extraheader", "AUTHORIZATION: basic c2VjcmV0")
    os.symlink(Path("..") / ".git" / "config", project.root / "configs" / "zz-master.yaml")
    done = run(project, "verify", "--base", "main", "--format", "github")
    assert done.returncode == 2
    assert "c2VjcmV0" not in done.stdout + done.stderr
    assert "into the git directory" in done.stderr


def test_a_folder_link_loop_does_not_trap_a_double_star_glob(repo) -> None:
    settings = 'repository = "acme/bench"\nmaster-configs = ["**/*-master.yaml"]\n'
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY, ".perf-changelog.toml": settings})
    repo.git("checkout", "-q", "-b", "feature")
    os.symlink("..", repo.root / "configs" / "loop")
    code, document = verify(repo)
    assert (code, codes(document)) == (0, [])


def test_changelog_log_does_not_read_a_master_config_linked_out_of_the_repository(
    repo, tmp_path
) -> None:
    project = make_project(repo)
    secret = tmp_path / "secret.yaml"
    secret.write_text("token-5c2f0:\n  image: x\n")
    os.symlink(secret, project.root / "configs" / "zz-master.yaml")
    done = run(project, "log", "a-vllm")
    assert done.returncode == 2
    assert "'configs/zz-master.yaml' is a symbolic link that leads outside" in done.stderr


def test_a_huge_master_config_in_the_work_tree_is_refused_before_it_is_read(repo) -> None:
    project = make_project(repo)
    with open(project.root / "configs" / "zz-master.yaml", "wb") as huge:
        huge.truncate(MAX_BYTES + 1)  # sparse: costs no disk, and must cost no memory
    done = run(project, "verify", "--base", "main")
    assert done.returncode == 2
    assert f"over the {MAX_BYTES}-byte limit" in done.stderr


def test_a_huge_settings_file_in_the_branch_is_refused_before_it_is_read(repo) -> None:
    project = make_project(repo)
    project.commit("padding", **{".perf-changelog.toml": "#" * MAX_SETTINGS_BYTES + "\n"})
    done = run(project, "verify", "--base", "main")
    assert done.returncode == 2
    assert f"over the {MAX_SETTINGS_BYTES}-byte limit" in done.stderr


def test_settings_a_branch_adds_in_a_subfolder_do_not_move_the_settings_root(repo) -> None:
    project = make_project(repo)
    project.commit("bench folder", **{"bench/README": "benchmarks\n"})
    project.commit(
        "settings in the folder the gate runs from",
        **{
            LOG: EDITED,
            "bench/decoy.yaml": HISTORY,
            "bench/.perf-changelog.toml": 'changelog = "decoy.yaml"\n',
        },
    )
    done = run(project.root / "bench", "verify", "--base", "main", "--format", "json")
    assert done.returncode == 1, done.stderr
    document = json.loads(done.stdout)
    assert [(f["code"], f["path"]) for f in document["findings"]] == [
        ("settings-changed", "bench/.perf-changelog.toml"),
        ("history-modified", LOG),
    ]
