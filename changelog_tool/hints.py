"""Hints for a person at the terminal: the one "did you mean", and the one way a
path is shown to them."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable

TROUBLESHOOTING = "docs/troubleshooting.md"


def see(section: str) -> str:
    """The troubleshooting page and section heading that say more about a message."""
    return f"see '{section}' in perf-changelog's {TROUBLESHOOTING}"


def closest(word: str, candidates: Iterable[str], cutoff: float = 0.6) -> str | None:
    """The candidate close enough to ``word`` to be a misspelling (``cutoff``: difflib ratio)."""
    close = difflib.get_close_matches(word, list(candidates), n=1, cutoff=cutoff)
    return close[0] if close else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean X?)`` with the closest candidate, or an empty string."""
    close = closest(word, candidates)
    return f" (did you mean {close}?)" if close else ""


def relative(path: str | os.PathLike[str]) -> str:
    """``path`` relative to the current folder when they share one below the root, else absolute."""
    where = os.path.abspath(path)
    here = os.getcwd()
    try:
        if os.path.commonpath([where, here]) == os.path.abspath(os.sep):
            return where
        return os.path.relpath(where, here)
    except ValueError:  # another drive (Windows)
        return where
