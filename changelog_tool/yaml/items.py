"""What the strict loader builds (:class:`Item`), what every YAML reader refuses with
(:class:`YamlProblem`), and how every reader reads plain scalars (:func:`plain_value`)."""

from __future__ import annotations

import datetime
import sys
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TypeAlias

from ruamel.yaml import YAML
from ruamel.yaml.nodes import ScalarNode

Scalar: TypeAlias = str | int | float | bool | None
"""A JSON scalar; a plain YAML scalar may also be a date (:func:`plain_value`)."""
YamlValue: TypeAlias = "Scalar | Mapping[str, YamlValue] | Sequence[YamlValue]"
"""A YAML or JSON value with text keys (read-only views, so a ``dict[str, list[str]]`` is one
too). A value read from untrusted bytes is an ``object`` until checked (keys may be numbers)."""


@dataclass(unsafe_hash=True)
class YamlProblem(Exception):
    """YAML a reader refuses: ``line`` is 1-based (LF lines), 1 where the reader gives none
    (``None``: shown without one); ``key``, the master key it is about. Not frozen: raising
    sets ``__traceback__``."""

    code: str
    message: str
    line: int | None = 1
    key: str | None = None

    def __str__(self) -> str:
        return self.message


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


_SAFE = YAML(typ="safe", pure=False)
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
    :class:`YamlProblem` when its tag says what it is not (``2025-13-01``)."""
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
        raise YamlProblem(
            "yaml-syntax",
            f"{clipped(text)} reads as a YAML {kind} but is not a valid one "
            f"({build_error(exc)}); quote it to keep it as text",
        ) from None


BUILD_ERRORS: tuple[type[Exception], ...] = (ValueError, LookupError, TypeError, ArithmeticError)
"""What ruamel's constructors raise, besides its own errors, on a value its tag says
it is and it is not (``2025-13-01``, ``!!bool "abc"``, ``!!int ""``)."""


def build_error(exc: Exception) -> str:
    """A constructor's error, without Python's advice on int digits."""
    if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
        return f"a number of more than {sys.get_int_max_str_digits():,} digits"
    return str(exc)


def clipped(text: str, width: int = 60) -> str:
    """``repr(text)``, cut to about ``width`` characters with its length said."""
    shown = repr(text)
    return shown if len(shown) <= width else f"{shown[: width - 20]}... ({len(text):,} characters)"
