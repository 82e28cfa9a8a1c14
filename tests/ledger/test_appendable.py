"""The writer's gate (:func:`check_appendable`): the cases say which files it refuses,
whole or damaged anywhere; and the one append gives the file's bytes, one empty line
and the entry."""

from __future__ import annotations

from pathlib import Path

import pytest
from filecheck_cases import cases, entries, join
from hypothesis import given, settings
from hypothesis import strategies as st

from changelog_tool.errors import ChangelogError
from changelog_tool.ledger import writer
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.ledger.writer import check_appendable

CASES = {
    **cases(),
    "empty": b"",
    "no final newline": join(entries(5)).rstrip(b"\n"),
    "last entry broken": join(entries(5)) + b"\n- config-keys: [\n",
    "last entry fails the schema": join(entries(5)) + b"\n- config-keys:\n    - k\n",
    "one entry": join(entries(1)),
}


def verdict(run: object) -> str | None:
    try:
        run()  # type: ignore[operator]
    except ChangelogError as exc:
        return str(exc)
    return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_gate_refuses_the_files_no_append_can_fix(name: str) -> None:
    found = verdict(lambda: check_appendable(CASES[name], "perf-changelog.yaml"))
    refused = {"no final newline", "last entry broken", "last entry fails the schema"}
    if name in refused:
        assert found is not None and "refusing to append" in found
    elif name in {"empty", "one entry"}:
        assert found is None


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 40),
    cut=st.integers(0, 4000),
    junk=st.sampled_from([b"", b"\t", b"\r", b"\xff", b"  x: [\n", b"- ", b"\n\n"]),
)
def test_a_damaged_byte_anywhere_refuses_the_append(count: int, cut: int, junk: bytes) -> None:
    """A byte the file check calls an encoding error refuses the append, wherever it
    stands (the last entry alone is parsed, every byte is scanned)."""
    data = join(entries(count))
    at = min(cut, len(data))
    data = data[:at] + junk + data[at:]
    found = verdict(lambda: check_appendable(data, "p"))
    if any(f.code == "encoding" for f in check_file(data, "p").findings):
        assert found is not None and "refusing to append" in found


def test_the_one_append_gives_the_bytes_and_lines_it_says(tmp_path: Path) -> None:
    old = join(entries(200))
    blocks = [b'- config-keys:\n    - k\n  description:\n    - "x"\n  pr-link: XXX\n']
    path = tmp_path / "a.yaml"
    path.write_bytes(old)
    done = writer.append(path, blocks)
    assert path.read_bytes() == old + b"\n" + blocks[0]
    lines = old.count(b"\n")
    assert (done.old_size, done.new_size) == (len(old), len(old) + 1 + len(blocks[0]))
    assert done.entry_lines == (lines + 2,)
