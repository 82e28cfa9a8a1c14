"""YAML data equality: what "the same value" means for a config a job reads, and for
an entry (:func:`identity`, its hashable form: duplicates, the merge, the pairing of
base and head entries)."""

from __future__ import annotations

from collections.abc import Hashable, Mapping

_MISSING = object()
_NAN = ("float", "nan")


def same(a: object, b: object) -> bool:
    """The same YAML data: equal values of equal types (``1``, ``1.0`` and ``true``
    differ, as they do in YAML, though Python's ``==`` says they are equal), mappings
    with the same keys in any order, and a ``.nan`` equal to a ``.nan`` (which ``==``
    says it never is: a comment edited beside one would read as a change). A mapping
    with a NaN key is never the same as another (no lookup finds such a key)."""
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
    """A hashable form of a YAML value, equal for two values exactly when :func:`same`
    says they are the same: each value with its type (``1``, ``1.0`` and ``true``
    differ, as they do in YAML and JSON), a mapping's keys in any order, and a NaN
    equal to a NaN (the same ``.nan`` read twice). Unlike :func:`same`, a mapping
    with a NaN key is the same as itself here."""
    kind = type(value).__name__
    if isinstance(value, Mapping):
        return kind, frozenset((identity(k), identity(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return kind, tuple(identity(item) for item in value)
    if isinstance(value, float) and value != value:
        return _NAN
    return kind, value
