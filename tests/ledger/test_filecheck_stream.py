"""``verify --file`` reads a changelog entry by entry and reports exactly what reading
it whole reported: the same codes, messages and lines, for files damaged in
different places (tests/filecheck_cases.py). The expected findings in
tests/ledger/snapshots/filecheck-findings.json were recorded from the whole-file check
before the streaming one replaced it."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from filecheck_cases import cases, entries, join
from hypothesis import example, given, settings
from hypothesis import strategies as st
from yaml_oracles import TRICKY

from changelog_tool.ledger import quickread
from changelog_tool.ledger.document import Ledger, last_entry_offset
from changelog_tool.ledger.entryschema import builtin
from changelog_tool.ledger.filecheck import (
    FileReport,
    _check_stream,
    _check_whole,
    _pieces,
    check_file,
    check_path,
)
from changelog_tool.ledger.quickread import quick_item, quick_items
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items

SNAPSHOT = Path(__file__).parent / "snapshots" / "filecheck-findings.json"
EXPECTED: dict[str, Any] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
CASES = cases()
PATH = "perf-changelog.yaml"


def as_recorded(report: FileReport) -> dict[str, Any]:
    items = [[i.line, i.value, i.key_lines] for i in report.items]
    return {
        "findings": [[f.code, f.line, f.severity, f.message] for f in report.findings],
        "parsed": report.parsed,
        "items": len(items),
        "items_sha256": hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest(),
    }


def test_every_case_is_recorded() -> None:
    assert sorted(CASES) == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_file_reports_what_the_whole_file_check_reported(name: str) -> None:
    assert as_recorded(check_file(CASES[name], PATH)) == EXPECTED[name]


# --- the quick reader -----------------------------------------------------------------


def strict_item(block: bytes, line: int) -> Item | None:
    try:
        items = load_items(block, line_offset=line - 1)
    except YamlProblem:
        return None
    assert isinstance(items, list) and len(items) == 1
    item = items[0]
    assert isinstance(item, Item)
    return item


def assert_same_reading(block: bytes, line: int) -> bool:
    """The quick reader reads ``block`` as the strict loader does, or leaves it."""
    quick = quick_item(block, line)
    if quick is not None:
        strict = strict_item(block, line)
        assert strict is not None, block
        assert quick.line == strict.line and quick.key_lines == strict.key_lines, block
        assert repr(quick.value) == repr(strict.value), block  # types too; nan == nan
        bare = quick_item(block, line, lines=False)
        assert bare is not None and bare.key_lines == {} and bare.line == quick.line
        assert repr(bare.value) == repr(quick.value)
    return quick is not None


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_quick_reader_reads_every_block_it_takes_as_the_strict_loader(name: str) -> None:
    ledger = Ledger(CASES[name])
    for block in ledger.blocks:
        assert_same_reading(ledger.text(block), block.line)


SCALARS = [
    *TRICKY,
    "a b",
    "a  b",
    "a -b",
    "x:y",
    "https://x/y",
    "a'b",
    'a"b',
    "a\\b",
    "\u00e9\u2192",
]


@st.composite
def blocks(draw: st.DrawFn) -> bytes:
    def scalar() -> str:
        text = draw(st.sampled_from(SCALARS) | st.text(max_size=8))
        style = draw(st.sampled_from(["plain", "double", "single"]))
        if style == "double":
            return f'"{text}"'
        if style == "single":
            return "'" + text.replace("'", "''") + "'"
        return text

    lines = ["- config-keys:"]
    fields = draw(st.lists(st.sampled_from([*builtin().names[1:], "other"]), unique=True))
    for field in ["config-keys", *fields]:
        if field != "config-keys":
            lines.append(f"  {field}:" + (f" {scalar()}" if draw(st.booleans()) else ""))
            if lines[-1] != f"  {field}:":
                continue
        lines.extend(f"    - {scalar()}" for _ in range(draw(st.integers(0, 3))))
    if draw(st.integers(0, 4)) == 0:  # a line of any other shape, somewhere
        junk = draw(st.sampled_from(["  config-keys:", "    -", "  # c", "", "  - a", "- a"]))
        lines.insert(draw(st.integers(1, len(lines))), junk)
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


@settings(max_examples=600, deadline=None)
@given(blocks(), st.integers(1, 5000))
@example(b"- config-keys:\n    - a\n  description:\n    - ...\n", 3)
@example(b"- config-keys:\n    - a\n  pr-link: x\n    - b\n", 1)
def test_the_quick_reader_agrees_with_the_strict_loader(block: bytes, line: int) -> None:
    assert_same_reading(block, line)


PLAIN = [e.encode() for e in entries(12)]  # real-shaped entries, each ending in a newline
BLANK = ["", "\n", "\n\n", "  \n", " \n\n"]
SEPARATORS = st.sampled_from(BLANK * 6 + ["\n# c\n", "---\n", "\t\n", "\r\n", "-\n"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(PLAIN) | blocks(), min_size=1, max_size=5), st.data())
@example([b"- config-keys:\n    - a\n", b"- config-keys:\n    - b\n"], None)
def test_a_whole_document_the_quick_reader_takes_reads_as_the_strict_loader(
    parts: list[bytes], data: st.DataObject | None
) -> None:
    """Blocks of any shape, joined by blank lines or by other lines: a document the
    quick reader takes is the list of the same items, at the same lines, for the
    strict loader."""
    joined = parts[0]
    for part in parts[1:]:
        gap = data.draw(SEPARATORS) if data is not None else "\n"
        joined += gap.encode() + part
    quick = quick_items(joined)
    if quick is None:
        return
    strict = load_items(joined)
    assert isinstance(strict, list)
    assert [(i.line, repr(i.value)) for i in quick] == [(i.line, repr(i.value)) for i in strict]


def test_the_quick_reader_leaves_a_document_that_is_not_only_plain_entries() -> None:
    entry = b"- config-keys:\n    - a\n"
    assert quick_items(entry + b"\n" + entry) is not None
    assert quick_items(b"# preamble\n" + entry) is None
    assert quick_items(entry + b"# between\n" + entry) is None
    assert quick_items(entry + b"---\n" + entry) is None
    assert quick_items(entry.rstrip(b"\n")) is None  # no final newline
    assert quick_items(b"") is None


_PRINTED = "\u00a0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff"
"""The non-ASCII characters libyaml prints, as ranges of what is allowed."""


@pytest.mark.parametrize("name", sorted(quickread._CLASSES))
def test_each_class_takes_the_same_characters_spelled_either_way(name: str) -> None:
    """A class for any text is spelled by what it refuses (it compiles in ~0.3 ms, the
    ranges of what it takes in ~4): it must take exactly the ASCII class's characters
    and the non-ASCII ones libyaml prints, every code point checked."""
    everything = "".join(map(chr, range(0x110000)))
    taken = re.compile(f"{quickread.char_class(name, ascii=True)[:-1]}{_PRINTED}]")
    refusing = re.compile(quickread.char_class(name, ascii=False))
    assert refusing.findall(everything) == taken.findall(everything)
    ascii_only = re.compile(quickread.char_class(name, ascii=True))
    assert ascii_only.findall(everything) == [c for c in taken.findall(everything) if c < "\x80"]


def test_the_quick_reader_takes_nearly_all_of_the_real_history() -> None:
    ledger = Ledger(join(entries(700)))
    taken = sum(assert_same_reading(ledger.text(b), b.line) for b in ledger.blocks)
    assert taken == 500  # 5 of the 7 real shapes; flow lists and 2-space items are left


# --- reading in pieces ----------------------------------------------------------------

# every case but these is read entry by entry; these need the whole-file reading
WHOLE = {
    "tab in indentation",  # a block that does not parse
    "crlf",  # CR: a line break for YAML, not for the ledger
    "one lone cr",
    "cr before a dash",
    "bom",
    "unclosed double quote",
    "unclosed quote spanning entries",
    "unclosed flow list",
    "duplicate key",
    "anchor and alias",
    "tag",
    "nested too deep",
    "a mapping line at column 0",
    "document markers",
    "document start at the top",
    "preamble mapping",
    "empty",  # no entry at all
    "only blank lines",
    "mapping root",
    "scalar root",
    "many problems",
}


def in_pieces(data: bytes, size: int) -> list[bytes]:
    return [data[i : i + size] for i in range(0, len(data), size)] or [b""]


@pytest.mark.parametrize("size", [97, 4096, 1 << 20])
@pytest.mark.parametrize("name", sorted(CASES))
def test_reading_in_pieces_reports_what_the_whole_file_check_reported(name: str, size: int) -> None:
    report = _check_stream(in_pieces(CASES[name], size), PATH, keep_items=True)
    if name in WHOLE:
        assert report is None
    else:
        assert report is not None
        assert as_recorded(report) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(CASES))
def test_check_path_reports_the_recorded_findings(name: str, tmp_path: Path) -> None:
    file = tmp_path / PATH
    file.write_bytes(CASES[name])
    report = check_path(file, PATH)
    expected = EXPECTED[name]
    assert [[f.code, f.line, f.severity, f.message] for f in report.findings] == expected[
        "findings"
    ]
    assert report.parsed == expected["parsed"]


DAMAGE = [
    b"",
    b"\n",
    b"\n\n",
    b"  \n",
    b"- ",
    b"-\n",
    b"- config-keys:\n",
    b"    - x\n",
    b"  pr-link: XXX\n",
    b'"',
    b"'",
    b"[",
    b"]",
    b"{",
    b"#",
    b"&a ",
    b"*a",
    b"!!str ",
    b": ",
    b"\t",
    b"\r",
    b"\r\n",
    b"\x00",
    b"\xff",
    b"\xc3",
    b"\xef\xbb\xbf",
    b"\xe2\x80\xa8",
    b"\xc2\x85",
    b"---\n",
    b"...\n",
    b"%YAML 1.2\n",
    b"description:\n",
    b"  evals-only: 2.0\n",
    b"  pr-link: nope\n",
    b" ",
    b"x",
]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 10**6), st.integers(0, 40), st.sampled_from(DAMAGE)),
        max_size=4,
    ),
    st.sampled_from([61, 509, 4096]),
)
def test_damaged_files_read_in_pieces_or_whole_give_the_same_findings(
    damage: list[tuple[int, int, bytes]], size: int
) -> None:
    data = join(entries(40))
    for where, length, text in damage:
        at = where % (len(data) + 1)
        data = data[:at] + text + data[at + length :]
    report = _check_stream(in_pieces(data, size), PATH, keep_items=True)
    if report is not None:
        assert as_recorded(report) == as_recorded(_check_whole(data, PATH))


PIECE_PARTS = [b"-", b"\n", b" ", b"a", b"- ", b"\n-", b"#", b"\r\n", b"\t", b"- config-keys:\n"]


@given(st.lists(st.sampled_from(PIECE_PARTS), max_size=40), st.data())
def test_a_piece_is_cut_only_where_the_whole_file_begins_an_entry(
    parts: list[bytes], data: st.DataObject
) -> None:
    """The one rule on a piece of a file whose end is not known yet: the last entry
    start whose next byte is in the piece, never a '-' that ends it."""
    whole = b"".join(parts)
    k = data.draw(st.integers(0, len(whole)))
    starts = [b.start for b in Ledger(whole).blocks if b.start + 1 < k]
    assert last_entry_offset(whole[:k], complete=False) == (starts[-1] if starts else None)
    size = data.draw(st.integers(1, 8))
    pieces = list(_pieces(in_pieces(whole, size)))
    assert b"".join(pieces) == whole
    cuts = [sum(map(len, pieces[:i])) for i in range(1, len(pieces))]
    assert set(cuts) <= {b.start for b in Ledger(whole).blocks}


def test_a_dash_that_ends_a_chunk_waits_for_the_next_byte() -> None:
    # in a whole file a last line "-" begins an entry; at the end of a chunk it is
    # not known yet: "-x" begins none, "- " does
    assert last_entry_offset(b"- a: 1\n-") == 7
    assert last_entry_offset(b"- a: 1\n-", complete=False) == 0
    assert list(_pieces([b"- a: 1\n-", b"x: 2\n"])) == [b"- a: 1\n-x: 2\n"]
    assert list(_pieces([b"- a: 1\n-", b" b: 2\n"])) == [b"- a: 1\n", b"- b: 2\n"]


def test_entries_for_log_and_the_tui_are_the_whole_files_entries() -> None:
    """``lookup.entries`` reads block by block when that reading is the whole file's:
    on every recorded case it gives what the whole-file parse gives."""
    from changelog_tool.ledger.document import Ledger
    from changelog_tool.ledger.filecheck import read_items
    from changelog_tool.ledger.lookup import entries

    quick = 0
    for name, data in sorted(CASES.items()):
        if read_items(data) is None:
            continue
        quick += 1
        root = Ledger(data).parse()
        assert isinstance(root, list), name
        expected = [(i.line, i.value) for i in root if isinstance(i.value, dict)]
        assert entries(data) == (expected, []), name
    assert quick >= len(CASES) // 3, (quick, len(CASES))
