"""What the strict loader builds (:class:`Item`), and how every reader reads plain scalars
(:func:`plain_value`, ruamel.yaml's resolver)."""

from __future__ import annotations

import datetime
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeAlias

from ruamel.yaml import YAML
from ruamel.yaml.nodes import ScalarNode

from changelog_tool.yaml.limits import BUILD_ERRORS, build_error, clipped

Scalar: TypeAlias = str | int | float | bool | None
"""A JSON scalar; a plain YAML scalar may also be a date (:func:`plain_value`)."""
YamlValue: TypeAlias = "Scalar | Mapping[str, YamlValue] | Sequence[YamlValue]"
"""A YAML or JSON value with text keys: what an entry, a JSON document and a JSON
Schema instance hold. Read-only views, so a ``dict[str, list[str]]`` is one too;
``isinstance`` narrows it to ``dict`` or ``list``. A value a loader reads from
untrusted bytes is an ``object`` until it is checked (its keys may be numbers)."""


@dataclass(unsafe_hash=True)
class YamlProblem(Exception):
    """A YAML document the changelog refuses; ``line`` is 1-based. Not frozen: raising sets
    ``__traceback__``."""

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


STR_TAG = "tag:yaml.org,2002:str"
BUILT_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}" for name in ("null", "bool", "int", "float", "timestamp")
)
_LETTERS = frozenset("tTfFnN")
"""The letters a plain scalar that is not a string can begin with in ruamel's YAML
1.2 reading (``true``, ``false``, ``null``): any other letter begins a string."""


class Unbuildable(ValueError):
    """A plain scalar that reads as a number, date or time it is not (``2025-13-01``)."""


_SAFE = YAML(typ="safe", pure=False)
"""ruamel.yaml's safe loader: its resolver and constructor read plain scalars."""


_BUILDING = threading.Lock()
"""One scalar built at a time: the TUI reads in worker threads, the loader is shared."""


@lru_cache(maxsize=4096)
def plain_tag(text: str) -> str:
    """The tag ruamel.yaml's YAML 1.2 resolver gives a plain (unquoted) scalar."""
    first = text[:1]
    if first.isalpha() and first not in _LETTERS:
        return STR_TAG
    with _BUILDING:
        return str(_SAFE.resolver.resolve(ScalarNode, text, (True, False)))


@lru_cache(maxsize=4096)
def plain_value(text: str) -> Scalar | datetime.date:
    """A plain scalar's value as ruamel.yaml's safe loader builds it (YAML 1.2); raises
    :class:`Unbuildable` when its tag says what it is not."""
    tag = plain_tag(text)
    if tag not in BUILT_TAGS:
        return text  # a string, or a tag only a whole document gives meaning (<<, =)
    try:
        with _BUILDING:
            value: Scalar | datetime.date = _SAFE.constructor.construct_non_recursive_object(
                ScalarNode(tag, text)
            )
        return value
    except BUILD_ERRORS as exc:
        kind = tag.rsplit(":", 1)[1]
        raise Unbuildable(
            f"{clipped(text)} reads as a YAML {kind} but is not a valid one "
            f"({build_error(exc)}); quote it to keep it as text"
        ) from None
