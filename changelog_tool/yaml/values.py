"""YAML data equality: :func:`same` and its hashable form :func:`identity`."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

_MISSING = object()
_NAN = ("float", "nan")


def same(a: object, b: object) -> bool:
    """The same YAML data: equal values of equal types (``1``, ``1.0``, ``true`` differ),
    mappings in any key order, a ``.nan`` equal to a ``.nan``; a mapping with a NaN key equals
    nothing."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict) and isinstance(b, dict):  # (b is: its type is a's)
        if len(a) != len(b):
            return False
        for key, value in a.items():
            other = b.get(key, _MISSING)
            if other is _MISSING or not same(value, other):
                return False
        return {(type(k), k) for k in a} == {(type(k), k) for k in b}
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b) or (a != a and b != b)


def identity(value: object) -> Hashable:
    """A hashable form, equal exactly when :func:`same` says so (but a mapping with a NaN key
    equals itself here)."""
    kind = type(value).__name__
    if isinstance(value, Mapping):
        return kind, frozenset((identity(k), identity(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return kind, tuple(identity(item) for item in value)
    if isinstance(value, float) and value != value:
        return _NAN
    return kind, value
