"""The byte scan gives the same findings however the file is cut into pieces (the
writer's check feeds it the chunks it reads, cut anywhere, even inside a UTF-8
character), and places a byte that is not UTF-8 where decoding the whole file does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from changelog_tool.ledger.document import ByteScan

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


def scanned(pieces: list[bytes]) -> tuple[object, ...]:
    scan = ByteScan()
    for piece in pieces:
        scan.feed(piece)
    return scan.problems(), scan.size, scan.newlines, scan.ends_with_newline


def cut(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    return [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]


@given(FILES, st.lists(st.integers(0, 200), max_size=12))
def test_the_findings_do_not_depend_on_where_the_pieces_are_cut(
    data: bytes, cuts: list[int]
) -> None:
    assert scanned(cut(data, cuts)) == scanned([data])


@given(FILES, st.lists(st.integers(0, 200), max_size=12))
def test_a_byte_that_is_not_utf8_is_where_decoding_finds_it(data: bytes, cuts: list[int]) -> None:
    scan = ByteScan()
    for piece in cut(data, cuts):
        scan.feed(piece)
    scan.problems()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        assert scan.not_utf8 == (exc.start, data[exc.start], line)
    else:
        assert scan.not_utf8 is None


def test_one_byte_pieces_of_a_file_with_every_kind_of_character() -> None:
    data = "\ufeffa é → 𝄞\n\tb\r\n".encode() + b"\xe2\x86\n"
    assert scanned([data[i : i + 1] for i in range(len(data))]) == scanned([data])
    problems, *_ = scanned([data])
    assert len(problems) == 4  # type: ignore[arg-type]  # BOM, not UTF-8, CR, tab
