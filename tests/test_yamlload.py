from __future__ import annotations

import pytest

from changelog_tool.ledger.strictyaml import Item, YamlProblem, load_items, load_value


def problem(text: str) -> YamlProblem:
    with pytest.raises(YamlProblem) as caught:
        load_items(text.encode())
    return caught.value


def test_plain_scalars_resolve_with_the_core_schema() -> None:
    assert load_value(b"- [a, 'b', true, False, null, ~, 12, 0x1f, 1.5, '12', 1-2]\n") == [
        ["a", "b", True, False, None, None, 12, 31, 1.5, "12", "1-2"]
    ]


def test_items_know_their_first_line_and_key_lines() -> None:
    items = load_items(b"# head\n- a: 1\n  b: 2\n\n- a: 3\n", line_offset=10)
    assert isinstance(items, list)
    assert [(i.line, i.key_lines) for i in items if isinstance(i, Item)] == [
        (12, {"a": 12, "b": 13}),
        (15, {"a": 15}),
    ]


def test_an_anchor_is_refused_with_its_line() -> None:
    found = problem("- a: 1\n  b: &x [1]\n")
    assert (found.code, found.line) == ("yaml-alias", 2)
    assert "&x" in found.message


def test_an_alias_is_refused() -> None:
    found = problem("- a: [1]\n  b: *x\n")
    assert found.code in ("yaml-alias", "yaml-syntax")


def test_an_alias_to_a_defined_anchor_is_refused_at_the_anchor() -> None:
    found = problem("- a: &x [1]\n  b: *x\n")
    assert (found.code, found.line) == ("yaml-alias", 1)


def test_an_explicit_tag_is_refused() -> None:
    found = problem("- a: 1\n  b: !!str 2\n")
    assert (found.code, found.line) == ("yaml-tag", 2)


def test_a_duplicate_key_is_refused_naming_both_lines() -> None:
    found = problem("- description: x\n  pr-link: a\n  pr-link: b\n")
    assert (found.code, found.line) == ("duplicate-yaml-key", 3)
    assert "first on line 2" in found.message


def test_a_syntax_error_names_its_line() -> None:
    found = problem("- a: 1\n- b: [\n")
    assert found.code == "yaml-syntax"
    assert found.line >= 2


def test_a_mapping_root_is_returned_as_a_value() -> None:
    assert load_items(b"a: 1\n") == {"a": 1}
