"""A config-keys pattern: ``*`` matches any run of characters, all else is literal,
the whole key must match; in time linear in the key, whatever the pattern."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from changelog_tool.ledger.entry import matches, matching_keys


def _oracle(pattern: str, key: str) -> bool:
    regex = "".join(".*" if c == "*" else re.escape(c) for c in pattern)
    return re.fullmatch(regex, key, re.DOTALL) is not None


@settings(max_examples=2000, deadline=None)
@given(st.text("ab*-", max_size=8), st.text("ab-", max_size=10))
@example("a*", "a")
@example("*a*", "a")
@example("a*a", "a")
@example("**", "")
@example("a*b*a", "aba")
def test_a_pattern_matches_as_the_glob_reading_of_it(pattern: str, key: str) -> None:
    assert matches(pattern, key) is _oracle(pattern, key)


def test_a_pattern_built_to_backtrack_is_answered_at_once() -> None:
    """``*a*a*...*b`` against a long key of ``a``s: a regex of ``.*`` runs tries every
    way to split the key (minutes at 30 stars); reading the parts in order is one pass."""
    key = "a" * 60
    assert not matches("*a" * 30 + "*b", key)
    assert not matches("*" * 40 + "z", key)
    assert matching_keys("*a" * 30 + "*", [key, "b"]) == [key]
