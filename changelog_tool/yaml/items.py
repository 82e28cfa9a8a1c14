"""What the strict loader builds, and the rules it builds them by, without the YAML
parser: a changelog entry read another way (:mod:`changelog_tool.ledger.quickread`)
is the same :class:`Item`, and code that only handles items or problems does not
load ruamel.yaml (most of the merge driver's start: docs/performance.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any


@dataclass(frozen=True)
class YamlProblem(Exception):
    """A YAML document the changelog refuses. ``line`` is 1-based."""

    code: str
    message: str
    line: int

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class Item:
    """A top-level sequence item: its value and the 1-based line it starts on."""

    value: Any
    line: int
    key_lines: dict[str, int]


_NULL = r"^(?:~|null|Null|NULL|)$"
_BOOL = r"^(?:true|True|TRUE|false|False|FALSE)$"
_INT = r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$"
_FLOAT = (
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


@cache
def _patterns() -> tuple[re.Pattern[str], ...]:
    """Any of the four words, then each: compiled on first use (most scalars begin
    with a letter that rules them all out, and many runs never need them)."""
    words = (_NULL, _BOOL, _INT, _FLOAT)
    return (re.compile("|".join(f"(?:{w})" for w in words)), *map(re.compile, words))


def resolve_plain(text: str) -> Any:
    """The value of a plain (unquoted) scalar under the YAML 1.2 core schema."""
    first = text[:1]
    if first.isalpha() and first not in "tTfFnN":
        return text  # only null, bool, int and float words begin with n, t, f or no letter
    not_text, null, boolean, integer, number = _patterns()
    if not not_text.match(text):
        return text
    if null.match(text):
        return None
    if boolean.match(text):
        return text.lower() == "true"
    if integer.match(text):
        if text.startswith("0o"):
            return int(text[2:], 8)
        if text.startswith("0x"):
            return int(text[2:], 16)
        return int(text)
    if number.match(text):
        special = text.lstrip("+-").lower()
        if special in (".inf", ".nan"):
            return float(text.lower().replace(".", ""))
        return float(text)
    return text
