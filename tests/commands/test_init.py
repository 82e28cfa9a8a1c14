"""`changelog init [--dry-run]`: adopt the tool in one command; idempotent; verify then
works with no further step (real git, the real CLI)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import ROOT, GitRepo
from projects import AMD, AMD_TEXT, HISTORY, NVIDIA, NVIDIA_TEXT, run

SOURCE = "https://github.com/acme/perf-changelog@v1.2.3"
"""Where the generated workflow and hook take the tool from (``init --source``)."""
CREATED = [".gitattributes", ".github/workflows/perf-changelog.yml", ".pre-commit-config.yaml"]


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".git" not in p.relative_to(root).parts
    }


def test_dry_run_shows_the_exact_files_and_writes_nothing(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, AMD: AMD_TEXT, "perf-changelog.yaml": HISTORY})
    before = snapshot(repo.root)
    done = run(repo, "init", "--source", SOURCE, "--dry-run")
    assert done.returncode == 0, done.stderr
    assert snapshot(repo.root) == before
    assert "would create .github/workflows/perf-changelog.yml" in done.stdout
    assert "the defaults fit: no settings needed" in done.stdout
    assert "    /perf-changelog.yaml merge=perf-changelog" in done.stdout


def test_init_writes_what_is_missing_once_and_verify_then_works(repo: GitRepo) -> None:
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            AMD: AMD_TEXT,
            "perf-changelog.yaml": HISTORY,
            ".pre-commit-config.yaml": "repos:\n  - repo: local\n    hooks: []\n",
        },
    )
    repo.git("checkout", "-q", "-b", "adopt")
    assert run(repo, "init", "--source", SOURCE).returncode == 0
    written = snapshot(repo.root)
    assert set(CREATED) <= set(written) and ".perf-changelog.toml" not in written
    assert written[".pre-commit-config.yaml"].startswith(b"repos:\n  - repo: local\n")
    assert b"id: perf-changelog" in written[".pre-commit-config.yaml"]
    workflow = written[".github/workflows/perf-changelog.yml"]
    assert b"fetch-depth" not in workflow  # the Action deepens the clone itself
    # the opt-out label re-runs the gate when it is added or removed
    assert b"types: [opened, synchronize, reopened, labeled, unlabeled]" in workflow
    again = run(repo, "init", "--source", SOURCE)
    assert again.returncode == 0 and snapshot(repo.root) == written
    assert "created" not in again.stdout and "appended" not in again.stdout
    repo.commit("adopt perf-changelog")
    assert run(repo, "verify", "--base", "main").returncode == 0


def test_settings_are_written_only_where_the_defaults_do_not_fit(repo: GitRepo) -> None:
    repo.commit("base", **{"bench/x-master.yaml": NVIDIA_TEXT, "logs/perf-changelog.yaml": HISTORY})
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    assert repo.read(".perf-changelog.toml") == (
        b'changelog = "logs/perf-changelog.yaml"\nmaster-configs = ["bench/*-master.yaml"]\n'
    )
    assert repo.read(".gitattributes") == b"/logs/perf-changelog.yaml merge=perf-changelog\n"
    assert "commit .perf-changelog.toml to the protected branch first" in done.stdout
    repo.commit("adopt on main: the gate reads settings from the base")
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("a key", **{"bench/x-master.yaml": NVIDIA_TEXT + "\nnew-vllm:\n  image: x\n"})
    keys = run(repo, "keys", "--base", "main", "--format", "json")
    assert keys.returncode == 0, keys.stderr
    assert [k["key"] for k in json.loads(keys.stdout)["keys"]] == ["new-vllm"]
    assert run(repo, "verify", "--base", "main").returncode == 1  # uncovered: the gate works


def test_the_written_workflow_triggers_as_the_readme_shows() -> None:
    """The README's workflow and the one `init` writes run on the same events."""
    from changelog_tool.commands.init_files import workflow_text

    readme = (ROOT / "README.md").read_text()
    shown = readme[readme.index("# .github/workflows/perf-changelog.yml") :]
    triggers = shown[shown.index("on:") : shown.index("jobs:")]
    assert triggers in workflow_text("main", "acme/perf-changelog@v1.2.3")


def test_the_master_configs_named_are_the_ones_the_tool_reads(repo: GitRepo) -> None:
    """`*` stays inside one folder, as in every command: a config under
    `configs/deprecated/` is not read by the defaults, so it is not named either; a
    repository whose only configs sit there gets a setting that reaches them."""
    repo.commit(
        "base",
        **{
            NVIDIA: NVIDIA_TEXT,
            "configs/deprecated/old-master.yaml": AMD_TEXT,
            "perf-changelog.yaml": HISTORY,
        },
    )
    done = run(repo, "init", "--source", SOURCE, "--dry-run", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["master_configs"] == [NVIDIA]


def test_configs_only_one_folder_too_deep_get_a_setting(repo: GitRepo) -> None:
    repo.commit(
        "base",
        **{"configs/deprecated/old-master.yaml": AMD_TEXT, "perf-changelog.yaml": HISTORY},
    )
    done = run(repo, "init", "--source", SOURCE, "--dry-run", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["master_configs"] == ["configs/deprecated/old-master.yaml"]
    [settings] = [s for s in report["steps"] if s["path"] == ".perf-changelog.toml"]
    assert 'master-configs = ["configs/deprecated/*-master.yaml"]' in settings["text"]


def test_init_creates_the_empty_changelog_add_then_appends_to(repo: GitRepo) -> None:
    """No changelog yet: init creates the file `add --init` starts from (empty), so
    `verify` finds it and `add` needs no --init."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT})
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    assert "created perf-changelog.yaml (empty" in done.stdout
    assert repo.read("perf-changelog.yaml") == b""
    verify = run(repo, "verify", "--base", "HEAD")
    assert "exists neither at head nor at the base" not in verify.stderr
    assert verify.returncode != 2, verify.stderr
    repo.commit("adopt perf-changelog")
    repo.git("checkout", "-q", "-b", "feature")
    added = run(repo, "add", "--key", "*", "--description", "adopt", "--no-input")
    assert added.returncode == 0, added.stderr
    assert repo.read("perf-changelog.yaml").startswith(b"- config-keys:\n")
    assert (
        run(repo, "init", "--source", SOURCE).returncode == 0
        and repo.read("perf-changelog.yaml") != b""
    )


def test_a_master_branch_gets_protected_ref_and_the_workflow_runs_on_it(repo: GitRepo) -> None:
    repo.git("branch", "-m", "master")
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    assert repo.read(".perf-changelog.toml") == b'protected-ref = ["origin/master", "master"]\n'
    assert b"  push:\n    branches: [master]\n" in repo.read(".github/workflows/perf-changelog.yml")
    repo.commit("adopt on master: the gate reads settings from the base")
    repo.git("checkout", "-q", "-b", "feature")
    keys = run(repo, "keys")
    assert keys.returncode == 0, keys.stderr
    assert run(repo, "verify", "--base", "master").returncode == 0


def test_a_branch_off_main_keeps_the_defaults(repo: GitRepo) -> None:
    """The protected ref exists: the branch init runs on is not taken for it."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    repo.git("checkout", "-q", "-b", "adopt")
    done = run(repo, "init", "--source", SOURCE, "--dry-run", "--format", "json")
    assert done.returncode == 0, done.stderr
    steps = {s["path"]: s for s in json.loads(done.stdout)["steps"]}
    assert steps[".perf-changelog.toml"]["action"] == "keep"
    assert "branches: [main]" in steps[".github/workflows/perf-changelog.yml"]["text"]


def test_an_existing_settings_file_is_told_what_to_set(repo: GitRepo) -> None:
    repo.git("branch", "-m", "trunk")
    settings = b'placeholders = ["XXX"]\n'
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, ".perf-changelog.toml": settings})
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    assert repo.read(".perf-changelog.toml") == settings
    assert 'set these in it by hand:\n    protected-ref = ["origin/trunk", "trunk"]' in done.stdout
    assert b"branches: [trunk]" in repo.read(".github/workflows/perf-changelog.yml")


def test_a_missing_protected_ref_without_a_remote_suggests_no_fetch(repo: GitRepo) -> None:
    repo.git("branch", "-m", "master")
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    done = run(repo, "keys")
    assert done.returncode == 2
    assert "git fetch" not in done.stderr and "no remote" in done.stderr
    assert "--base REF" in done.stderr and "`protected-ref`" in done.stderr
    repo.git("remote", "add", "origin", str(repo.root))
    done = run(repo, "keys")
    assert done.returncode == 2
    assert "run `git fetch origin main:refs/remotes/origin/main`" in done.stderr


def test_help_names_every_command_in_a_whole_sentence(tmp_path: Path) -> None:
    done = run(tmp_path, "--help", env={"COLUMNS": "200"})
    assert done.returncode == 0, done.stderr
    [line] = [x for x in done.stdout.splitlines() if x.strip().startswith("finalize ")]
    assert line.endswith("before merge: point the branch's placeholder pr-links at PR N")


def test_the_workflow_and_hook_name_the_source_given_and_nothing_made_up(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    assert run(repo, "init", "--source", SOURCE).returncode == 0
    assert b"      - uses: acme/perf-changelog@v1.2.3\n" in repo.read(
        ".github/workflows/perf-changelog.yml"
    )
    hook = repo.read(".pre-commit-config.yaml")
    assert b'repo: "https://github.com/acme/perf-changelog"\n    rev: v1.2.3\n' in hook


def test_without_a_known_source_init_says_what_to_fill_in_and_invents_nothing(
    repo: GitRepo,
) -> None:
    """This checkout's tool is installed from a folder: no URL is known, so the two
    files that would need one are not written, and the message says how."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    done = run(repo, "init")
    assert done.returncode == 0, done.stderr
    assert not (repo.root / ".github").exists()
    assert not (repo.root / ".pre-commit-config.yaml").exists()
    assert "changelog init --source URL@REF" in done.stdout
    assert "github.com/perf-changelog" not in done.stdout


def test_a_bad_source_is_a_usage_error(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    done = run(repo, "init", "--source", "git@github.com:acme/perf-changelog.git")
    assert done.returncode == 2 and "URL@REF" in done.stderr


def test_the_install_record_gives_the_git_url_and_commit() -> None:
    from changelog_tool.commands.init_files import from_install_record

    commit = "0123456789abcdef0123456789abcdef01234567"
    record = json.dumps(
        {
            "url": "https://github.com/acme/perf-changelog.git",
            "vcs_info": {"vcs": "git", "commit_id": commit},
        }
    )
    source = from_install_record(record)
    assert source is not None and source.action == f"acme/perf-changelog@{commit}"
    assert source.url == "https://github.com/acme/perf-changelog.git" and source.ref == commit
    folder = json.dumps({"url": "file:///src/perf-changelog", "dir_info": {"editable": True}})
    assert from_install_record(folder) is None
    other = json.dumps(
        {"url": "https://git.example.org/perf.git", "vcs_info": {"vcs": "git", "commit_id": commit}}
    )
    assert (elsewhere := from_install_record(other)) is not None and elsewhere.action is None


@pytest.mark.parametrize(
    "link",
    [".gitattributes", ".github", "perf-changelog.yaml"],
    ids=["attributes", "github", "changelog"],
)
def test_a_tracked_link_out_of_the_repository_is_refused_before_anything_is_written(
    repo: GitRepo, tmp_path: Path, link: str
) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    files = {NVIDIA: NVIDIA_TEXT}
    if link != "perf-changelog.yaml":
        files["perf-changelog.yaml"] = HISTORY
    repo.commit("base", **files)
    target = outside / ("missing.yaml" if link == "perf-changelog.yaml" else link.strip("."))
    if link == ".github":
        target.mkdir()
    elif link == ".gitattributes":
        target.write_text("* text=auto\n")
    (repo.root / link).symlink_to(target)  # dangling for the changelog
    repo.git("add", link)
    repo.git("commit", "-q", "-m", "a link")
    before, outside_before = snapshot(repo.root), snapshot(outside)
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 2, done.stdout
    assert "is a symbolic link" in done.stderr  # (the master-config walk may see it first)
    assert snapshot(repo.root) == before and snapshot(outside) == outside_before


@pytest.mark.parametrize("command", ["init", "install"])
def test_outside_a_repository_it_says_so_in_one_line(tmp_path: Path, command: str) -> None:
    done = run(tmp_path, command)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "is not inside a git repository" in done.stderr


def test_a_clone_whose_remote_is_upstream_gets_that_remote_in_protected_ref(
    repo: GitRepo, tmp_path: Path
) -> None:
    """The clone's one remote is ``upstream`` (``git clone -o upstream``) and init runs on
    a feature branch: the protected branch is the one ``upstream/HEAD`` names, and the
    setting names it on ``upstream``, the remote this clone has."""
    repo.git("branch", "-m", "trunk")
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY})
    clone = GitRepo(tmp_path / "clone")
    repo.git("clone", "-q", "-o", "upstream", str(repo.root), str(clone.root))
    clone.git("checkout", "-q", "-b", "adopt")
    done = run(clone, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    assert clone.read(".perf-changelog.toml") == b'protected-ref = ["upstream/trunk", "trunk"]\n'
    assert b"branches: [trunk]" in clone.read(".github/workflows/perf-changelog.yml")
