"""The changelog read from git without holding it whole (``diff/changelog.py``): the
streamed append proof must judge exactly as the in-memory comparison does, and
the duplicate search over spooled regions must find what a search of the whole
history finds. Real repositories; the in-memory ``compare`` is the reference."""

from __future__ import annotations

import gc
import os
import subprocess
import threading
from pathlib import Path

import pytest
from conftest import GitRepo
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from changelog_tool.diff import changelog as changelog_module
from changelog_tool.diff.changelog import read_revision
from changelog_tool.errors import ConcurrentChange
from changelog_tool.gitrepo import WORKTREE, Repo
from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.duplicates import duplicate_at, duplicate_in
from changelog_tool.ledger.revision import APPEND, UNCHANGED, History, Kept
from changelog_tool.yaml.items import Item
from changelog_tool.yaml.strict import load_items

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
        [(a.line, a.text, a.value) for a in history.appended],
        history.corrections,
        history.prefix.size,
        history.prefix.lines,
        history.prefix.tail,
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
        found = read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    expected = compare(base, head, LOG, sha[:12])
    assert judged(found.history) == judged(expected)
    assert found.base_tail() == base[-65536:]
    for n in (3, 39, 900):  # the work tree's file read again: the same duplicates
        target = _value(entry(n))
        assert duplicate_in(found.history.prefix, target) == duplicate_in(expected.prefix, target)


@pytest.mark.parametrize("name", sorted(HEADS))
@pytest.mark.parametrize("beside", [False, True])
def test_the_work_trees_blob_id_is_gits_whichever_thread_hashes_it(
    base_repo: tuple[GitRepo, str, bytes], name: str, beside: bool, monkeypatch
) -> None:
    """Head's blob id (the staged check compares it with the index's) is the one git
    gives the file, hashed in the proof's own pass or (from HASH_BESIDE bytes, here
    every file) by a second thread; the verdict is the in-memory one either way."""
    repo, sha, base = base_repo
    head = HEADS[name](base)
    repo.write(LOG, head)
    monkeypatch.setattr(changelog_module, "HASH_BESIDE", 0 if beside else LIMIT)
    with Repo.open(repo.root) as opened:
        found = read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    git_id = subprocess.run(
        ["git", "hash-object", LOG], cwd=repo.root, capture_output=True, text=True, check=True
    ).stdout.strip()
    assert found.head_blob == git_id
    assert judged(found.history) == judged(compare(base, head, LOG, sha[:12]))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_an_error_in_the_hashing_thread_is_raised_and_the_file_closed(
    base_repo: tuple[GitRepo, str, bytes], monkeypatch
) -> None:
    """The second thread reads the file again as the search does: a file written in
    place meanwhile is refused there too, in the caller's thread, and the descriptor
    both read is closed (after the thread has stopped reading it)."""
    repo, sha, base = base_repo
    repo.write(LOG, HEADS["append"](base))
    monkeypatch.setattr(changelog_module, "HASH_BESIDE", 0)
    reread = changelog_module._rereader

    def refusing(path: str, handle):  # the module's own signature
        read = reread(path, handle)

        def refuse(start: int, stop: int) -> bytes:
            if threading.current_thread() is not threading.main_thread():
                raise ConcurrentChange(f"{path} changed while it was checked")
            return read(start, stop)

        return refuse

    monkeypatch.setattr(changelog_module, "_rereader", refusing)
    before = _open_descriptors()
    with Repo.open(repo.root) as opened, pytest.raises(ConcurrentChange, match="changed while"):
        read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    assert _open_descriptors() == before  # closed, not left to the garbage collector


def test_a_file_written_in_place_while_the_thread_hashed_it_is_refused(
    base_repo: tuple[GitRepo, str, bytes], monkeypatch
) -> None:
    """The two passes read the file apart: one written in place between them (the
    proof judging other bytes than the thread hashed) is refused, not given a blob id
    of bytes nobody judged."""
    repo, sha, base = base_repo
    head = HEADS["append"](base)
    repo.write(LOG, head)
    monkeypatch.setattr(changelog_module, "HASH_BESIDE", 0)

    class Overwritten(changelog_module._Beside):
        def join(self) -> str:
            digest = super().join()
            with (repo.root / LOG).open("r+b") as handle:  # same size, other bytes
                handle.write(b"#")
            os.utime(repo.root / LOG, ns=(1, 1))
            return digest

    monkeypatch.setattr(changelog_module, "_Beside", Overwritten)
    with Repo.open(repo.root) as opened, pytest.raises(ConcurrentChange, match="changed while"):
        read_revision(opened, LOG, sha, WORKTREE, LIMIT)


def _open_descriptors() -> int:
    return len(os.listdir("/proc/self/fd"))


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_the_work_trees_file_is_searched_as_proved_and_closed_after(
    base_repo: tuple[GitRepo, str, bytes],
) -> None:
    """The duplicate search reads the work tree's file through the descriptor the
    proof hashed: a writer that replaces the file by rename meanwhile (as every
    writer of this tool does) changes nothing it reads; the descriptor is closed
    once the revision is dropped."""
    repo, sha, base = base_repo
    repo.write(LOG, HEADS["append"](base))
    gc.collect()  # what earlier tests left for the collector closes its files now, not below
    before = _open_descriptors()
    with Repo.open(repo.root) as opened:
        found = read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    kept = found.history.prefix
    assert found.history.kind == APPEND and _open_descriptors() == before + 1
    other = repo.root / "replacement"
    other.write_bytes(b"#" * len(base))
    other.replace(repo.root / LOG)
    assert kept.read(0, kept.size) == base
    assert duplicate_in(kept, _value(entry(3))) == duplicate_in(Kept.of(base), _value(entry(3)))
    del found, kept
    gc.collect()
    assert _open_descriptors() == before


@pytest.mark.parametrize("name", sorted(HEADS))
def test_commit_head_is_judged_as_in_memory(
    base_repo: tuple[GitRepo, str, bytes], name: str
) -> None:
    """Streamed from git, head gets the in-memory comparison's verdict, and a
    duplicate is found on the same line."""
    repo, sha, base = base_repo
    head = HEADS[name](base)
    head_sha = repo.commit("head", **{LOG: head})
    with Repo.open(repo.root) as opened:
        found = read_revision(opened, LOG, sha, head_sha, LIMIT)
        blob = opened._run("rev-parse", f"{head_sha}:{LOG}").strip()
        expected = compare(base, head, LOG, sha[:12])
        assert judged(found.history) == judged(expected)
        assert found.head_blob == blob
        for n in (3, 39, 900):
            target = _value(entry(n))
            assert duplicate_in(found.history.prefix, target) == duplicate_in(
                expected.prefix, target
            )


def test_the_common_cases_take_the_streamed_path(base_repo: tuple[GitRepo, str, bytes]) -> None:
    """An append is proved by the hash, so its kept bytes come from the spool (not
    a copy of the base in memory); an unchanged file is not read at all."""
    repo, sha, base = base_repo
    head_sha = repo.commit("head", **{LOG: HEADS["append"](base)})
    with Repo.open(repo.root) as opened:
        appended = read_revision(opened, LOG, sha, head_sha, LIMIT)
        unchanged = read_revision(opened, LOG, sha, sha, LIMIT)
    assert appended.history.kind == APPEND
    assert appended.history.prefix.read(0, 11) == base[:11]
    assert unchanged.history.kind == UNCHANGED
    assert unchanged.base_tail() == base[-65536:]


def test_a_one_byte_edit_deep_in_a_long_history_is_caught(repo: GitRepo) -> None:
    base = history(3000)
    sha = repo.commit("base", **{LOG: base})
    middle = base.index(b"Change", len(base) // 2)  # one letter of a description
    edited = base[:middle] + b"X" + base[middle + 1 :] + b"\n" + entry(9000, "new-key")
    repo.write(LOG, edited)
    with Repo.open(repo.root) as opened:
        found = read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    assert found.history.kind != APPEND
    assert any(f.code == "history-modified" for f in found.history.findings)


def test_a_file_over_the_limit_is_refused_before_reading(
    base_repo: tuple[GitRepo, str, bytes],
) -> None:
    repo, sha, base = base_repo
    repo.write(LOG, HEADS["append"](base))
    from changelog_tool.errors import EnvironmentProblem

    with Repo.open(repo.root) as opened, pytest.raises(EnvironmentProblem, match="limit"):
        read_revision(opened, LOG, sha, WORKTREE, len(base) - 1)


def _value(block: bytes) -> dict[str, object]:
    items = load_items(block)
    assert isinstance(items, list) and isinstance(items[0], Item)
    assert isinstance(items[0].value, dict)
    return items[0].value


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    numbers=st.lists(st.integers(0, 30), min_size=1, max_size=40),
    wanted=st.integers(0, 30),
    region=st.integers(1, 400),
    long_entry=st.booleans(),
)
def test_duplicate_search_by_regions_agrees_with_the_whole_history(
    numbers: list[int], wanted: int, region: int, long_entry: bool
) -> None:
    """Regions far smaller than one entry, or than the file, find the same line."""
    blocks = [entry(n, f"key{n % 4}") for n in numbers]
    if long_entry:
        blocks.insert(len(blocks) // 2, entry(999, "k" + "x" * 900))
    data = b"\n".join(blocks)
    target = _value(entry(wanted, f"key{wanted % 4}"))
    kept = Kept.of(data)
    at = duplicate_at(data, target)  # the whole history searched at once
    whole = None if at is None else data.count(b"\n", 0, at) + 1
    assert duplicate_in(kept, target, region) == whole
    assert duplicate_in(kept, target) == whole


def test_regions_cover_the_history_once_and_lines_are_counted_to_any_offset(tmp_path: Path) -> None:
    data = history(50)
    kept = Kept.of(data)
    regions = list(kept.regions(300))
    assert b"".join(chunk[lo:] for chunk, _, lo in reversed(regions)) == data
    for chunk, start, lo in regions:
        assert data[start : start + len(chunk)] == chunk
        assert chunk[lo:].startswith(b"- ")
    for offset in (0, 1, 299, 300, len(data) // 2, len(data)):
        for size in (7, 300, 1 << 20):
            assert kept.line_at(offset, size) == data.count(b"\n", 0, offset) + 1


def test_a_file_written_in_place_during_the_search_is_refused_not_misread(
    base_repo: tuple[GitRepo, str, bytes],
) -> None:
    """An editor that rewrites the file in place changes what the descriptor reads:
    the search refuses to go on rather than judge bytes that were never hashed."""
    repo, sha, base = base_repo
    repo.write(LOG, HEADS["append"](base))
    with Repo.open(repo.root) as opened:
        found = read_revision(opened, LOG, sha, WORKTREE, LIMIT)
    kept = found.history.prefix
    with (repo.root / LOG).open("r+b") as handle:
        handle.write(b"#" * 10)
    os.utime(repo.root / LOG, ns=(1, 1))  # a new modification time, whatever the clock's grain
    with pytest.raises(ConcurrentChange, match="changed while it was checked"):
        kept.read(0, kept.size)
