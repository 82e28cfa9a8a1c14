"""The package's JSON Schemas (``schema/``), each read once: the changelog's and the settings'."""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.util import find_spec
from pathlib import Path


@cache
def document(name: str = "perf-changelog.schema.json") -> dict[str, object]:
    """A shipped schema: the whole changelog's by default, or ``settings.schema.json``."""
    # beside the package's __init__ (the package is always a folder)
    spec = find_spec("changelog_tool.schema")
    assert spec is not None and spec.origin is not None, "the schema package is installed"
    text = Path(spec.origin).with_name(name)
    loaded: dict[str, object] = json.loads(text.read_text(encoding="utf-8"))
    return loaded


def placeholder_problem(placeholder: str) -> str | None:
    """Why an entry could not hold ``placeholder`` as its pr-link (a clause), or ``None``: both
    its spellings must pass the schema's ``pr-link`` pattern."""
    pattern = re.compile(document()["$defs"]["pr-link"]["pattern"])  # type: ignore[index]
    for link in (placeholder, f"https://github.com/owner/repo/pull/{placeholder}"):
        if not pattern.search(link):
            return (
                f"the entry schema's pr-link pattern refuses {link!r}; a placeholder is "
                "capital letters, such as XXX or TODO"
            )
    return None
