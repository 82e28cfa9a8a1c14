from __future__ import annotations

import pytest

from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.limits import MAX_DEPTH
from changelog_tool.yaml.strict import load_items, load_value


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


def test_nesting_past_the_limit_is_refused_at_its_line_before_the_rest_is_read() -> None:
    for depth in (1_000, 1_000_000):  # Python's recursion; libyaml's cost grows with depth
        deep = "[" * depth + "]" * depth
        found = problem(f"- config-keys: [a]\n  description:\n    - {deep}\n")
        assert (found.code, found.line) == ("yaml-syntax", 3)
        assert f"deeper than {MAX_DEPTH} levels" in found.message


def test_nesting_within_the_limit_reads() -> None:
    depth = MAX_DEPTH - 2  # the list of entries and the entry are two levels
    value = load_value(("- a: " + "[" * depth + "]" * depth + "\n").encode())[0]["a"]
    for _ in range(depth - 1):
        (value,) = value
    assert value == []


def test_lines_count_lf_only_as_the_ledger_does() -> None:
    # libyaml breaks lines at U+2028 (inside quotes too), U+0085 and a lone CR as well
    items = load_items('- a: "one\u2028two"\n  b: 1\n- c: "\u0085"\n- d: 2\n'.encode())
    assert [(i.line, i.key_lines) for i in items] == [
        (1, {"a": 1, "b": 2}),
        (3, {"c": 3}),
        (4, {"d": 4}),
    ]
    assert [i.line for i in load_items(b"- a: 1\r- b: 2\r")] == [1, 1]
    found = problem("- a: 1\r- b: [\r\n- c: 3\n- d: {\n")
    assert found.line == 2  # "- c" inside the open flow list: the second LF-separated line


def test_nan_and_infinity_in_every_spelling_resolve_as_yaml_1_2_says() -> None:
    import math

    from changelog_tool.yaml.items import plain_value

    assert all(math.isnan(plain_value(t)) for t in (".nan", ".NaN", ".NAN"))
    assert [plain_value(t) for t in (".inf", "-.Inf", "+.INF")] == [math.inf, -math.inf, math.inf]
