"""The conflict a refused merge leaves: git's markers read back towards one side,
and the one conflict that keeps both sides whole."""

from __future__ import annotations

from merge_helpers import appended, changelog, entry

from changelog_tool.merge.conflict import resolved_to, whole_conflict

A, B, M = entry("a", link=1), entry("b", link=2), entry("m", link=3)


def test_gits_markers_read_back_towards_either_side_in_both_conflict_styles() -> None:
    merged = b"x\n<<<<<<< ours\no\n=======\nt\n>>>>>>> theirs\ny\n"
    diff3 = b"x\n<<<<<<< ours\no\n||||||| base\nb\n=======\nt\n>>>>>>> theirs\ny\n"
    for text in (merged, diff3):
        assert resolved_to(text, "ours") == b"x\no\ny\n"
        assert resolved_to(text, "theirs") == b"x\nt\ny\n"


def test_a_text_merge_that_edited_the_protected_side_outside_its_markers_is_caught() -> None:
    ours = changelog(A, B)
    edited = ours.replace(b"Update a", b"Edit a")
    conflict = b"<<<<<<< ours\n=======\nnew\n>>>>>>> theirs\n"
    assert resolved_to(ours + conflict, "ours").startswith(ours)
    assert not resolved_to(edited + conflict, "ours").startswith(ours)


def test_the_whole_conflict_starts_at_the_entry_where_the_sides_first_differ() -> None:
    ours, theirs = appended(changelog(A, B), M), changelog(A, B.replace(b"Update b", b"Edit b"))
    conflict = whole_conflict(ours, theirs)
    shared = A + b"\n"  # entry a and the empty line after it
    assert conflict == (
        shared
        + b"<<<<<<< ours\n"
        + ours[len(shared) :]
        + b"=======\n"
        + theirs[len(shared) :]
        + b">>>>>>> theirs\n"
    )
    assert resolved_to(conflict, "ours") == ours and resolved_to(conflict, "theirs") == theirs


def test_a_side_without_a_final_newline_still_closes_its_section() -> None:
    conflict = whole_conflict(A + b"x", A + b"y")
    assert conflict.endswith(b"x\n=======\n" + A + b"y\n>>>>>>> theirs\n")
