"""Validation and the emitter agree: an entry that passes ``schema_errors`` is written
(and read back exactly by PyYAML and ruamel.yaml); an entry the emitter refuses fails
validation; the emitter refuses with a ``ChangelogError``, never a crash."""

from __future__ import annotations

from typing import Any

from hypothesis import event, example, given, settings
from hypothesis import strategies as st
from yaml_oracles import TRICKY, assert_both_read

from changelog_tool.errors import ChangelogError
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.entry import normalize, scenario_types, schema_errors
from changelog_tool.ledger.entryschema import builtin

# What JSON on stdin can hold (json.loads also takes NaN and Infinity), and what a
# YAML file can: any scalar, lists and mappings of them, lone surrogates included.
json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 10**6),
    st.floats(),
    st.sampled_from([1.0, 2.0, 1e3, -1.0, 0.0]),
    st.text(max_size=20),
    st.sampled_from(["2", "1", "true", "a\udc80", "XXX\n", "a\n"]),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=6,
)
GOOD: dict[str, st.SearchStrategy[Any]] = {
    "config-keys": st.lists(
        st.from_regex(r"[A-Za-z0-9_.*][A-Za-z0-9_.*+-]{0,20}", fullmatch=True)
        | st.sampled_from(["yes", "on", "1_000", "012", "1e3", ".5", "0x1F", "NaN", ".inf"]),
        min_size=1,
        max_size=3,
    ),
    "scenario-type": st.lists(st.sampled_from(scenario_types()), min_size=1, max_size=2),
    "description": st.lists(st.text(min_size=1) | st.sampled_from(TRICKY), min_size=1, max_size=3),
    "pr-link": st.sampled_from(
        ["XXX", "https://github.com/o/r/pull/7", "https://github.com/o/r/pull/XXX"]
    ),
    "evals-only": st.booleans(),
    "all-evals": st.booleans(),
    "no-evals": st.booleans(),
    "append-only": st.booleans(),
    "eval-min-prefill-ep": st.integers(1, 64),
}
REQUIRED = ("config-keys", "description", "pr-link")


@st.composite
def json_entries(draw: st.DrawFn) -> dict[str, Any]:
    """Mostly good values, some of any shape; optional fields often absent."""
    entry: dict[str, Any] = {}
    for field in builtin().names:
        choice = draw(st.integers(0, 15))
        if choice < 5 and field not in REQUIRED:
            continue
        if choice == 5:
            entry[field] = draw(json_values)
        elif choice == 6 and field in ("config-keys", "scenario-type", "description"):
            entry[field] = draw(st.lists(json_scalars, min_size=1, max_size=3))
        else:
            entry[field] = draw(GOOD[field])
    return entry


@settings(max_examples=300, deadline=None)
@given(json_entries())
@example({"config-keys": ["a"], "description": ["d"], "pr-link": "XXX", "eval-min-prefill-ep": 1.0})
@example({"config-keys": ["a"], "description": ["d"], "pr-link": "XXX", "eval-min-prefill-ep": 1e3})
@example(
    {"config-keys": ["a"], "description": ["d"], "pr-link": "XXX", "eval-min-prefill-ep": True}
)
@example({"config-keys": ["a"], "description": ["d"], "pr-link": "XXX", "evals-only": 1})
@example({"config-keys": ["a"], "description": ["d \udc80"], "pr-link": "XXX"})
@example({"config-keys": ["a\n"], "description": ["d"], "pr-link": "XXX\n"})
@example({"config-keys": "a", "description": "d", "pr-link": 7})
def test_what_validation_accepts_is_written_and_what_the_emitter_refuses_is_invalid(
    raw: dict[str, Any],
) -> None:
    entry = normalize(raw)  # what `add` validates and emits
    errors = schema_errors(entry)
    try:
        block = emit(entry)
    except ChangelogError as refusal:
        assert errors, f"valid by the schema, refused by the emitter: {refusal}"
        event("invalid, and refused by the emitter too")
        return
    if not errors:
        assert_both_read(block, [entry])
    event("written; " + ("valid, read back by both" if not errors else "invalid"))
