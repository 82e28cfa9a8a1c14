from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from changelog_tool.errors import ChangelogError
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.emitter import emit, emit_many
from changelog_tool.ledger.strictyaml import load_value

# Anything a person can type: every code point UTF-8 can store (no lone surrogates).
typed_text = st.text(st.characters(exclude_categories=("Cs",)), min_size=1, max_size=300)
key_text = st.from_regex(r"[A-Za-z0-9_.*][A-Za-z0-9_.*+-]{0,40}", fullmatch=True)


@st.composite
def entries(draw: st.DrawFn) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "config-keys": draw(st.lists(key_text, min_size=1, max_size=4)),
        "description": draw(st.lists(typed_text, min_size=1, max_size=4)),
        "pr-link": draw(
            st.sampled_from(["XXX", "https://github.com/SemiAnalysisAI/InferenceX/pull/2391"])
        ),
    }
    if draw(st.booleans()):
        entry["scenario-type"] = draw(
            st.lists(st.sampled_from(["fixed-seq-len", "agentic-coding"]), min_size=1, max_size=2)
        )
    if draw(st.booleans()):
        entry["evals-only"] = draw(st.booleans())
    if draw(st.booleans()):
        entry["eval-min-prefill-ep"] = draw(st.integers(1, 64))
    return entry


@settings(max_examples=300)
@given(entries())
def test_an_emitted_entry_parses_back_to_exactly_the_entry(entry: dict[str, Any]) -> None:
    block = emit(entry)
    assert load_value(block) == [entry]
    text = block.decode("utf-8")
    assert "\t" not in text and "\r" not in text and "\x00" not in text
    assert text.startswith("- config-keys:\n") and text.endswith("\n")
    assert Ledger(block).entry_head_count() == 1
    # one line per list item: descriptions never fold
    expected_lines = 1 + len(entry["config-keys"]) + 1 + len(entry["description"]) + 1
    expected_lines += (1 + len(entry["scenario-type"])) if "scenario-type" in entry else 0
    expected_lines += ("evals-only" in entry) + ("eval-min-prefill-ep" in entry)
    assert text.count("\n") == expected_lines


@given(st.lists(entries(), min_size=1, max_size=4))
def test_several_entries_are_separated_by_exactly_one_empty_line(
    batch: list[dict[str, Any]],
) -> None:
    data = emit_many(list(batch))
    assert load_value(data) == batch
    assert b"\n\n\n" not in data and not data.endswith(b"\n\n")
    assert data.count(b"\n\n") == len(batch) - 1


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


@pytest.mark.parametrize("key", ["true", "null", "123", "1.5", "0x1F", "a: b", "~"])
def test_keys_that_would_read_as_other_types_are_quoted(key: str) -> None:
    block = emit({"config-keys": [key], "description": ["d"], "pr-link": "XXX"})
    assert f'    - "{key}"'.encode() in block
    assert load_value(block)[0]["config-keys"] == [key]


def test_a_lone_surrogate_is_refused_with_a_message() -> None:
    with pytest.raises(ChangelogError, match="lone surrogate"):
        emit({"config-keys": ["a"], "description": ["bad \udc80"], "pr-link": "XXX"})


def test_an_unknown_field_is_refused() -> None:
    with pytest.raises(ChangelogError, match="unknown field"):
        emit({"config-keys": ["a"], "description": ["d"], "pr-link": "XXX", "extra": 1})
