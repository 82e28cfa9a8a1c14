"""The byte scan places a byte that is not UTF-8 where decoding the file does, and
names each kind of damaged byte once."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from changelog_tool.ledger.document import Ledger

# bytes that matter: line breaks, the marked bytes, a BOM, whole characters of 2, 3
# and 4 bytes, their pieces, and bytes that never begin or continue one
PARTS = st.sampled_from(
    [
        *(b"a", b" ", b"\n", b"\r", b"\t", b"\x00", b"\xef\xbb\xbf"),
        *("é".encode(), "→".encode(), "𝄞".encode()),
        *(b"\xc3", b"\xe2\x86", b"\xf0\x9d", b"\x80", b"\xbf", b"\xff", b"\xc0"),
    ]
)
FILES = st.lists(PARTS, max_size=40).map(b"".join)


@given(FILES)
def test_a_byte_that_is_not_utf8_is_where_decoding_finds_it(data: bytes) -> None:
    found = [p for p in Ledger(data).byte_problems() if p.message.startswith("not UTF-8")]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        [problem] = found
        assert f"byte 0x{data[exc.start]:02x} at offset {exc.start} " in problem.message
        assert problem.line == data.count(b"\n", 0, exc.start) + 1
    else:
        assert not found


def test_a_file_with_every_kind_of_damage() -> None:
    data = "\ufeffa é → 𝄞\n\tb\r\n".encode() + b"\xe2\x86\n"
    problems = Ledger(data).byte_problems()
    assert [(p.message.split(" ")[0], p.line) for p in problems] == [
        ("the", 1),  # the byte-order mark
        ("not", 3),  # not UTF-8: the character the last line breaks off
        ("a", 2),  # a carriage return
        ("a", 2),  # a tab
    ]
