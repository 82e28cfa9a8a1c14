"""Entry boundaries: the last entry, every entry start; the first difference of two byte
strings."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from merge_helpers import changelog, entry

from changelog_tool.gitrepo.process import git_dir
from changelog_tool.ledger.document import Ledger, entry_starts

DATA = changelog(*(entry(f"key-{n}", link=n) for n in range(40)))
STARTS = re.compile(rb"(?m)^-(?=[ \n]|\Z)")
"""The bytes rule of where an entry begins, restated."""


def last_start(data: bytes) -> int | None:
    last = Ledger(data).last_block()
    return last.start if last is not None else None


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
        b"- " + b"x" * 300_000 + b"\n",
        DATA + b"- " + b"y" * 300_000 + b"\n",
    ],
)
def test_the_last_entry_is_found(data: bytes) -> None:
    starts = [m.start() for m in STARTS.finditer(data)]
    assert last_start(data) == (starts[-1] if starts else None)


# the bytes that decide where an entry begins, and their look-alikes
LINE_PARTS = [b"-", b"\n", b" ", b"a", b"- ", b"\n-", b"#", b"\r\n", b"\t", b"- config-keys:\n"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(LINE_PARTS), max_size=40))
def test_the_last_entry_is_the_one_the_bytes_rule_finds(parts: list[bytes]) -> None:
    """Any file: the last block begins where the bytes rule finds the last entry."""
    data = b"".join(parts)
    starts = [m.start() for m in STARTS.finditer(data)]
    assert last_start(data) == (starts[-1] if starts else None)


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
def test_the_last_entry_pins_the_rule_where_it_is_easy_to_get_wrong(
    data: bytes, expected: int | None
) -> None:
    assert last_start(data) == expected


@given(st.lists(st.sampled_from([b"-", b"\n", b" ", b"a", b"- ", b"\n-"]), max_size=30))
def test_entries_are_counted_as_the_lines_that_begin_a_list_item(parts: list[bytes]) -> None:
    data = b"".join(parts)
    assert entry_starts(data) == [m.start() for m in STARTS.finditer(data)]


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
    from changelog_tool.merge.outcome import first_difference

    x, y = shared + a, shared + b
    found = first_difference(x, y)
    assert x[:found] == y[:found]
    assert found == min(len(x), len(y)) or x[found] != y[found]
