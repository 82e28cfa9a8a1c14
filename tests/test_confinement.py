"""A link in the work tree that leads outside the repository (or into its git
directory) is refused before anything is read or written through it: the changelog
``add`` appends to and ``log`` reads, the settings file, the attribute file
``install`` edits. A link inside the repository is followed."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GitRepo
from projects import run as tool

LOG = "perf-changelog.yaml"
ENTRY = (
    '- config-keys:\n    - a-vllm\n  description:\n    - "First"\n'
    "  pr-link: https://github.com/acme/bench/pull/1\n"
)
MASTER = "a-vllm:\n  image: v1\n  model: m\n"


@pytest.fixture
def linked_project(repo: GitRepo) -> GitRepo:
    repo.commit("base", **{"configs/x-master.yaml": MASTER, LOG: ENTRY})
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def _link(repo: GitRepo, name: str, target: Path) -> None:
    (repo.root / name).unlink(missing_ok=True)
    (repo.root / name).symlink_to(target)


@pytest.mark.parametrize("where", ["outside", "git directory"])
def test_add_and_log_refuse_a_changelog_linked_out_of_the_checkout(
    linked_project: GitRepo, tmp_path: Path, where: str
) -> None:
    target = (
        tmp_path / "elsewhere.yaml"
        if where == "outside"
        else linked_project.root / ".git" / "x.yaml"
    )
    target.write_text(ENTRY)
    _link(linked_project, LOG, target)
    added = tool(linked_project.root, "add", "--key", "a-vllm", "--description", "More")
    assert added.returncode == 2 and "symbolic link that leads" in added.stderr
    assert target.read_text() == ENTRY  # nothing written through the link
    logged = tool(linked_project.root, "log", "a-vllm")
    assert logged.returncode == 2 and "symbolic link that leads" in logged.stderr


def test_a_changelog_linked_inside_the_repository_is_appended_to(linked_project: GitRepo) -> None:
    (linked_project.root / "real.yaml").write_text(ENTRY)
    _link(linked_project, LOG, linked_project.root / "real.yaml")
    added = tool(linked_project.root, "add", "--key", "a-vllm", "--description", "More")
    assert added.returncode == 0, added.stderr
    assert (
        (linked_project.root / "real.yaml").read_text().endswith('    - "More"\n  pr-link: XXX\n')
    )


def test_a_settings_file_linked_out_of_the_checkout_is_not_read(
    linked_project: GitRepo, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text("not = toml = at all\n")
    _link(linked_project, ".perf-changelog.toml", secret)
    done = tool(linked_project.root, "keys")
    assert done.returncode == 2 and "symbolic link that leads outside" in done.stderr
    assert "not = toml" not in done.stderr  # nothing of the file is echoed


def test_install_writes_through_no_link_and_touches_nothing_when_it_refuses(
    linked_project: GitRepo, tmp_path: Path
) -> None:
    secret = tmp_path / "secret.txt"
    secret.write_text("secret\n")
    _link(linked_project, ".gitattributes", secret)
    done = tool(linked_project.root, "install")
    assert done.returncode == 2 and "symbolic link that leads outside" in done.stderr
    assert secret.read_text() == "secret\n"
    assert not (linked_project.root / ".git" / "info" / "attributes").exists()


def test_install_refuses_an_attribute_file_that_is_not_utf8_before_writing_any(
    linked_project: GitRepo,
) -> None:
    (linked_project.root / ".gitattributes").write_bytes(b"\xff\xfe bad\n")
    done = tool(linked_project.root, "install")
    assert done.returncode == 2 and "not UTF-8" in done.stderr
    assert "internal error" not in done.stderr
    assert (linked_project.root / ".gitattributes").read_bytes() == b"\xff\xfe bad\n"
    info = linked_project.root / ".git" / "info" / "attributes"
    assert not info.exists() or "perf-changelog" not in info.read_text()


def test_verify_refuses_a_changelog_that_is_a_link_git_would_store_as_a_path(
    linked_project: GitRepo,
) -> None:
    """git commits a link as the path it points to: comparing that with the file the
    link reaches read as history edited; the gate says what is wrong instead."""
    (linked_project.root / "real.yaml").write_text(ENTRY)
    _link(linked_project, LOG, linked_project.root / "real.yaml")
    linked_project.git("add", "-A")
    linked_project.git("commit", "-qm", "link")
    done = tool(linked_project.root, "verify", "--base", "HEAD")
    assert done.returncode == 2 and "is a symbolic link: git stores a link" in done.stderr
    assert "history-modified" not in done.stdout
