"""What the strict loader builds, and the rule it reads plain scalars by
(:func:`plain_value`, ruamel.yaml's own resolver), without the YAML parser: a
changelog entry read another way (:mod:`changelog_tool.ledger.quickread`) is the
same :class:`Item`, and code that only handles items or problems loads ruamel.yaml
only for a plain scalar that may not be a string (docs/performance.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
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


_STR_TAG = "tag:yaml.org,2002:str"
_BUILT_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "timestamp")
)
_LETTERS = frozenset("tTfFnN")
"""The letters a plain scalar that is not a string can begin with in ruamel's YAML
1.2 reading (``true``, ``false``, ``null``): any other letter begins a string."""


class Unbuildable(ValueError):
    """A plain scalar YAML reads as a number, date or time that it is not
    (``2025-13-01``): no reader can build it."""


@cache
def _ruamel() -> tuple[Any, Any]:
    """ruamel.yaml's safe resolver and constructor (loaded on first use: a plain
    scalar that begins with a letter other than :data:`_LETTERS` never needs them)."""
    from ruamel.yaml import YAML

    loader = YAML(typ="safe", pure=False)
    return loader.resolver, loader.constructor


@lru_cache(maxsize=4096)
def plain_value(text: str) -> Any:
    """The value of a plain (unquoted) scalar as ruamel.yaml's safe loader builds it,
    the YAML 1.2 reading of every file the tool reads (the master configs' loader,
    :mod:`changelog_tool.yaml.limits`, builds the same): ``1_000`` and ``0x_1F`` are
    numbers, ``2024-01-01`` a date, as they are to YAML 1.1 (PyYAML) too. Raises
    :class:`Unbuildable` for a scalar whose tag says what it is not."""
    first = text[:1]
    if first.isalpha() and first not in _LETTERS:
        return text
    from ruamel.yaml.nodes import ScalarNode

    resolver, constructor = _ruamel()
    tag = str(resolver.resolve(ScalarNode, text, (True, False)))
    if tag not in _BUILT_TAGS:
        return text  # a string, or a tag only a whole document gives meaning (<<, =)
    try:
        return constructor.construct_non_recursive_object(ScalarNode(tag, text))
    except (ValueError, LookupError, TypeError, ArithmeticError) as exc:
        kind = tag.rsplit(":", 1)[1]
        raise Unbuildable(
            f"{text!r} reads as a YAML {kind} but is not a valid one ({exc}); quote it "
            "to keep it as text"
        ) from None


def resolve_plain(text: str) -> Any:
    """:func:`plain_value`, with a scalar no reader can build left as text (for the
    readers that leave refusing it to the strict loader: the quick reader, the
    emitter's check)."""
    try:
        return plain_value(text)
    except Unbuildable:
        return text
