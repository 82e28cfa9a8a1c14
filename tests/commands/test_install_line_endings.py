"""`changelog install` keeps an attribute file's own line endings: the other lines
byte for byte, the added line ending as they do, and `--uninstall` gives the file
back as it was."""

from __future__ import annotations

import pytest
from conftest import GitRepo, uses_the_tool
from projects import run as tool

LOG = "perf-changelog.yaml"
LINE = b"/perf-changelog.yaml merge=perf-changelog"


@pytest.fixture
def repo(repo: GitRepo) -> GitRepo:
    return uses_the_tool(repo)


@pytest.mark.parametrize("ending", [b"\r\n", b"\n"])
def test_install_and_uninstall_keep_the_files_line_endings(repo: GitRepo, ending: bytes) -> None:
    original = b"*.png binary" + ending + b"*.jpg binary" + ending
    repo.write(".gitattributes", original)
    assert tool(repo.root, "install").returncode == 0
    assert repo.read(".gitattributes") == original + LINE + ending
    assert repo.git("check-attr", "merge", "--", LOG) == f"{LOG}: merge: perf-changelog"
    again = tool(repo.root, "install")
    assert again.returncode == 0 and "already has" in again.stdout
    assert repo.read(".gitattributes") == original + LINE + ending
    assert tool(repo.root, "install", "--uninstall").returncode == 0
    assert repo.read(".gitattributes") == original


def test_a_last_line_without_its_ending_gets_the_files_ending_first(repo: GitRepo) -> None:
    repo.write(".gitattributes", b"*.png binary\r\n*.jpg binary")
    assert tool(repo.root, "install").returncode == 0
    assert repo.read(".gitattributes") == b"*.png binary\r\n*.jpg binary\r\n" + LINE + b"\r\n"
    assert tool(repo.root, "install", "--uninstall").returncode == 0
    assert repo.read(".gitattributes") == b"*.png binary\r\n*.jpg binary\r\n"


def test_an_older_driver_line_is_replaced_and_the_rest_kept_byte_for_byte(repo: GitRepo) -> None:
    repo.write(
        ".gitattributes",
        b"*.png binary\r\nsub/perf-changelog.yaml merge=perf-changelog\r\n# note \r\n",
    )
    assert tool(repo.root, "install").returncode == 0
    assert repo.read(".gitattributes") == b"*.png binary\r\n# note \r\n" + LINE + b"\r\n"
