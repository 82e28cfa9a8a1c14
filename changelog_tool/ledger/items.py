"""What the strict loader builds, and the rules it builds them by, without the YAML
parser: a changelog entry read another way (:mod:`changelog_tool.ledger.quickread`)
is the same :class:`Item`, and code that only handles items or problems does not
load ruamel.yaml (~40 ms of the merge driver's start on a 2-core machine).
"""

from __future__ import annotations

import re
from typing import Any

from changelog_tool.records import record

MAX_DEPTH = 100
"""Nested mappings and lists in one document (the root counting 1)."""


@record(frozen=True)
class YamlProblem(Exception):
    """A YAML document the changelog refuses. ``line`` is 1-based."""

    code: str
    message: str
    line: int

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@record
class Item:
    """A top-level sequence item: its value and the 1-based line it starts on."""

    value: Any
    line: int
    key_lines: dict[str, int]


_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


# any of the four: most scalars (keys, links, words) are none, and are told so at once
_NOT_TEXT = re.compile("|".join(f"(?:{p.pattern})" for p in (_NULL, _BOOL, _INT, _FLOAT)))


def resolve_plain(text: str) -> Any:
    """The value of a plain (unquoted) scalar under the YAML 1.2 core schema."""
    first = text[:1]
    if (first.isalpha() and first not in "tTfFnN") or not _NOT_TEXT.match(text):
        return text  # only null, bool, int and float words begin with n, t, f or no letter
    if _NULL.match(text):
        return None
    if _BOOL.match(text):
        return text.lower() == "true"
    if _INT.match(text):
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text)
    if _FLOAT.match(text):
        special = text.lstrip("+-").lower()
        if special in (".inf", ".nan"):
            return float(text.lower().replace(".", ""))
        return float(text)
    return text
