"""What the strict loader builds, and the rules it builds them by: a changelog entry
read another way (:mod:`changelog_tool.ledger.quickread`) is the same :class:`Item`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias

Scalar: TypeAlias = str | int | float | bool | None
"""A plain scalar's value under the YAML 1.2 core schema (:func:`resolve_plain`)."""
YamlValue: TypeAlias = "Scalar | Mapping[str, YamlValue] | Sequence[YamlValue]"
"""A YAML or JSON value with text keys: what an entry, a JSON document and a JSON
Schema instance hold. Read-only views, so a ``dict[str, list[str]]`` is one too;
``isinstance`` narrows it to ``dict`` or ``list``. A value a loader reads from
untrusted bytes is an ``object`` until it is checked (its keys may be numbers)."""


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

    value: object
    line: int
    key_lines: dict[str, int]


_NULL = re.compile(r"^(?:~|null|Null|NULL|)$")
_BOOL = re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$")
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


def resolve_plain(text: str) -> Scalar:
    """The value of a plain (unquoted) scalar under the YAML 1.2 core schema."""
    first = text[:1]
    if first.isalpha() and first not in "tTfFnN":
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
