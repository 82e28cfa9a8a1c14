"""How the merge proves the history it appends to without building the values of the
whole history: the protected side before its last entry is read for syntax only (in
C), the rest in full; anything unusual falls back to one strict parse of the whole
result. How each entry reads is the append rule's (tests/ledger/test_append_rule.py)."""

from __future__ import annotations

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from merge_helpers import appended, changelog, entry
from test_merge_properties import History, histories, items_with

from changelog_tool.ledger.document import Ledger
from changelog_tool.merge.proof import _from_last_entry, _verify_whole, block_list_events
from changelog_tool.merge.threeway import Merged, Refused, assemble, merge

A, B, C = entry("a-fp8-b200-vllm"), entry("b-fp4-mi355x-sglang"), entry("c-fp8-h200-trt")
M1, P1, P2 = entry("main-one", link=101), entry("pr-one", link=201), entry("pr-two")
BASE = changelog(A, B, C)


def test_a_block_list_counts_its_events() -> None:
    # stream, document and list, opened and closed, plus one scalar
    assert block_list_events(b"- a\n") == 7
    assert block_list_events(BASE) == block_list_events(BASE + b"# a comment\n")


def test_what_is_not_one_block_list_at_column_zero_has_no_count() -> None:
    assert block_list_events(b"[a, b]\n") is None
    assert block_list_events(b"a: 1\n") is None
    assert block_list_events(b"- a\n---\n- b\n") is None
    assert block_list_events(b"- a\n...\n") is None
    assert block_list_events(b"%YAML 1.2\n---\n- a\n") is None
    assert block_list_events(b'- "an open quote\n') is None
    assert block_list_events(b"- [an open list\n") is None


def test_the_usual_merge_is_proved_from_the_protected_sides_last_entry() -> None:
    main = appended(BASE, M1)
    last = Ledger(main).last_block()
    assert last is not None
    assert _from_last_entry(last, appended(main, P1, P2), 2)
    result = merge(BASE, main, appended(BASE, P1, P2), "ours")
    assert isinstance(result, Merged) and result.data == appended(main, P1, P2)
    # a count that is not the one read steps aside, to the whole parse
    assert not _from_last_entry(last, appended(main, P1, P2), 1)


def test_a_last_entry_inside_a_quoted_string_of_the_history_is_refused() -> None:
    # libyaml lets a double-quoted scalar run over lines at column 0, so a line
    # "- config-keys:" may sit inside it: the entry count gives it away
    quoted = b'- config-keys:\n    - q\n  description:\n    - "starts here\n'
    inside = b'- config-keys:\n    - inside\n  description:\n    - closes"\n  pr-link: XXX\n'
    main = appended(BASE, M1) + b"\n" + quoted + inside
    result = merge(BASE, main, appended(BASE, P1), "ours")
    assert isinstance(result, Refused), result
    [problem] = result.problems
    assert problem.code == "entry-count"


def test_a_document_marker_in_the_protected_history_is_read_whole_and_refused() -> None:
    main = appended(A + b"---\n" + changelog(B, C), M1)
    result = merge(BASE, main, appended(BASE, P1), "ours")
    assert isinstance(result, Refused)
    assert "more than one YAML document" in result.problems[0].message


def test_a_protected_side_with_one_entry_is_read_whole() -> None:
    result = merge(A, A, appended(A, P1), "ours")
    assert isinstance(result, Merged)
    assert result.data == appended(A, P1)


EDITS = [
    b'"',
    b"'",
    b"[",
    b"{",
    b": x",
    b"\n- ",
    b"\n-",
    b"\n",
    b"  ",
    b"# c",
    b"&a ",
    b"*a",
    b"!t ",
    b"\n---\n",
    b"|\n",
    b"",
    b"\n  pr-link: XXX",
]


# entries in the emitter's layout only (list items at indent 4), which the quick
# reader takes: the quick proof is then tried on most results
LINKS = ["XXX", 1, 2, 3]
emitted = items_with(LINKS, indents=[4])


@settings(max_examples=150, deadline=None)
@given(histories() | histories(emitted, emitted), st.data())
def test_the_proof_from_the_last_entry_agrees_with_reading_the_whole_result(
    h: History, data: st.DataObject
) -> None:
    """Wherever the appended bytes are damaged, both proofs accept or both refuse
    (the short one may also step aside, leaving it to the whole parse)."""
    assume(h.own)  # with nothing appended, the result is the protected bytes as they are
    result, lines = assemble(h.protected, [i.bytes().rstrip(b"\n") + b"\n" for i in h.own])
    ledger = Ledger(h.protected)
    last = ledger.last_block()
    at = data.draw(st.integers(len(h.protected), len(result)))
    edit = data.draw(st.sampled_from(EDITS))
    damaged = result[:at] + edit + result[at + (0 if edit else 1) :]
    if last is None or last.start <= ledger.preamble_end:
        return
    short = _from_last_entry(last, damaged, len(h.own))
    whole = _verify_whole(h.protected, damaged, len(h.own), lines[0], "ours")
    if short:
        assert whole == [], whole
    if damaged == result:
        assert short and whole == []


def test_a_result_is_proved_as_a_whole_and_a_wrong_count_named() -> None:
    main = appended(BASE, M1)
    data = appended(main, P1, P2)
    first = main.count(b"\n") + 2
    assert _verify_whole(main, data, 2, first, "ours") == []
    [short] = _verify_whole(main, data, 1, first, "ours")
    assert short.code == "entry-count" and "expected 4 + 1" in short.message


def test_a_nan_in_the_protected_sides_last_entry_is_the_same_value_read_twice() -> None:
    """Old history may hold a `.nan` (the schema now refuses it): read alone and read
    in the merged file it is the same value, though NaN is never == NaN."""
    nan = b"- config-keys:\n    - a\n  description:\n    - .nan\n  pr-link: XXX\n"
    alone = merge(b"", nan, nan, "ours")
    assert isinstance(alone, Merged) and alone.data == nan
    both = merge(A, appended(A, nan), appended(A, P1), "ours")
    assert isinstance(both, Merged), both
    assert both.data == appended(A, nan, P1)
