"""`changelog install [--uninstall | --check]`: the attribute in info/attributes and
.gitattributes and the local git config, idempotent and explained; the driver runs
inside git without an activated venv, from the very first rebase, in every worktree."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GitRepo, uses_the_tool
from hostile_inputs import hostile_modules
from merge_helpers import appended, changelog, entry
from projects import run as tool

from changelog_tool.merge.setup import driver_command

LOG = "perf-changelog.yaml"
LINE = "/perf-changelog.yaml merge=perf-changelog"


@pytest.fixture
def repo(repo: GitRepo) -> GitRepo:
    return uses_the_tool(repo)


def test_install_adds_the_attribute_line_and_the_local_driver_config(repo: GitRepo) -> None:
    result = tool(repo.root, "install")
    assert result.returncode == 0, result.stderr
    assert (repo.root / ".gitattributes").read_text() == LINE + "\n"
    driver = repo.git("config", "--local", "--get", "merge.perf-changelog.driver")
    assert driver == driver_command()
    assert (
        driver
        == 'sh "$(git rev-parse --git-common-dir)/perf-changelog/merge-driver.sh" %O %A %B %P'
    )
    script = (repo.root / ".git" / "perf-changelog" / "merge-driver.sh").read_text()
    assert f"python={sys.executable}\n" in script
    assert '"$python" -I -m changelog_tool merge-driver --conflict-exit 3 ' in script
    assert repo.git("config", "--local", "--get", "merge.perf-changelog.name")
    assert repo.git("check-attr", "merge", "--", LOG) == f"{LOG}: merge: perf-changelog"
    assert "each" in result.stdout.lower() or "every other clone" in result.stdout


def test_installing_twice_changes_nothing_and_says_so(repo: GitRepo) -> None:
    tool(repo.root, "install")
    config = (repo.root / ".git" / "config").read_bytes()
    again = tool(repo.root, "install")
    assert again.returncode == 0
    assert (repo.root / ".gitattributes").read_text() == LINE + "\n"
    assert (repo.root / ".git" / "config").read_bytes() == config
    assert again.stdout.count("already") == 5  # two attribute files, the script, two configs
    assert "merge-driver.sh: already up to date" in again.stdout


def test_install_keeps_other_attributes_and_uninstall_removes_only_its_own(
    repo: GitRepo,
) -> None:
    repo.write(".gitattributes", "*.png binary\n")
    tool(repo.root, "install")
    assert (repo.root / ".gitattributes").read_text() == f"*.png binary\n{LINE}\n"
    result = tool(repo.root, "install", "--uninstall")
    assert result.returncode == 0
    assert (repo.root / ".gitattributes").read_text() == "*.png binary\n"
    assert repo.git("config", "--local", "--get-regexp", "merge", check=False) == ""


def test_uninstall_deletes_a_gitattributes_that_held_only_its_line_and_is_idempotent(
    repo: GitRepo,
) -> None:
    tool(repo.root, "install")
    tool(repo.root, "install", "--uninstall")
    assert not (repo.root / ".gitattributes").exists()
    again = tool(repo.root, "install", "--uninstall")
    assert again.returncode == 0 and "was not set" in again.stdout


def test_install_reports_as_json(repo: GitRepo) -> None:
    document = json.loads(tool(repo.root, "install", "--format", "json").stdout)
    assert document["installed"] is True
    assert [s["what"].rsplit("/", 1)[-1] for s in document["steps"]] == [
        "attributes",
        ".gitattributes",
        "merge-driver.sh",
        "git config merge.perf-changelog.name",
        "git config merge.perf-changelog.driver",
    ]


def test_install_outside_a_repository_exits_2(tmp_path: Path) -> None:
    result = tool(tmp_path, "install")
    assert result.returncode == 2 and "git" in result.stderr


def test_the_installed_driver_runs_in_git_without_the_venv_on_path(repo: GitRepo) -> None:
    base = changelog(entry("a", link=1), entry("b", link=2))
    repo.commit("base", **{LOG: base})
    tool(repo.root, "install")
    repo.commit("attributes")
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own", **{LOG: appended(base, entry("own"))})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: appended(base, entry("main", link=3))})
    repo.git("checkout", "-q", "feature")
    env = {**os.environ, "PATH": "/usr/bin:/bin", "VIRTUAL_ENV": ""}
    result = subprocess.run(
        ["git", "rebase", "main"],
        cwd=repo.root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "changelog merge-driver" in result.stderr
    assert repo.read(LOG) == appended(base, entry("main", link=3), entry("own"))


def branch_and_main_append(repo: GitRepo, path: str = LOG) -> bytes:
    """main and a checked-out branch feature each appended one entry since base."""
    base = changelog(entry("a", link=1), entry("b", link=2))
    repo.commit("base", **{path: base})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own", **{path: appended(base, entry("own"))})
    repo.git("checkout", "-q", "main")
    main = appended(base, entry("main", link=3))
    repo.commit("main", **{path: main})
    repo.git("checkout", "-q", "feature")
    return appended(main, entry("own"))


def test_the_first_rebase_uses_the_driver_with_no_gitattributes_committed(
    repo: GitRepo,
) -> None:
    expected = branch_and_main_append(repo)
    assert tool(repo.root, "install").returncode == 0
    (repo.root / ".gitattributes").unlink()  # nothing shared yet: info/attributes does it
    done = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert repo.read(LOG) == expected


def test_every_worktree_of_the_clone_gets_the_driver(repo: GitRepo, tmp_path: Path) -> None:
    expected = branch_and_main_append(repo)
    repo.git("checkout", "-q", "main")
    assert tool(repo.root, "install").returncode == 0
    (repo.root / ".gitattributes").unlink()
    other = tmp_path / "other-worktree"
    repo.git("worktree", "add", "-q", str(other), "feature")
    done = subprocess.run(
        ["git", "rebase", "main"], cwd=other, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert (other / LOG).read_bytes() == expected


def test_a_changelog_path_with_a_space_is_quoted_and_checked_with_git(repo: GitRepo) -> None:
    path = "my logs/perf changelog.yaml"
    repo.write(".perf-changelog.toml", f'changelog = "{path}"\n')
    expected = branch_and_main_append(repo, path)
    result = tool(repo.root, "install")
    assert result.returncode == 0, result.stderr
    line = '"/my logs/perf changelog.yaml" merge=perf-changelog'
    assert (repo.root / ".gitattributes").read_text() == line + "\n"
    assert repo.git("check-attr", "merge", "--", path).endswith("merge: perf-changelog")
    done = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert repo.read(path) == expected


def test_check_reports_a_ready_driver_and_names_a_moved_interpreter(repo: GitRepo) -> None:
    assert tool(repo.root, "install", "--check").returncode == 1  # nothing set up yet
    tool(repo.root, "install")
    ready = tool(repo.root, "install", "--check", "--format", "json")
    assert ready.returncode == 0 and json.loads(ready.stdout)["ok"] is True
    gone = "/nonexistent/venv/bin/python3 -m changelog_tool merge-driver %O %A %B %P"
    repo.git("config", "--local", "merge.perf-changelog.driver", gone)
    broken = tool(repo.root, "install", "--check")
    assert broken.returncode == 1
    assert "/nonexistent/venv/bin/python3" in broken.stdout and "moved or deleted" in broken.stdout
    assert "run `changelog install`" in broken.stdout


def test_a_gitattributes_that_is_a_directory_is_refused_with_a_message(repo: GitRepo) -> None:
    (repo.root / ".gitattributes").mkdir()
    result = tool(repo.root, "install")
    assert result.returncode == 2 and "is a directory, not a file" in result.stderr
    assert "Traceback" not in result.stderr


def test_the_driver_never_imports_the_work_trees_modules(repo: GitRepo, tmp_path: Path) -> None:
    """Git runs the driver from the top of the work tree: a branch's own
    ``changelog_tool/`` or ``json.py`` must not run inside everyone's rebase."""
    marks = tmp_path / "marks"
    marks.mkdir()
    base = changelog(entry("a", link=1), entry("b", link=2))
    repo.commit("base", **{LOG: base, **hostile_modules(marks)})
    assert tool(repo.root, "install").returncode == 0
    script = repo.root / ".git" / "perf-changelog" / "merge-driver.sh"
    assert " -I -m changelog_tool merge-driver " in script.read_text()
    repo.commit("attributes")
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own", **{LOG: appended(base, entry("own"))})
    repo.git("checkout", "-q", "main")
    repo.commit("main", **{LOG: appended(base, entry("main", link=3))})
    repo.git("checkout", "-q", "feature")
    done = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert repo.read(LOG) == appended(base, entry("main", link=3), entry("own"))
    checked = tool(repo.root, "install", "--check", "--format", "json")
    assert checked.returncode == 0, checked.stdout
    assert all(step["ok"] is True for step in json.loads(checked.stdout)["steps"])
    assert sorted(p.name for p in marks.iterdir()) == []


def test_check_reports_a_driver_that_is_not_isolated_without_running_the_work_tree(
    repo: GitRepo, tmp_path: Path
) -> None:
    marks = tmp_path / "marks"
    marks.mkdir()
    repo.commit("base", **{LOG: changelog(entry("a", link=1)), **hostile_modules(marks)})
    tool(repo.root, "install")
    old = f"{sys.executable} -m changelog_tool merge-driver %O %A %B %P"  # before -I
    repo.git("config", "--local", "merge.perf-changelog.driver", old)
    checked = tool(repo.root, "install", "--check")
    assert checked.returncode == 1
    assert "not isolated" in checked.stdout and "run `changelog install`" in checked.stdout
    assert list(marks.iterdir()) == []
    assert tool(repo.root, "install").returncode == 0
    assert tool(repo.root, "install", "--check").returncode == 0


def test_uninstall_leaves_a_tracked_gitattributes_alone_and_names_the_line(
    repo: GitRepo,
) -> None:
    """Uninstalling in one clone touches that clone's state only: the committed
    .gitattributes is everyone's, so it is neither edited nor deleted; the output
    names the line to remove by hand, and why."""
    tool(repo.root, "install")
    repo.commit("share the attribute", **{".gitattributes": LINE + "\n"})
    info = repo.root / ".git" / "info" / "attributes"
    assert LINE in info.read_text()
    result = tool(repo.root, "install", "--uninstall")
    assert result.returncode == 0, result.stderr
    assert (repo.root / ".gitattributes").read_text() == LINE + "\n"
    assert repo.git("status", "--porcelain") == ""
    assert LINE not in info.read_text()
    assert repo.git("config", "--local", "--get-regexp", "merge", check=False) == ""
    said = [line for line in result.stdout.splitlines() if ".gitattributes" in line]
    assert any(repr(LINE) in line and "by hand" in line and "tracked" in line for line in said)
    document = json.loads(tool(repo.root, "install", "--uninstall", "--format", "json").stdout)
    [kept] = [s for s in document["steps"] if str(s["what"]).endswith(".gitattributes")]
    assert kept["kept"] is True and repr(LINE) in kept["done"]


def test_a_comment_naming_the_attribute_is_not_the_drivers_line(repo: GitRepo) -> None:
    comment = "# merge=perf-changelog is set by `changelog install`"
    other = '"/with space.yaml" merge=perf-changelog-other'
    repo.write(".gitattributes", f"{comment}\n{other}\n")
    tool(repo.root, "install")
    assert (repo.root / ".gitattributes").read_text() == f"{comment}\n{other}\n{LINE}\n"
    tool(repo.root, "install", "--uninstall")
    assert (repo.root / ".gitattributes").read_text() == f"{comment}\n{other}\n"
