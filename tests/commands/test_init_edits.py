"""`changelog init` never leaves a file reading otherwise than it did, plus what it
adds: each file it writes or appends to is read back (YAML as pre-commit reads it,
TOML with tomllib, attributes as `install` reads them); when an edit cannot be made
safely, nothing is written to that file and the output says what to add by hand."""

from __future__ import annotations

import pytest
import yaml
from conftest import GitRepo
from projects import HISTORY, NVIDIA, NVIDIA_TEXT, run

from changelog_tool import settings

SOURCE = "https://github.com/acme/perf-changelog@v1.2.3"
CONFIG = ".pre-commit-config.yaml"
OURS = {
    "repo": "https://github.com/acme/perf-changelog",
    "rev": "v1.2.3",
    "hooks": [{"id": "perf-changelog"}],
}
BY_HAND = (
    '  - repo: "https://github.com/acme/perf-changelog"\n    rev: v1.2.3\n'
    "    hooks:\n      - id: perf-changelog\n"
)
"""The item the output tells the user to add, exactly."""
TYPES = {"default_install_hook_types": ["pre-commit", "pre-push"]}
"""What makes a plain `pre-commit install` install the push hook the coverage check uses."""


def init(repo: GitRepo, config: bytes | None = None, **files: str) -> tuple[str, bytes | None]:
    extra = {CONFIG: config.decode()} if config is not None else {}
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY, **extra, **files})
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    path = repo.root / CONFIG
    return done.stdout, path.read_bytes() if path.exists() else None


@pytest.mark.parametrize(
    "config",
    [
        b"repos: []\n",
        b"repos: [{repo: local, hooks: []}]\n",
        b"repos:\n  - repo: local\n    hooks: []\nci:\n  autofix: false\n",
        b"repos:\n  - repo: local\n    hooks: [\n",
        b"- not a mapping\n",
    ],
    ids=["an empty flow list", "a flow list", "another key after", "no YAML", "a list"],
)
def test_a_file_init_cannot_append_to_safely_is_left_and_the_item_named(
    repo: GitRepo, config: bytes
) -> None:
    said, after = init(repo, config)
    assert after == config
    assert "nothing written" in said and "by hand" in said
    assert BY_HAND in said


def test_a_list_at_the_margin_gets_the_item_at_the_margin(repo: GitRepo) -> None:
    """An item indented as init's default would join the last repo's hooks here."""
    config = b"repos:\n- repo: local\n  hooks:\n  - id: mine\n    name: mine\n"
    _, after = init(repo, config)
    assert after is not None and after.startswith(config)
    assert yaml.safe_load(after) == {
        "repos": [{"repo": "local", "hooks": [{"id": "mine", "name": "mine"}]}, OURS],
        **TYPES,
    }


def test_a_comment_naming_the_hook_is_not_the_hook(repo: GitRepo) -> None:
    config = b"# to add: id: perf-changelog\nrepos:\n  - repo: local\n    hooks: []\n"
    _, after = init(repo, config)
    assert after is not None
    assert yaml.safe_load(after)["repos"][-1] == OURS


def test_a_crlf_file_gets_crlf_lines_and_reads_back(repo: GitRepo) -> None:
    config = b"repos:\r\n  - repo: local\r\n    hooks: []\r\n"
    _, after = init(repo, config, **{".gitattributes": "*.png binary\r\n"})
    assert after is not None and b"\n" not in after.replace(b"\r\n", b"")
    assert yaml.safe_load(after)["repos"][-1] == OURS
    assert repo.read(".gitattributes") == (
        b"*.png binary\r\n/perf-changelog.yaml merge=perf-changelog\r\n"
    )


def test_a_file_without_repos_gets_the_key(repo: GitRepo) -> None:
    config = b"default_stages: [pre-commit]\n"
    _, after = init(repo, config)
    assert after is not None and after.startswith(config)
    assert yaml.safe_load(after) == {"default_stages": ["pre-commit"], "repos": [OURS], **TYPES}


def test_a_new_file_installs_the_push_hook_with_a_plain_pre_commit_install(
    repo: GitRepo,
) -> None:
    _, after = init(repo)
    assert after is not None
    assert yaml.safe_load(after) == {"repos": [OURS], **TYPES}


def test_the_files_own_hook_types_are_kept(repo: GitRepo) -> None:
    config = b"default_install_hook_types: [pre-commit]\nrepos:\n  - repo: local\n    hooks: []\n"
    _, after = init(repo, config)
    assert after is not None and after.startswith(config)
    assert yaml.safe_load(after) == {
        "default_install_hook_types": ["pre-commit"],
        "repos": [{"repo": "local", "hooks": []}, OURS],
    }


def test_a_file_with_the_hook_gets_only_the_hook_types_then_is_kept(repo: GitRepo) -> None:
    config = b"repos:\n  - repo: local\n    hooks:\n      - id: perf-changelog\n"
    _, after = init(repo, config)
    assert after == config + b"default_install_hook_types: [pre-commit, pre-push]\n"
    assert (
        yaml.safe_load(after)["default_install_hook_types"] == TYPES["default_install_hook_types"]
    )
    again = run(repo, "init", "--source", SOURCE)
    assert again.returncode == 0 and repo.read(CONFIG) == after


def test_the_settings_init_writes_read_back_whatever_the_path(repo: GitRepo) -> None:
    """A changelog path with a quote and a backslash: quoted as TOML wants."""
    path = 'docs/a"b\\c/perf-changelog.yaml'
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, path: HISTORY})
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    assert settings.load(repo.root).changelog == path


def test_settings_in_pyproject_are_not_overridden_by_a_new_dotfile(repo: GitRepo) -> None:
    repo.git("branch", "-m", "master")
    pyproject = '[tool.perf-changelog]\nrepository = "acme/bench"\n'
    repo.commit(
        "base",
        **{NVIDIA: NVIDIA_TEXT, "perf-changelog.yaml": HISTORY, "pyproject.toml": pyproject},
    )
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    assert not (repo.root / ".perf-changelog.toml").exists()
    assert settings.load(repo.root).repository == "acme/bench"
    assert (
        'set these there by hand:\n    protected-ref = ["origin/master", "master"]' in done.stdout
    )
