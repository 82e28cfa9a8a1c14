"""Files read in pieces: the last entry found from the end, entries counted, and the
writer's copy mode."""

from __future__ import annotations

import fcntl
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from merge_helpers import appended, changelog, entry
from projects import with_file_size_limit

from changelog_tool.errors import ConcurrentChange
from changelog_tool.gitrepo.process import git_dir
from changelog_tool.ledger import writer
from changelog_tool.ledger.atomic import TEMP_SUFFIX
from changelog_tool.ledger.boundaries import count_entries, last_entry, last_entry_offset
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.streams import FileSource, MemorySource


def last_entry_start(path: Path, *, tail: int = 1 << 16) -> int | None:
    """The one end reader on the file, checked against the same reader on its bytes
    in memory: the offset, and the bytes from there to the end."""
    start, end = last_entry(FileSource(path), tail=tail)
    data = path.read_bytes()
    assert last_entry(MemorySource(data), tail=tail) == (start, end)
    assert end == data[start or 0 :]
    return start


DATA = changelog(*(entry(f"key-{n}", link=n) for n in range(40)))


def files(tmp_path: Path, *contents: bytes) -> list[Path]:
    paths = []
    for n, data in enumerate(contents):
        path = tmp_path / f"f{n}"
        path.write_bytes(data)
        paths.append(path)
    return paths


@pytest.mark.parametrize(
    "data",
    [
        DATA,
        b"# a preamble\n" + DATA,
        DATA.rstrip(b"\n"),
        DATA + b"\n  \n\n",
        entry("only"),
        b"# no entries\n",
        b"",
        b"- " + b"x" * 300_000 + b"\n",  # one line longer than the first window
        DATA + b"- " + b"y" * 300_000 + b"\n",
    ],
)
def test_the_last_entry_is_found_from_the_end(tmp_path: Path, data: bytes) -> None:
    (path,) = files(tmp_path, data)
    last = Ledger(data).last_block()
    assert last_entry_start(path) == (last.start if last else None)


# the bytes that decide where an entry begins, and their look-alikes
LINE_PARTS = [b"-", b"\n", b" ", b"a", b"- ", b"\n-", b"#", b"\r\n", b"\t", b"- config-keys:\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINE_PARTS), max_size=40), st.integers(1, 64))
def test_the_end_reader_finds_the_last_entry_the_bytes_rule_finds(
    tmp_path_factory: pytest.TempPathFactory, parts: list[bytes], tail: int
) -> None:
    """Any file, any first window (one that cuts an entry, or a line, included): the
    reader of the file's end answers what the one rule answers on the whole bytes,
    and that is where the file's last block begins."""
    data = b"".join(parts)
    path = tmp_path_factory.mktemp("end") / "perf-changelog.yaml"
    path.write_bytes(data)
    blocks = Ledger(data).blocks
    expected = blocks[-1].start if blocks else None
    assert last_entry_offset(data) == expected
    assert last_entry_start(path, tail=tail) == expected


@pytest.mark.parametrize("tail", [1, 2, 5, 64, 1 << 16])
@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"- a: 1\n-", 7),  # a last line "-" ends the file: an (empty) entry
        (b"- a: 1\n-x\n", 0),  # "-x" begins no entry
        (b"- a: 1\n-\t\n", 0),
        (b"- a: 1\r\n- b: 2\r\n", 8),  # CRLF: the '-' still follows a line feed
        (b"- a: 1\n-\r\n", 0),  # "-" then a carriage return begins none
        (b"- a: 1\n# - b: 2\n\n  \n", 0),  # a comment and blank lines after it
        (b"# only a comment\n\n", None),
        (b"\n-", 1),
        (b"-", 0),
        (b"", None),
    ],
)
def test_the_end_reader_pins_the_rule_where_it_is_easy_to_get_wrong(
    tmp_path: Path, data: bytes, expected: int | None, tail: int
) -> None:
    (path,) = files(tmp_path, data)
    assert last_entry_offset(data) == expected
    assert last_entry_start(path, tail=tail) == expected
    last = Ledger(data).last_block()
    assert (last.start if last else None) == expected


@given(st.lists(st.sampled_from([b"-", b"\n", b" ", b"a", b"- ", b"\n-"]), max_size=30))
def test_entries_are_counted_as_the_lines_that_begin_a_list_item(parts: list[bytes]) -> None:
    data = b"".join(parts)
    assert count_entries(data) == len(re.findall(rb"(?m)^-(?=[ \n]|\Z)", data))


def test_the_copy_mode_writes_the_source_then_the_tail(tmp_path: Path) -> None:
    target, source = files(tmp_path, b"old bytes\n", DATA)
    target.chmod(0o640)
    stamp = writer.Stamp.of(target)
    writer.replace_with_copy(target, source, len(DATA), b"tail\n", expected=stamp)
    assert target.read_bytes() == DATA + b"tail\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(TEMP_SUFFIX)]


def test_the_copy_mode_may_copy_the_file_it_replaces(tmp_path: Path) -> None:
    (target,) = files(tmp_path, DATA)
    writer.replace_with_copy(
        target, target, len(DATA), b"\n" + entry("own"), expected=writer.Stamp.of(target)
    )
    assert target.read_bytes() == appended(DATA, entry("own"))


def test_the_copy_mode_refuses_a_file_changed_since_it_was_read(tmp_path: Path) -> None:
    target, source = files(tmp_path, DATA, DATA)
    stamp = writer.Stamp.of(target)
    with target.open("ab") as file:  # another process appends meanwhile
        file.write(entry("concurrent"))
    with pytest.raises(ConcurrentChange):
        writer.replace_with_copy(target, source, len(DATA), b"tail\n", expected=stamp)
    assert target.read_bytes() == DATA + entry("concurrent")
    with pytest.raises(ConcurrentChange):  # a source that is no longer the length proven
        writer.replace_with_copy(
            target, source, len(DATA) + 1, b"tail\n", expected=writer.Stamp.of(target)
        )


def test_a_scratch_file_that_keeps_its_bytes_is_renamed_over_never_written_in_place(
    tmp_path: Path,
) -> None:
    """git's %A for the driver: the result is a new file renamed over it (a driver
    killed mid-write leaves %A as git gave it); no temp file is left."""
    (target,) = files(tmp_path, DATA)
    inode = target.stat().st_ino
    tail = b"\n" + entry("own")
    writer.replace_with_copy(
        target, target, len(DATA), tail, expected=writer.Stamp.of(target), scratch=True
    )
    assert target.read_bytes() == DATA + tail
    assert target.stat().st_ino != inode
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(TEMP_SUFFIX)]


def test_a_scratch_file_from_the_other_side_is_a_copy(tmp_path: Path) -> None:
    target, source = files(tmp_path, b"ours\n", DATA)
    inode = target.stat().st_ino
    writer.replace_with_copy(
        target, source, len(DATA), b"tail\n", expected=writer.Stamp.of(target), scratch=True
    )
    assert target.read_bytes() == DATA + b"tail\n"
    assert target.stat().st_ino != inode  # renamed over, never half-written
    assert source.read_bytes() == DATA


def test_a_scratch_append_that_fails_leaves_the_file_as_it_was(tmp_path: Path) -> None:
    """The disk refuses part of the tail (a file-size limit: the write stops after
    a few bytes): the file is cut back to its own bytes, and the error is raised."""
    (target,) = files(tmp_path, DATA)
    size = len(DATA)
    done = with_file_size_limit(
        size + 10,  # the write stops 10 bytes into the tail
        "target = Path(sys.argv[1])\n"
        "stamp = writer.Stamp.of(target)\n"
        "try:\n"
        f"    writer.replace_with_copy(target, target, {size}, b'x' * 4096, expected=stamp,"
        " scratch=True)\n"
        "except OSError as exc:\n"
        "    print('refused', exc.errno)\n",
        str(target),
    )
    assert done.stdout.startswith("refused"), done.stderr
    assert target.read_bytes() == DATA


def test_a_scratch_file_changed_since_it_was_read_is_refused(tmp_path: Path) -> None:
    (target,) = files(tmp_path, DATA)
    stamp = writer.Stamp.of(target)
    with target.open("ab") as file:
        file.write(entry("concurrent"))
    with pytest.raises(ConcurrentChange):
        writer.replace_with_copy(target, target, len(DATA), b"tail\n", expected=stamp, scratch=True)
    assert target.read_bytes() == DATA + entry("concurrent")


def test_the_copy_mode_waits_for_another_writers_lock(tmp_path: Path) -> None:
    target, source = files(tmp_path, b"old\n", DATA)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time; f = open(sys.argv[1]); fcntl.flock(f, fcntl.LOCK_EX); "
            "print('locked', flush=True); time.sleep(30)",
            str(target),
        ],
        stdout=subprocess.PIPE,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == b"locked\n"
        with pytest.raises(ConcurrentChange):
            writer.replace_with_copy(
                target,
                source,
                len(DATA),
                b"",
                expected=writer.Stamp.of(target),
                bounds=writer.Bounds(timeout=0.3),
            )
        assert target.read_bytes() == b"old\n"
    finally:
        holder.kill()
        holder.wait()
    fd = os.open(target, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # free again
    finally:
        os.close(fd)


def test_the_git_directory_is_read_from_dot_git_as_git_says(tmp_path: Path) -> None:
    main = tmp_path / "main"
    main.mkdir()

    def run(*args: str, cwd: Path = main) -> str:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
        return done.stdout.strip()

    run("init", "-q", "-b", "main")
    run(
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.invalid",
        "commit",
        "-q",
        "--allow-empty",
        "-m",
        "x",
    )
    run("worktree", "add", "-q", str(tmp_path / "linked"), "-b", "other")
    for top in (main, tmp_path / "linked"):
        expected = Path(run("rev-parse", "--absolute-git-dir", cwd=top))
        found = git_dir(top)
        assert found is not None and found.resolve() == expected.resolve()


@given(st.binary(max_size=300), st.binary(max_size=300), st.binary(max_size=50))
def test_the_first_difference_is_the_common_prefix_length(
    a: bytes, b: bytes, shared: bytes
) -> None:
    from changelog_tool.ledger.streams import first_difference

    x, y = shared + a, shared + b
    found = first_difference(x, y)
    assert x[:found] == y[:found]
    assert found == min(len(x), len(y)) or x[found] != y[found]
