from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from yaml_oracles import TRICKY, assert_both_read

from changelog_tool.errors import ChangelogError
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.entry import scenario_types
from changelog_tool.yaml.strict import load_value

# Anything a person can type: every code point UTF-8 can store (no lone surrogates).
typed_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=300)
key_text = st.from_regex(r"[A-Za-z0-9_.*][A-Za-z0-9_.*+-]{0,40}", fullmatch=True)
link_text = st.from_regex(
    r"https://github\.com/[A-Za-z0-9_.-]{1,12}/[A-Za-z0-9_.-]{1,12}/pull/([0-9]{1,5}|[A-Z]{1,3})",
    fullmatch=True,
)
tricky = st.sampled_from(TRICKY)
# Keys and links: mostly what the schema allows, but the emitter writes any text.
keys = st.one_of(key_text, tricky, typed_text)
links = st.one_of(st.sampled_from(["XXX", "TBD"]), link_text, tricky, typed_text)
descriptions = st.one_of(typed_text, tricky)
ALL_TRICKY: dict[str, Any] = {
    "config-keys": TRICKY,
    "scenario-type": scenario_types(),
    "description": TRICKY,
    "pr-link": "yes",
    "evals-only": False,
    "all-evals": True,
    "eval-min-prefill-ep": 1,
}


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "config-keys": draw(st.lists(keys, min_size=1, max_size=4)),
        "description": draw(st.lists(descriptions, min_size=1, max_size=4)),
        "pr-link": draw(links),
    }
    if draw(st.booleans()):
        entry["scenario-type"] = draw(
            st.lists(st.sampled_from(scenario_types()), min_size=1, max_size=2)
        )
    for flag in ("evals-only", "all-evals", "append-only"):
        if draw(st.integers(0, 3)) == 0:
            entry[flag] = draw(st.booleans())
    if draw(st.booleans()):
        entry["eval-min-prefill-ep"] = draw(st.integers(1, 10**6))
    return entry


def line_count(entry: dict[str, Any]) -> int:
    lists = ("config-keys", "scenario-type", "description")
    return sum(1 + len(entry[f]) if f in lists else 1 for f in entry)


@settings(max_examples=300, deadline=None)
@given(entries())
@example(ALL_TRICKY)
@example({**ALL_TRICKY, "pr-link": "1:20", "config-keys": ["0x1F", "012"], "append-only": True})
@example({"config-keys": ["2024-01-01"], "description": ["12:30:00"], "pr-link": "~"})
@example({"config-keys": ["on"], "description": ["NaN"], "pr-link": ".inf"})
def test_pyyaml_and_ruamel_read_an_emitted_entry_as_exactly_the_entry(
    entry: dict[str, Any],
) -> None:
    block = emit(entry)
    assert_both_read(block, [entry])
    text = block.decode("utf-8")
    assert "\t" not in text and "\r" not in text and "\x00" not in text
    assert text.startswith("- config-keys:\n") and text.endswith("\n")
    assert len(re.findall(rb"^- config-keys:", block, re.MULTILINE)) == 1  # as CI counts
    assert text.count("\n") == line_count(entry)  # one line per item: nothing folds


@settings(max_examples=50, deadline=None)
@given(st.lists(entries(), min_size=1, max_size=4))
def test_several_entries_are_separated_by_exactly_one_empty_line(
    batch: list[dict[str, Any]],
) -> None:
    data = b"\n".join(emit(entry) for entry in batch)  # as an append joins them
    assert_both_read(data, batch)
    assert load_value(data) == batch
    assert b"\n\n\n" not in data and not data.endswith(b"\n\n")
    assert data.count(b"\n\n") == len(batch) - 1


@pytest.mark.parametrize("text", TRICKY)
def test_a_tricky_scalar_reads_back_as_the_same_string_in_every_field(text: str) -> None:
    for field in ("config-keys", "description", "pr-link"):
        entry: dict[str, Any] = {"config-keys": ["a"], "description": ["d"], "pr-link": "XXX"}
        entry[field] = text if field == "pr-link" else [text]
        assert_both_read(emit(entry), [entry])


def test_the_block_has_the_files_prevailing_style() -> None:
    block = emit(
        {
            "pr-link": "https://github.com/SemiAnalysisAI/InferenceX/pull/2391",
            "description": ['Add TP8 x PP2 aggregated recipe: "fast" # yes'],
            "append-only": True,
            "scenario-type": ["agentic-coding"],
            "config-keys": ["kimik3-fp4-b200-dynamo-vllm-agentic", "*-b200-*"],
        }
    )
    assert block.decode() == (
        "- config-keys:\n"
        "    - kimik3-fp4-b200-dynamo-vllm-agentic\n"
        '    - "*-b200-*"\n'
        "  scenario-type:\n"
        "    - agentic-coding\n"
        "  description:\n"
        '    - "Add TP8 x PP2 aggregated recipe: \\"fast\\" # yes"\n'
        "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/2391\n"
        "  append-only: true\n"
    )


def test_a_two_thousand_character_description_stays_on_one_line() -> None:
    text = "word " * 400
    block = emit({"config-keys": ["a"], "description": [text], "pr-link": "XXX"})
    assert block.count(b"\n") == 5
    assert load_value(block)[0]["description"] == [text]


QUOTED = ["true", "null", "123", "1.5", "0x1F", "a: b", "~", "yes", "on", "1_000", "012"]
QUOTED += [".5", "1e3", "0b101", "1:20", "2024-01-01", "12:30:00", ".NaN", ".inf", "<<", "="]


@pytest.mark.parametrize("key", QUOTED)
def test_keys_that_would_read_as_other_types_are_quoted(key: str) -> None:
    entry = {"config-keys": [key], "description": ["d"], "pr-link": "XXX"}
    block = emit(entry)
    assert f'    - "{key}"\n'.encode() in block
    assert_both_read(block, [entry])


def test_a_lone_surrogate_is_refused_with_a_message() -> None:
    with pytest.raises(ChangelogError, match="lone surrogate"):
        emit({"config-keys": ["a"], "description": ["bad \ud800"], "pr-link": "XXX"})


def test_a_byte_of_an_argument_that_is_not_utf8_is_named_as_a_byte() -> None:
    """Python keeps such a byte as U+DC80..U+DCFF; the message names the byte."""
    with pytest.raises(ChangelogError, match="holds the byte 0xFF, which is not UTF-8"):
        emit({"config-keys": ["a"], "description": ["bad \udcff"], "pr-link": "XXX"})


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(ChangelogError, match="unknown field"):
        emit({"config-keys": ["a"], "description": ["d"], "pr-link": "XXX", "extra": 1})
