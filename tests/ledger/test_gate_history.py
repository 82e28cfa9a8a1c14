"""What a branch did to the changelog bytes: appends, corrections, edited history (pure)."""

from __future__ import annotations

from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.revision import APPEND, CORRECTION, MODIFIED, NEW, UNCHANGED

PATH = "perf-changelog.yaml"


def entry(
    key: str,
    text: str = "Bump the image",
    link: str = "https://github.com/o/r/pull/1",
    extra: str = "",
) -> bytes:
    return (
        f'- config-keys:\n    - {key}\n  description:\n    - "{text}"\n  pr-link: {link}\n{extra}'
    ).encode()


BASE = entry("a-sglang") + b"\n" + entry("b-vllm", link="https://github.com/o/r/pull/2")


def codes(history) -> list[str]:
    return [f.code for f in history.findings]


def test_a_clean_append_yields_the_new_entries_with_their_lines() -> None:
    head = BASE + b"\n" + entry("c-trt") + b"\n" + entry("d-trt")
    history = compare(BASE, head, PATH)
    assert history.kind == APPEND and codes(history) == []
    assert [(a.line, a.fields["config-keys"]) for a in history.appended] == [
        (13, ["c-trt"]),
        (19, ["d-trt"]),
    ]
    assert history.appended[0].field_line("pr-link") == 17


def test_an_untouched_file_appends_nothing() -> None:
    history = compare(BASE, BASE, PATH)
    assert history.kind == UNCHANGED and history.appended == [] and codes(history) == []


def test_the_first_new_entry_follows_exactly_one_empty_line() -> None:
    assert codes(compare(BASE, BASE + entry("c-trt"), PATH)) == ["separator"]
    assert codes(compare(BASE, BASE + b"\n\n" + entry("c-trt"), PATH)) == ["separator"]
    assert codes(compare(BASE, BASE + b"  \n" + entry("c-trt"), PATH)) == ["separator"]
    ends_blank = BASE + b"\n"
    assert codes(compare(ends_blank, ends_blank + entry("c-trt"), PATH)) == []


def test_a_base_without_final_newline_needs_two_line_breaks() -> None:
    base = BASE.rstrip(b"\n")
    assert codes(compare(base, base + b"\n\n" + entry("c-trt"), PATH)) == []
    assert codes(compare(base, base + b"\n" + entry("c-trt"), PATH)) == ["separator"]
    assert codes(compare(base, base + b"\n", PATH)) == []  # adding the final newline


def test_new_entries_are_separated_by_one_empty_line_and_the_file_ends_without_one() -> None:
    head = BASE + b"\n" + entry("c-trt") + b"\n\n" + entry("d-trt") + b"\n"
    history = compare(BASE, head, PATH)
    assert codes(history) == ["separator", "separator"]
    assert [f.line for f in history.findings] == [18, 25]


def test_lines_added_to_the_last_entry_are_edited_history() -> None:
    head = BASE + b"  evals-only: true\n"
    history = compare(BASE, head, PATH)
    assert codes(history) == ["history-modified"] and history.appended == []
    assert history.findings[0].line == 12
    base = BASE.rstrip(b"\n")
    assert codes(compare(base, base + b"3\n", PATH)) == ["history-modified"]


def test_an_edited_historical_byte_is_reported_and_the_tail_still_counts() -> None:
    head = BASE.replace(b"Bump the image", b"Bump the image!", 1) + b"\n" + entry("c-trt")
    history = compare(BASE, head, PATH)
    assert history.kind == MODIFIED
    assert codes(history) == ["history-modified"]
    assert history.findings[0].line == 4  # the description line of the first entry
    assert [a.fields["config-keys"] for a in history.appended] == [["c-trt"]]


def test_a_removed_entry_is_edited_history() -> None:
    head = entry("a-sglang")
    history = compare(BASE, head, PATH)
    assert codes(history) == ["history-modified"]
    assert "line 7 of the base" in history.findings[0].message


def test_an_entry_inserted_before_the_last_one_is_the_branchs_own_not_at_the_tail() -> None:
    """Wherever it stands, an entry the base lacks is the branch's own (the benchmark
    CI reads added lines wherever they are): appended, with a form warning."""
    head = (
        entry("a-sglang")
        + b"\n"
        + entry("c-trt")
        + b"\n"
        + entry("b-vllm", link="https://github.com/o/r/pull/2")
    )
    history = compare(BASE, head, PATH)
    assert [(f.code, f.severity, f.line) for f in history.findings] == [
        ("entry-order", "warning", 7)
    ]
    assert "changelog sync" in history.findings[0].message
    assert [(a.line, a.fields["config-keys"]) for a in history.appended] == [(7, ["c-trt"])]


def test_pr_link_only_corrections_are_allowed_alone() -> None:
    head = BASE.replace(b"pull/1\n", b"pull/11\n")
    history = compare(BASE, head, PATH)
    assert history.kind == CORRECTION and codes(history) == []
    assert history.corrections == [(5, "https://github.com/o/r/pull/11")]


def test_pr_link_corrections_mixed_with_new_entries_are_refused() -> None:
    head = BASE.replace(b"pull/1\n", b"pull/11\n") + b"\n" + entry("c-trt")
    history = compare(BASE, head, PATH)
    assert history.kind == CORRECTION
    assert codes(history) == ["mixed-correction"]
    assert [a.fields["config-keys"] for a in history.appended] == [["c-trt"]]


def test_without_a_base_file_everything_counts_as_appended() -> None:
    history = compare(None, BASE, PATH)
    assert history.kind == NEW and codes(history) == []
    assert [a.line for a in history.appended] == [1, 7]


def test_deleting_the_changelog_is_edited_history() -> None:
    assert codes(compare(BASE, None, PATH)) == ["history-modified"]


def test_appended_entries_are_checked_against_the_yaml_rules_and_kept_for_the_gate() -> None:
    bad_schema = entry("c-trt", extra="  flavour: spicy\n")
    history = compare(BASE, BASE + b"\n" + bad_schema, PATH)
    # the fields are the acceptance rule's to judge (gate/acceptance.py), once
    assert codes(history) == [] and history.appended[0].fields["flavour"] == "spicy"
    assert history.appended[0].field_line("flavour") == 18
    doubled = entry("c-trt", extra='  description:\n    - "again"\n')
    assert codes(compare(BASE, BASE + b"\n" + doubled, PATH)) == ["duplicate-yaml-key"]
    broken = b"- config-keys: [c-trt\n  description: x\n"
    assert codes(compare(BASE, BASE + b"\n" + broken, PATH)) == ["yaml-syntax"]
    wrong_first = b'- description:\n    - "x"\n  config-keys:\n    - c-trt\n  pr-link: XXX\n'
    assert codes(compare(BASE, BASE + b"\n" + wrong_first, PATH)) == ["entry-count"]


def test_byte_problems_in_the_new_bytes_point_at_their_line() -> None:
    head = BASE + b"\n" + entry("c-trt", text="tab\there")
    history = compare(BASE, head, PATH)
    assert codes(history) == ["encoding"]
    assert history.findings[0].line == 16


def test_a_removed_entry_is_named_where_it_was_in_the_branchs_file() -> None:
    """At the line of the entry that now follows it, or at the file's last line when it
    was the last: never past the end, never inside the entry that moved up."""
    three = BASE + b"\n" + entry("c-vllm", link="https://github.com/o/r/pull/3")
    first_gone = three[len(entry("a-sglang") + b"\n") :]
    (finding,) = compare(three, first_gone, PATH).findings
    assert finding.code == "history-modified" and "removed entry 1" in finding.message
    assert finding.line == 1
    last_gone = BASE
    (finding,) = compare(three, last_gone, PATH).findings
    assert "removed entry 3" in finding.message
    assert finding.line == last_gone.rstrip(b"\n").count(b"\n") + 1
