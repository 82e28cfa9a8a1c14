"""The YAML 1.1 reading the gate compares master configs by, held to PyYAML's own
safe loader (what benchmark jobs read them with): every tricky plain scalar, and
generated documents with anchors, merges and repeated keys."""

from __future__ import annotations

import math
from typing import Any

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from yaml_oracles import TRICKY

from changelog_tool.yaml import yaml11


def same(a: Any, b: Any) -> bool:
    """Equal with the same type at every level; a NaN equals a NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def readings(data: bytes) -> tuple[Any, Any]:
    """(PyYAML's value or its refusal, ours or our refusal): a refusal is ``Ellipsis``."""
    try:
        theirs = yaml.safe_load(data)
    except yaml.YAMLError:
        theirs = ...
    try:
        ours = yaml11.load(data)
    except Exception:  # any refusal: Unreadable, ruamel's YAMLError
        ours = ...
    return theirs, ours


@pytest.mark.parametrize("text", [t for t in TRICKY if "\n" not in t])
def test_every_tricky_plain_scalar_reads_as_pyyaml_reads_it(text: str) -> None:
    data = f"x: {text}\n".encode()
    theirs, ours = readings(data)
    if theirs is ... or ours is ...:
        assert theirs is ours, (text, theirs, ours)  # both refuse, or neither
        return
    assert same(ours, theirs), (text, ours, theirs)


SCALARS = st.sampled_from(
    [t for t in TRICKY if t.strip() == t and t and not set(t) & set("#&*!|>'\"%@`[]{},?:\\\t")]
    + ['"on"', "'010'", '"1e3"', "10", "010", "1000.0", "1e3", "x y"]
)
KEYS = st.sampled_from(["a", "b", "c", "on", "yes", "1", "010", "<<x"])


@st.composite
def documents(draw: st.DrawFn) -> str:
    """A mapping of mappings, with anchors on some values, aliases and ``<<`` merges
    (one mapping or a list) naming them, and repeated keys."""
    lines, anchors = [], []
    for index in range(draw(st.integers(1, 5))):
        lines.append(f"k{index}:")
        fields = draw(st.lists(st.tuples(KEYS, SCALARS), min_size=1, max_size=4))
        if anchors and draw(st.booleans()):
            names = draw(st.lists(st.sampled_from(anchors), min_size=1, max_size=3))
            merged = (
                f"*{names[0]}" if len(names) == 1 else "[" + ", ".join(f"*{n}" for n in names) + "]"
            )
            lines.append(f"  <<: {merged}")
        for key, value in fields:
            lines.append(f"  {key}: {value}")
        if draw(st.booleans()):
            name = f"a{index}"
            anchors.append(name)
            flow = ", ".join(
                f"{k}: {v}"
                for k, v in draw(st.lists(st.tuples(KEYS, SCALARS), min_size=1, max_size=3))
            )
            lines.append(f"  s{index}: &{name} {{ {flow} }}")
    return "\n".join(lines) + "\n"


@settings(max_examples=400, deadline=None)
@given(documents())
def test_generated_documents_read_as_pyyaml_reads_them(document: str) -> None:
    theirs, ours = readings(document.encode())
    if theirs is ... or ours is ...:
        assert theirs is ours, (document, theirs, ours)
        return
    assert same(ours, theirs), (document, ours, theirs)


@pytest.mark.parametrize(
    "document",
    [
        "a: &a {tp: 8, x: 1}\nb: &b {tp: 4, y: 2}\nc:\n  <<: [*a, *b]\n",  # the later tp wins
        "a: &a {t: 8, x: 1}\nb: &b {t: 4, y: 2}\nc:\n  <<: [*a, *b]\n",  # the first t wins
        "a: &a {t: 1, t: 2, on: 1, on: 2}\nc:\n  <<: *a\n",
        "a: &a {tp: 8}\nc:\n  tp: 1\n  <<: *a\n",  # the mapping's own key wins
        "x: 1\nx: 2\n",  # a repeated key keeps its last value
        'f:\n  "on": 1\n  true: 2\n',
        "t: 2024-01-01 10:00:00.5 +01:00\nd: 2024-01-01\n",
        "b: !!binary aGk=\ni: !!int '010'\ns: !!str 1\n",
    ],
)
def test_merges_repeats_tags_and_times_read_as_pyyaml_reads_them(document: str) -> None:
    theirs, ours = readings(document.encode())
    assert theirs is not ... and same(ours, theirs), (ours, theirs)


@pytest.mark.parametrize(
    "document",
    ["a: [1]\nb: {? [1] : 2}\n", "a: !!python/object:os.system {}\n", "c:\n  <<: [1]\n", "=\n"],
)
def test_what_pyyaml_refuses_is_unreadable(document: str) -> None:
    theirs, ours = readings(document.encode())
    assert theirs is ... and ours is ...
