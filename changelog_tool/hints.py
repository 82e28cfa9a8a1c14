"""Hints for a person who mistyped a name: the one "did you mean"."""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean X?)`` with the closest candidate, or an empty string."""
    close = difflib.get_close_matches(word, list(candidates), n=1)
    return f" (did you mean {close[0]}?)" if close else ""
