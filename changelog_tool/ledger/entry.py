"""Entries as plain mappings, validated by the one JSON Schema in ``schema/``.

Validation also says what JSON Schema cannot: ``integer`` means a Python ``int`` (not
``1.0``, which JSON Schema counts as an integer, nor ``True``), and no text may hold a
lone surrogate, which UTF-8 cannot store. So whatever passes validation, the emitter
can write, and the values read back are the values given.
"""

from __future__ import annotations

import json
import numbers
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

Entry = dict[str, Any]

FIELD_ORDER = (
    "config-keys",
    "scenario-type",
    "description",
    "pr-link",
    "evals-only",
    "all-evals",
    "append-only",
    "eval-min-prefill-ep",
)
LIST_FIELDS = ("config-keys", "scenario-type", "description")
FLAG_FIELDS = ("evals-only", "all-evals", "append-only")
TEXT_FIELDS = ("config-keys", "scenario-type", "description", "pr-link")
_SURROGATE = re.compile(r"[\ud800-\udfff]")


@cache
def schema() -> dict[str, Any]:
    text = resources.files("changelog_tool.schema").joinpath("perf-changelog.schema.json")
    loaded: dict[str, Any] = json.loads(text.read_text(encoding="utf-8"))
    return loaded


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    """The schema with local ``#/$defs/...`` references replaced by their targets
    (same meaning; validation skips the reference lookups, which dominate its cost)."""
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/") and len(node) == 1:
            return _inline_refs(defs[ref.removeprefix("#/$defs/")], defs)
        return {k: _inline_refs(v, defs) for k, v in node.items()}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


def _is_integer(_checker: object, value: object) -> bool:
    """JSON Schema's ``integer`` as an entry means it: an ``int``, never a bool or a float."""
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _entry_validator() -> Validator:
    import jsonschema  # 40-60 ms: paid only by a run that validates an entry

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", _is_integer)
    strict: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        base, type_checker=checker
    )
    root = schema()
    return strict(_inline_refs(root["$defs"]["entry"], root["$defs"]))


class _Unsupported(Exception):
    """A schema keyword the quick check does not know: validation uses jsonschema alone."""


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "integer": lambda v: _is_integer(None, v),
    "number": lambda v: isinstance(v, numbers.Number) and not isinstance(v, bool),
}
_ANNOTATIONS = frozenset({"$comment", "$schema", "$id", "title", "description"})


Check = Callable[[Any], bool]


def _compile(node: Any) -> Check:
    """A yes/no check that agrees with jsonschema's ``is_valid`` for ``node`` (same
    keyword semantics, the same integer rule), for the keywords the entry schema uses;
    any other keyword raises :class:`_Unsupported`."""
    if node is True or node == {}:
        return lambda v: True
    if not isinstance(node, dict):
        raise _Unsupported(repr(node))
    return _every(
        [
            _keyword(keyword, arg, node)
            for keyword, arg in node.items()
            if keyword not in _ANNOTATIONS and keyword not in ("then", "else")
        ]
    )


def _every(checks: list[Check]) -> Check:
    if len(checks) == 1:
        return checks[0]

    def every(v: Any) -> bool:  # a loop: all() over a generator costs twice as much here
        for check in checks:  # noqa: SIM110
            if not check(v):
                return False
        return True

    return every


def _keyword(keyword: str, arg: Any, node: dict[str, Any]) -> Check:
    if keyword == "type":
        tests = [_TYPES[name] for name in ([arg] if isinstance(arg, str) else arg)]
        return tests[0] if len(tests) == 1 else lambda v: any(test(v) for test in tests)
    if keyword == "required":
        keys = tuple(arg)
        return lambda v: not isinstance(v, dict) or all(k in v for k in keys)
    if keyword == "properties":
        props = [(name, _compile(sub)) for name, sub in arg.items()]

        def properties(v: Any) -> bool:
            if isinstance(v, dict):
                for name, check in props:
                    if name in v and not check(v[name]):
                        return False
            return True

        return properties
    if keyword == "additionalProperties" and arg is False and "patternProperties" not in node:
        known = frozenset(node.get("properties", {}))
        return lambda v: not isinstance(v, dict) or known.issuperset(v)
    if keyword == "minItems":
        return lambda v: not isinstance(v, list) or len(v) >= arg
    if keyword == "items" and "prefixItems" not in node:
        each = _compile(arg)

        def items(v: Any) -> bool:
            if isinstance(v, list):
                for x in v:
                    if not each(x):
                        return False
            return True

        return items
    if keyword == "pattern":
        search = re.compile(arg).search
        return lambda v: not isinstance(v, str) or search(v) is not None
    if keyword == "enum" and all(isinstance(x, str) for x in arg):
        allowed = frozenset(arg)
        return lambda v: isinstance(v, str) and v in allowed
    if keyword == "const" and isinstance(arg, bool):
        return lambda v: v is arg
    if keyword == "minimum" and _TYPES["number"](arg):
        number = _TYPES["number"]
        return lambda v: not number(v) or not v < arg
    if keyword in ("allOf", "anyOf"):
        subs = [_compile(sub) for sub in arg]
        if keyword == "allOf":
            return _every(subs)
        return lambda v: any(sub(v) for sub in subs)
    if keyword == "not":
        negated = _compile(arg)
        return lambda v: not negated(v)
    if keyword == "if":
        cond, then = _compile(arg), _compile(node.get("then", True))
        other = _compile(node.get("else", True))
        return lambda v: then(v) if cond(v) else other(v)
    raise _Unsupported(keyword)


@cache
def _quick_check() -> Check | None:
    """The entry schema as plain Python checks: a valid entry (nearly every one in a
    long history) is accepted without jsonschema, which then builds the messages for
    the others. ``None`` when the schema uses a keyword the checks do not know."""
    root = schema()
    try:
        return _compile(_inline_refs(root["$defs"]["entry"], root["$defs"]))
    except (_Unsupported, KeyError, TypeError):
        return None


def scenario_types() -> list[str]:
    return list(schema()["$defs"]["scenario-type"]["enum"])


def not_an_integer(value: Any) -> str:
    """Why ``value`` is not an integer entry value, and what to write instead."""
    hint = "write a whole number such as 1"
    if isinstance(value, bool):
        return f"{str(value).lower()} is a boolean, not an integer: {hint}"
    if isinstance(value, str):
        if re.fullmatch(r"[0-9]{1,18}", value.strip()):
            hint = f"write it as {value.strip()}, without quotes"
        return f"{value!r} is a string, not an integer: {hint}"
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e18:
        hint = f"write it as {int(value)} (no decimal point or exponent)"
    return f"{value!r} is not an integer: {hint}"


def lone_surrogate(text: str) -> str | None:
    """Why ``text`` cannot be written to a UTF-8 file, or ``None`` when it can."""
    found = _SURROGATE.search(text)
    if found is None:
        return None
    return (
        f"the text {text[:40]!r} holds a lone surrogate (U+{ord(found.group()):04X}), "
        "which UTF-8 cannot store; retype that character"
    )


def _unstorable(entry: Mapping[str, Any]) -> Iterator[tuple[str, str]]:
    for field in TEXT_FIELDS:
        value = entry.get(field)
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        for index, text in items:
            # ASCII text holds no surrogate: most text skips the search
            why = None if not isinstance(text, str) or text.isascii() else lone_surrogate(text)
            if why is not None:
                yield (field if index is None else f"{field}/{index}"), why


def _path(error: Any) -> list[Any]:
    return list(error.path)


def schema_errors(entry: Any) -> list[tuple[str, str]]:
    """``(field path, message)`` for every schema violation of one entry."""
    errors = []
    quick = _quick_check()
    valid = quick is not None and quick(entry)
    for error in [] if valid else sorted(_entry_validator().iter_errors(entry), key=_path):
        path = "/".join(str(p) for p in error.absolute_path) or "(entry)"
        message = error.message
        if error.validator == "additionalProperties":
            allowed = ", ".join(FIELD_ORDER)
            message = f"{message}; allowed fields: {allowed}"
        elif error.validator == "not" and "append-only" in (entry or {}):
            message = (
                "append-only cannot be combined with evals-only, all-evals or eval-min-prefill-ep"
            )
        elif error.validator == "type" and error.validator_value == "integer":
            message = not_an_integer(error.instance)
        elif error.validator == "pattern" and path == "pr-link":
            message = (
                f"{error.instance!r} is not a pull-request link "
                "(https://github.com/<owner>/<repo>/pull/<n>) or a placeholder such as XXX"
            )
        elif error.validator == "pattern" and path.startswith("description"):
            message = f"{error.instance!r} is empty: a description bullet needs some text"
        elif error.validator == "pattern" and path.startswith("config-keys"):
            message = (
                f"{error.instance!r} is not a config key or pattern "
                "(letters, digits, '.', '_', '+', '-' and '*')"
            )
        errors.append((path, message))
    if isinstance(entry, Mapping):
        errors.extend(_unstorable(entry))
    return errors


def normalize(entry: Mapping[str, Any]) -> Entry:
    """The entry in canonical field order, without empty optional fields."""
    out: Entry = {}
    for field in FIELD_ORDER:
        if field in entry and entry[field] is not None and entry[field] != []:
            value = entry[field]
            listed = field in LIST_FIELDS and isinstance(value, list | tuple)
            out[field] = list(value) if listed else value  # a bare string stays a string
    for field in entry:
        if field not in out and field not in FIELD_ORDER:
            out[field] = entry[field]
    return out


def without_pr_link(entry: Mapping[str, Any]) -> Entry:
    return {k: v for k, v in entry.items() if k != "pr-link"}


def same_entry(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Equal, or equal but for ``pr-link``."""
    return without_pr_link(a) == without_pr_link(b)


@cache
def _pattern_regex(pattern: str) -> re.Pattern[str]:
    return re.compile("".join(".*" if c == "*" else re.escape(c) for c in pattern) + r"\Z")


def matches(pattern: str, key: str) -> bool:
    """Whole-key match; ``*`` matches any run of characters, all else is literal."""
    return _pattern_regex(pattern).match(key) is not None


def matching_keys(pattern: str, keys: Iterable[str]) -> list[str]:
    regex = _pattern_regex(pattern)
    return [k for k in keys if regex.match(k)]
