"""``add`` never holds a long changelog: the writer's gate read a piece at a time
(:func:`check_appendable_file`) must refuse exactly what the whole-bytes gate
refuses, with the same words and lines, and an append through the kernel copy
must give the bytes the in-memory append gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from filecheck_cases import cases, entries, join
from hypothesis import given, settings
from hypothesis import strategies as st

from changelog_tool.errors import ChangelogError
from changelog_tool.ledger import writer
from changelog_tool.ledger.filecheck import check_appendable, check_appendable_file

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
def test_the_streamed_gate_refuses_what_the_whole_gate_refuses(tmp_path: Path, name: str) -> None:
    file = tmp_path / "perf-changelog.yaml"
    file.write_bytes(CASES[name])
    whole = verdict(lambda: check_appendable(CASES[name], "perf-changelog.yaml"))
    streamed = verdict(lambda: check_appendable_file(file, "perf-changelog.yaml"))
    assert streamed == whole


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(1, 40),
    cut=st.integers(0, 4000),
    junk=st.sampled_from([b"", b"\t", b"\r", b"\xff", b"  x: [\n", b"- ", b"\n\n"]),
)
def test_the_streamed_gate_agrees_on_damaged_files(
    tmp_path_factory: pytest.TempPathFactory, count: int, cut: int, junk: bytes
) -> None:
    data = join(entries(count))
    at = min(cut, len(data))
    data = data[:at] + junk + data[at:]
    file = tmp_path_factory.mktemp("f") / "perf-changelog.yaml"
    file.write_bytes(data)
    assert verdict(lambda: check_appendable_file(file, "p")) == verdict(
        lambda: check_appendable(data, "p")
    )


def test_an_append_through_the_copy_gives_the_in_memory_bytes(tmp_path: Path) -> None:
    old = join(entries(200))
    blocks = [b'- config-keys:\n    - k\n  description:\n    - "x"\n  pr-link: XXX\n']
    streamed, whole = tmp_path / "a.yaml", tmp_path / "b.yaml"
    streamed.write_bytes(old)
    whole.write_bytes(old)

    def check(file: Path) -> tuple[int, int, bytes]:
        found = check_appendable_file(file, "a.yaml")
        return found.size, found.lines, found.end

    one = writer.append_checked(streamed, blocks, check=check)
    two = writer.append(whole, blocks, check=lambda data: check_appendable(data, "b.yaml"))
    assert streamed.read_bytes() == whole.read_bytes() == old + b"\n" + blocks[0]
    assert (one.old_size, one.new_size, one.entry_lines, one.last_line) == (
        two.old_size,
        two.new_size,
        two.entry_lines,
        two.last_line,
    )
