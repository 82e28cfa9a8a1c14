"""The changelog read from git (``diff/changelog.py`` ``read_revision``), from the work tree or a commit:
judged as ``compare`` judges the two versions' bytes, with head's blob id as git
gives it. Real repositories."""

from __future__ import annotations

import subprocess

import pytest
from conftest import GitRepo

from changelog_tool.diff.changelog import blob_id, read_revision
from changelog_tool.gitrepo import WORKTREE, Repo
from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.revision import APPEND, History

LOG = "perf-changelog.yaml"
LIMIT = 1 << 30


def entry(n: int, key: str | None = None) -> bytes:
    key = key or f"model{n % 7}-fp{4 + n % 2}-*"
    return (
        f'- config-keys:\n    - {key}\n  description:\n    - "Change {n % 5}"\n'
        f"  pr-link: https://github.com/acme/bench/pull/{n}\n"
    ).encode()


def history(count: int) -> bytes:
    return b"\n".join(entry(n) for n in range(count))


def judged(history: History) -> tuple[object, ...]:
    return (
        history.kind,
        [(f.code, f.message, f.line) for f in history.findings],
        [(a.line, a.text, a.fields) for a in history.appended],
        history.corrections,
        history.prefix,
    )


@pytest.fixture
def base_repo(repo: GitRepo) -> tuple[GitRepo, str, bytes]:
    base = history(40)
    return repo, repo.commit("base", **{LOG: base}), base


HEADS = {
    "append": lambda b: b + b"\n" + entry(900, "new-key"),
    "append two": lambda b: b + b"\n" + entry(900, "x") + b"\n" + entry(901, "y"),
    "no separator": lambda b: b + entry(900, "new-key"),
    "bytes added to last line": lambda b: b[:-1] + b" extra\n",
    "edited middle": lambda b: b.replace(b"Change 3", b"Change 9", 1),
    "pr-link corrected": lambda b: b.replace(b"pull/3\n", b"pull/33\n", 1),
    "crlf appended": lambda b: b + b"\r\n" + entry(900, "k").replace(b"\n", b"\r\n"),
    "bom": lambda b: b"\xef\xbb\xbf" + b,
    "truncated": lambda b: b[: len(b) // 2],
    "unchanged": lambda b: b,
    "emptied": lambda b: b"",
    "trailing blank line": lambda b: b + b"\n" + entry(900, "k") + b"\n",
    "broken yaml appended": lambda b: b + b"\n- config-keys: [\n",
    "duplicate appended": lambda b: b + b"\n" + entry(3),
}


@pytest.mark.parametrize("name", sorted(HEADS))
def test_worktree_head_is_judged_as_in_memory(
    base_repo: tuple[GitRepo, str, bytes], name: str
) -> None:
    repo, sha, base = base_repo
    head = HEADS[name](base)
    repo.write(LOG, head)
    with Repo.open(repo.root) as opened:
        found, tail = read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    expected = compare(base, head, LOG, sha[:12])
    assert judged(found) == judged(expected)
    assert tail == base[-65536:]


@pytest.mark.parametrize("name", sorted(HEADS))
def test_the_work_trees_blob_id_is_gits(base_repo: tuple[GitRepo, str, bytes], name: str) -> None:
    """Head's blob id (the staged check compares it with the index's) is the one git
    gives the file."""
    repo, sha, base = base_repo
    head = HEADS[name](base)
    repo.write(LOG, head)
    git_id = subprocess.run(
        ["git", "hash-object", LOG], cwd=repo.root, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert blob_id(head, sha) == git_id


@pytest.mark.parametrize("name", sorted(HEADS))
def test_commit_head_is_judged_as_in_memory(
    base_repo: tuple[GitRepo, str, bytes], name: str
) -> None:
    """Read from git, head gets the in-memory comparison's verdict."""
    repo, sha, base = base_repo
    head = HEADS[name](base)
    head_sha = repo.commit("head", **{LOG: head})
    with Repo.open(repo.root) as opened:
        found, _ = read_revision(opened, LOG, sha, head_sha, LIMIT)
        blob = opened._run("rev-parse", f"{head_sha}:{LOG}").strip()
        expected = compare(base, head, LOG, sha[:12])
        assert judged(found) == judged(expected)
        assert blob_id(head, sha) == blob


def test_a_one_byte_edit_deep_in_a_long_history_is_caught(repo: GitRepo) -> None:
    base = history(3000)
    sha = repo.commit("base", **{LOG: base})
    middle = base.index(b"Change", len(base) // 2)  # one letter of a description
    edited = base[:middle] + b"X" + base[middle + 1 :] + b"\n" + entry(9000, "new-key")
    repo.write(LOG, edited)
    with Repo.open(repo.root) as opened:
        found, _ = read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    assert found.kind != APPEND
    assert any(f.code == "history-modified" for f in found.findings)


def test_a_file_over_the_limit_is_refused_before_reading(
    base_repo: tuple[GitRepo, str, bytes],
) -> None:
    repo, sha, base = base_repo
    repo.write(LOG, HEADS["append"](base))
    from changelog_tool.errors import EnvironmentProblem

    with Repo.open(repo.root) as opened, pytest.raises(EnvironmentProblem, match="limit"):
        read_revision(opened, LOG, sha, WORKTREE, len(base) - 1)


def test_a_work_tree_changelog_that_is_a_link_is_refused(
    base_repo: tuple[GitRepo, str, bytes],
) -> None:
    """git would commit the link's target path, not the entries it reads through."""
    from changelog_tool.errors import EnvironmentProblem

    repo, sha, base = base_repo
    repo.write("real.yaml", HEADS["append"](base))
    (repo.root / LOG).unlink()
    (repo.root / LOG).symlink_to("real.yaml")
    with Repo.open(repo.root) as opened, pytest.raises(EnvironmentProblem, match="symbolic link"):
        read_revision(opened, LOG, sha, WORKTREE, LIMIT)
