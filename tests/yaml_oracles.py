"""Independent YAML readers for checking emitted bytes: PyYAML's ``safe_load`` (YAML 1.1,
what the benchmark repository's own CI uses) and ruamel.yaml's ``YAML(typ="safe")``
(YAML 1.2), plus an equality that also compares types (``True == 1 == 1.0`` in Python)."""

from __future__ import annotations

from typing import Any

import yaml
from ruamel.yaml import YAML

# Scalars that YAML 1.1 or 1.2 reads as something other than the string itself (or
# refuses): booleans, ints (underscores, binary, octal, hex, base 60), floats, dates,
# times, nulls, merge and value keys, and near misses that are strings in both.
TRICKY = [
    *("yes", "no", "on", "off", "y", "n", "Y", "N", "Yes", "NO", "On", "OFF"),
    *("true", "False", "TRUE", "~", "null", "Null", "NULL", ""),
    *("1", "0", "-1", "+1", "1_000", "0b101", "0x1F", "0o17", "012", "09", "1:20", "-1:20"),
    *("12:30:00", "1:20.5", "1.0", "1.", "1e3", "1E3", "1.0e+3", "1e-3", ".5", "-.5"),
    *(".inf", "-.inf", "+.inf", ".Inf", ".nan", ".NaN", "NaN", "nan", "inf", "Infinity"),
    *("2024-01-01", "2024-1-1", "2024-01-01T12:30:00Z", "2024-01-01t12:30:00.5+01:00"),
    *("<<", "=", "1.2.3", "_1", "_", "...", ".", "---", "-", "- a", "a:", "a: b", "a #b"),
    *("#", "*", "&a", "!a", "@a", "%a", "`a", "|", ">", "'", '"', "[", "]", "{", "}", ","),
    *("? a", "a\tb", " a", "a ", "a\n", "\ufeffa", "a\u2028b", "\x85", "\\", "é", "✓"),
    *("dsr1-fp4-b200-sglang", "70b-fp8-*-vllm", "*-b200-*", "XXX"),
    *("https://github.com/SemiAnalysisAI/InferenceX/pull/2391", "https://github.com/o/r/pull/XXX"),
]


def pyyaml_reads(data: bytes) -> Any:
    return yaml.safe_load(data)


def ruamel_reads(data: bytes) -> Any:
    return YAML(typ="safe").load(data)


def exactly(a: Any, b: Any) -> bool:
    """Equal, with the same type at every level (mapping order aside)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(exactly(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(exactly(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def assert_both_read(data: bytes, expected: Any) -> None:
    """Both readers give back exactly ``expected`` (values and types)."""
    for name, reader in (("PyYAML", pyyaml_reads), ("ruamel.yaml", ruamel_reads)):
        try:
            got = reader(data)
        except Exception as exc:  # a reader that refuses the bytes fails the check
            raise AssertionError(f"{name} cannot read {data!r}: {exc}") from exc
        assert exactly(got, expected), f"{name} reads {data!r} as {got!r}, not {expected!r}"
