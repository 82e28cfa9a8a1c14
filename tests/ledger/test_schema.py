from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from changelog_tool.ledger.entry import schema_errors
from changelog_tool.settings import schema_document as schema

GOOD: dict[str, Any] = {
    "config-keys": ["kimik3-fp4-b200-dynamo-vllm-agentic"],
    "scenario-type": ["agentic-coding"],
    "description": ["Add TP8 x PP2 aggregated recipe across 2 B200 nodes"],
    "pr-link": "https://github.com/SemiAnalysisAI/InferenceX/pull/2391",
}


def test_the_schema_file_is_a_valid_2020_12_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(schema())
    assert schema()["$schema"] == "https://json-schema.org/draft/2020-12/schema"


def test_a_whole_file_validates_against_the_root_schema() -> None:
    validator = jsonschema.Draft202012Validator(schema())
    assert validator.is_valid([GOOD, {**GOOD, "pr-link": "XXX", "evals-only": True}])
    assert not validator.is_valid({"config-keys": ["a"]})


def test_a_good_entry_has_no_errors() -> None:
    assert schema_errors(GOOD) == []
    assert schema_errors({**GOOD, "pr-link": "https://github.com/o/r/pull/XXX"}) == []
    assert schema_errors({**GOOD, "all-evals": True, "eval-min-prefill-ep": 2}) == []


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        ({"config-keys": []}, [("config-keys", "[] should be non-empty")]),
        ({"description": "text"}, [("description", "'text' is not of type 'array'")]),
        (
            {"description": [""]},
            [("description/0", "'' is empty: a description bullet needs some text")],
        ),
        (
            {"scenario-type": ["long-context"]},
            [
                (
                    "scenario-type/0",
                    "'long-context' is not a scenario type the entry schema lists "
                    "(fixed-seq-len, agentic-coding); to add a scenario type, name a schema "
                    "file in the `entry-schema` setting and declare it there "
                    "(docs/usage.md, 'Adding a field')",
                )
            ],
        ),
        ({"evals-only": "yes"}, [("evals-only", "'yes' is not of type 'boolean'")]),
        ({"eval-min-prefill-ep": 0}, [("eval-min-prefill-ep", "0 is less than the minimum of 1")]),
        (
            {"append-only": True, "evals-only": True},
            [
                (
                    "(entry)",
                    "append-only cannot be combined with evals-only, all-evals or "
                    "eval-min-prefill-ep",
                )
            ],
        ),
        (
            {"pr-link": "http://example.com/1"},
            [
                (
                    "pr-link",
                    "'http://example.com/1' is not a pull-request link "
                    "(https://github.com/<owner>/<repo>/pull/<n>) or a placeholder such as XXX",
                )
            ],
        ),
        (
            {"config-keys": ["bad key"]},
            [
                (
                    "config-keys/0",
                    "'bad key' is not a config key or pattern "
                    "(letters, digits, '.', '_', '+', '-' and '*')",
                )
            ],
        ),
    ],
)
def test_invalid_entries_name_the_field_and_the_rule(
    change: dict[str, Any], expected: list[tuple[str, str]]
) -> None:
    assert schema_errors({**GOOD, **change}) == expected


def test_missing_and_extra_fields_are_named() -> None:
    entry = {k: v for k, v in GOOD.items() if k != "pr-link"} | {"notes": "x"}
    errors = schema_errors(entry)
    assert ("(entry)", "'pr-link' is a required property") in errors
    assert any(
        path == "(entry)" and "'notes' was unexpected" in message and "allowed fields" in message
        for path, message in errors
    )


def test_the_schema_ships_inside_the_package() -> None:
    from importlib import resources

    text = resources.files("changelog_tool.schema").joinpath("perf-changelog.schema.json")
    assert json.loads(text.read_text(encoding="utf-8")) == schema()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (1.0, "1.0 is not an integer: write it as 1 (no decimal point or exponent)"),
        (1e3, "1000.0 is not an integer: write it as 1000 (no decimal point or exponent)"),
        (2.5, "2.5 is not an integer: write a whole number such as 1"),
        (float("nan"), "nan is not an integer: write a whole number such as 1"),
        (True, "true is a boolean, not an integer: write a whole number such as 1"),
        (False, "false is a boolean, not an integer: write a whole number such as 1"),
        ("2", "'2' is a string, not an integer: write it as 2, without quotes"),
        ("two", "'two' is a string, not an integer: write a whole number such as 1"),
        ([1], "[1] is not an integer: write a whole number such as 1"),
    ],
)
def test_eval_min_prefill_ep_is_an_integer_not_a_float_a_boolean_or_a_string(
    value: Any, message: str
) -> None:
    assert schema_errors({**GOOD, "eval-min-prefill-ep": value}) == [
        ("eval-min-prefill-ep", message)
    ]


def test_a_fraction_below_one_breaks_both_rules() -> None:
    assert schema_errors({**GOOD, "eval-min-prefill-ep": 0.5}) == [
        ("eval-min-prefill-ep", "0.5 is not an integer: write a whole number such as 1"),
        ("eval-min-prefill-ep", "0.5 is less than the minimum of 1"),
    ]


@pytest.mark.parametrize(
    ("change", "path"),
    [
        ({"config-keys": ["a\n"]}, "config-keys/0"),
        ({"config-keys": ["a", "b*\n"]}, "config-keys/1"),
        ({"pr-link": "XXX\n"}, "pr-link"),
        ({"pr-link": "https://github.com/o/r/pull/1\n"}, "pr-link"),
    ],
)
def test_a_trailing_newline_does_not_slip_past_a_pattern(change: dict[str, Any], path: str) -> None:
    """Python's ``$`` also matches before a final newline; ECMA-262's (the schema's
    dialect) does not. Both must refuse the same strings."""
    assert [p for p, _ in schema_errors({**GOOD, **change})] == [path]


@pytest.mark.parametrize(
    ("change", "path", "said"),
    [
        ({"description": ["ok", "bad \udc80 text"]}, "description/1", "the byte 0x80"),
        ({"pr-link": "XX\ud800"}, "pr-link", "lone surrogate"),
    ],
)
def test_a_lone_surrogate_is_refused_by_validation_naming_the_field(
    change: dict[str, Any], path: str, said: str
) -> None:
    errors = schema_errors({**GOOD, **change})
    assert any(p == path and said in m for p, m in errors), errors
