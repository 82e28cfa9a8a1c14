from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from changelog_tool.ledger.document import Ledger, separator_before_append

ENTRY = '- config-keys:\n    - k{n}\n  description:\n    - "d{n}"\n  pr-link: XXX\n'


def test_blocks_keep_separators_exactly_as_found() -> None:
    data = (ENTRY.format(n=1) + "  \n" + ENTRY.format(n=2) + "\n\n" + ENTRY.format(n=3)).encode()
    ledger = Ledger(data)
    blocks = ledger.blocks
    assert [b.line for b in blocks] == [1, 7, 14]
    assert [data[b.end : b.sep_end] for b in blocks] == [b"  \n", b"\n\n", b""]
    assert blocks[1].text == ENTRY.format(n=2).encode()


def test_the_last_block_is_the_last_entry() -> None:
    data = (ENTRY.format(n=1) + "\n" + ENTRY.format(n=2)).encode()
    last = Ledger(data).last_block()
    assert last is not None
    assert (last.line, last.text) == (7, ENTRY.format(n=2).encode())


def test_a_file_without_entries_has_no_last_block() -> None:
    assert Ledger(b"# nothing yet\n").last_block() is None
    assert Ledger(b"").last_block() is None


def test_separator_follows_the_compatibility_contract() -> None:
    assert separator_before_append(b"x\n\n") == b""
    assert separator_before_append(b"x\n") == b"\n"
    assert separator_before_append(b"x\n  \n") == b"\n"
    assert separator_before_append(b"x") == b"\n\n"
    assert separator_before_append(b"") == b""


def test_byte_problems_name_the_line() -> None:
    problems = Ledger(b"- a: 1\n- b:\t2\r\n").byte_problems()
    assert {(p.code, p.line) for p in problems} == {("encoding", 2)}
    assert len(problems) == 2


def test_non_utf8_bytes_are_reported_with_their_offset() -> None:
    (found,) = Ledger(b"- a: 1\n- b: \xff\n").byte_problems()
    assert (found.code, found.line) == ("encoding", 2)
    assert "offset 12" in found.message


separators = st.sampled_from(["\n", "  \n", "\n\n", "", "   \n\n"])


@given(st.lists(st.tuples(st.integers(0, 999), separators), min_size=1, max_size=12), st.booleans())
def test_blocks_and_separators_reassemble_the_file_byte_for_byte(
    parts: list[tuple[int, str]], final_newline: bool
) -> None:
    text = "# preamble\n" + "".join(ENTRY.format(n=n) + sep for n, sep in parts)
    if not final_newline:
        text = text.rstrip("\n")
    data = text.encode()
    ledger = Ledger(data)
    blocks = ledger.blocks
    assert len(blocks) == len(parts)
    rebuilt = data[: ledger.preamble_end] + b"".join(
        data[b.start : b.end] + data[b.end : b.sep_end] for b in blocks
    )
    assert rebuilt == data
    for block in blocks:
        assert data[block.start : block.end].startswith(b"- config-keys:")
        assert data[block.end : block.sep_end].strip(b" \n") == b""
    last = ledger.last_block()
    assert last is not None and (last.start, last.line) == (blocks[-1].start, blocks[-1].line)
