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
from collections.abc import Callable, Hashable, Iterable, Mapping
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from changelog_tool.settings import SLUG

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


@cache
def schema() -> dict[str, Any]:
    # beside the package's __init__ (importlib.resources would load zipfile's
    # readers, a few ms of every verify, for a package that is always a folder)

    spec = find_spec("changelog_tool.schema")
    assert spec is not None and spec.origin is not None, "the schema package is installed"
    text = Path(spec.origin).with_name("perf-changelog.schema.json")
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
    import jsonschema  # a slow import (docs/performance.md): only a run that validates

    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", _is_integer)
    strict: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        base, type_checker=checker
    )
    root = schema()
    return strict(_inline_refs(root["$defs"]["entry"], root["$defs"]))


class _Unsupported(Exception):
    """A schema keyword the quick check does not know: validation uses jsonschema alone."""


_TYPES = {
    "object": "isinstance({v}, dict)",
    "array": "isinstance({v}, list)",
    "string": "isinstance({v}, str)",
    "boolean": "isinstance({v}, bool)",
    "null": "{v} is None",
    "integer": "(isinstance({v}, int) and not isinstance({v}, bool))",  # as _is_integer
    "number": "(isinstance({v}, _Number) and not isinstance({v}, bool))",
}
_GUARDS = {"object": "dict", "array": "list", "string": "str"}
_ANNOTATIONS = frozenset({"$comment", "$schema", "$id", "title", "description", "then", "else"})

Check = Callable[[Any], bool]


class _Source:
    """One Python expression that is true exactly when jsonschema's ``is_valid`` is
    (same keyword semantics, the same integer rule), for the keywords the entry
    schema uses; any other keyword raises :class:`_Unsupported`. Constants (compiled
    patterns, sets) are passed by name, never written into the source."""

    def __init__(self) -> None:
        self.names: dict[str, Any] = {"_Number": numbers.Number, "_MISSING": object()}
        self.functions: list[str] = []  # one per ``items``: a loop is cheaper than all()

    def constant(self, value: Any) -> str:
        name = f"_c{len(self.names)}"
        self.names[name] = value
        return name

    def schema(self, node: Any, v: str) -> str:
        if node is True or node == {}:
            return "True"
        if not isinstance(node, dict):
            raise _Unsupported(repr(node))
        kind = node.get("type")  # once checked first, the other keywords need no guard
        known = kind if kind in _GUARDS else None
        keywords = sorted((k for k in node if k not in _ANNOTATIONS), key=lambda k: k != "type")
        parts = [self.keyword(k, node[k], node, v, known) for k in keywords]
        return "(" + " and ".join(parts or ["True"]) + ")"

    def keyword(
        self, keyword: str, arg: Any, node: dict[str, Any], v: str, known: str | None
    ) -> str:
        def guard(kind: str) -> str:  # the keyword applies only to this kind of value
            return "" if kind == known else f"not isinstance({v}, {_GUARDS[kind]}) or "

        if keyword == "type":
            names = [arg] if isinstance(arg, str) else list(arg)
            return "(" + " or ".join(_TYPES[name].format(v=v) for name in names) + ")"
        if keyword == "required":
            present = [f"{self.constant(key)} in {v}" for key in arg]
            return f"({guard('object')}({' and '.join(present or ['True'])}))"
        if keyword == "properties":
            checks = []
            for name, sub in arg.items():
                value = self.constant(None)  # a local: the value, looked up once
                found = f"({value} := {v}.get({self.constant(name)}, _MISSING)) is _MISSING"
                checks.append(f"({found} or {self.schema(sub, value)})")
            return f"({guard('object')}({' and '.join(checks or ['True'])}))"
        if keyword == "additionalProperties" and arg is False and "patternProperties" not in node:
            allowed = self.constant(frozenset(node.get("properties", {})))
            return f"({guard('object')}{allowed}.issuperset({v}))"
        if keyword == "minItems" and isinstance(arg, int):
            return f"({guard('array')}len({v}) >= {self.constant(arg)})"
        if keyword == "items" and "prefixItems" not in node:
            name, x = self.constant(None), self.constant(None)  # fresh names
            each = self.schema(arg, x)
            self.functions.append(
                f"def {name}(v):\n    for {x} in v:\n        if not {each}:\n"
                "            return False\n    return True\n"
            )
            return f"({guard('array')}{name}({v}))"
        if keyword == "pattern":
            search = self.constant(re.compile(arg).search)
            return f"({guard('string')}{search}({v}) is not None)"
        if keyword == "enum" and all(isinstance(x, str) for x in arg):
            return f"(isinstance({v}, str) and {v} in {self.constant(frozenset(arg))})"
        if keyword == "const" and isinstance(arg, bool):
            return f"({v} is {arg!r})"
        if keyword == "minimum" and isinstance(arg, int | float) and not isinstance(arg, bool):
            number = _TYPES["number"].format(v=v)
            return f"(not {number} or not {v} < {self.constant(arg)})"
        if keyword in ("allOf", "anyOf"):
            joint = " and " if keyword == "allOf" else " or "
            return "(" + joint.join(self.schema(sub, v) for sub in arg) + ")"
        if keyword == "not":
            return f"(not {self.schema(arg, v)})"
        if keyword == "if":
            cond, then = self.schema(arg, v), self.schema(node.get("then", True), v)
            return f"({then} if {cond} else {self.schema(node.get('else', True), v)})"
        raise _Unsupported(keyword)


@cache
def _quick_check() -> Check | None:
    """The entry schema as one Python expression: a valid entry (nearly every one in a
    long history) is accepted without jsonschema, which then words the errors of the
    others. ``None`` when the schema uses a keyword the expression does not know."""
    root = schema()
    source = _Source()
    try:
        body = source.schema(_inline_refs(root["$defs"]["entry"], root["$defs"]), "entry")
    except (_Unsupported, KeyError, TypeError):
        return None
    text = "".join(source.functions) + f"def check(entry):\n    return {body}\n"
    code = compile(text, "<entry schema>", "exec")
    exec(code, source.names)  # the package's own schema; values come in as constants
    check: Check = source.names["check"]
    return check


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
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:  # (no pattern to compile at every start)
        point = ord(text[exc.start])
    else:
        return None
    if 0xDC80 <= point <= 0xDCFF:  # how Python keeps a byte of an argument that is not UTF-8
        return (
            f"the text {text[:40]!r} holds the byte 0x{point - 0xDC00:02X}, which is not "
            "UTF-8 (the terminal or script passed text in another encoding); retype that "
            "character, or pass the text as UTF-8"
        )
    return (
        f"the text {text[:40]!r} holds a lone surrogate (U+{point:04X}), "
        "which UTF-8 cannot store; retype that character"
    )


def _unstorable(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    found = []
    for field in TEXT_FIELDS:
        value = entry.get(field)
        if isinstance(value, list):
            try:
                if "".join(value).isascii():  # one test for a whole list of text
                    continue
            except TypeError:  # not all text
                pass
        for index, text in enumerate(value) if isinstance(value, list) else [(None, value)]:
            # ASCII text holds no surrogate: most text skips the search
            if isinstance(text, str) and not text.isascii():
                why = lone_surrogate(text)
                if why is not None:
                    found.append(((field if index is None else f"{field}/{index}"), why))
    return found


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
    if isinstance(entry, dict | Mapping):  # a dict is told apart without the ABC
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


MAX_PR_NUMBER = 2**31 - 1
"""The largest pull-request number accepted: GitHub's API types a number as a
GraphQL ``Int``, a signed 32-bit integer."""


PULL_LINK_SHAPE = rf"https://github\.com/({SLUG})/pull/([0-9]+)"
"""How a pull-request link is written: the repository (``owner/name``), the number."""
PULL_LINK = re.compile(rf"^{PULL_LINK_SHAPE}$")
"""A value that is a pull-request link (the one rule of its shape)."""


def pull_link_problem(link: str, slug: str | None) -> str | None:
    """Why ``link`` is not a pull request's canonical link (a clause), or ``None``
    when it is: the one rule for the gate's pr-links (which adds placeholders and
    the pull request's own number) and for the pr-link corrections a merge carries.
    The number obeys :func:`pr_number_problem`; with a ``slug``, the link must point
    at that repository (``owner/name``, compared without case)."""
    match = PULL_LINK.match(link)
    if match is None:
        return f"{link!r} is not a pull-request link"
    number = pr_number_problem(match.group(2))
    if number is not None:
        return f"{link!r} is not a pull-request link: its number {number}"
    if slug is not None and match.group(1).lower() != slug.lower():
        return f"{link!r} points at {match.group(1)}, not this repository ({slug})"
    return None


def pr_number_problem(text: str) -> str | None:
    """Why ``text`` is not a pull-request number (a clause: ``'012' has a leading
    zero (write 12)``), or ``None`` when it is: the one rule for the number of a
    pr-link (``verify``, ``add``, the TUI) and for ``--pr-number``: a positive integer
    in decimal digits, without a leading zero, at most :data:`MAX_PR_NUMBER`."""
    if not (text.isascii() and text.isdigit()):
        return f"{text!r} is not written in decimal digits"
    if not text.strip("0"):
        return f"{text!r} is below 1"
    if text.startswith("0"):
        return f"{text!r} has a leading zero (write {text.lstrip('0')})"
    if len(text) > len(str(MAX_PR_NUMBER)) or int(text) > MAX_PR_NUMBER:
        return f"{text!r} is above {MAX_PR_NUMBER} (GitHub numbers them as 32-bit integers)"
    return None


def repeated_items(entry: Mapping[str, Any]) -> list[tuple[str, str]]:
    """``(field path, message)`` for each key, pattern or scenario type an entry
    lists again (``config-keys/2``): the second copy would change nothing the CI
    runs, so it is a typing slip to say, never a value to drop silently."""
    found = []
    for field in ("config-keys", "scenario-type"):
        values = entry.get(field)
        if not isinstance(values, list):
            continue
        seen: dict[str, int] = {}
        for index, value in enumerate(values):
            if not isinstance(value, str):
                continue
            if value in seen:
                found.append(
                    (
                        f"{field}/{index}",
                        f"{value!r} is listed twice (also {field}/{seen[value]}); list each once",
                    )
                )
            else:
                seen[value] = index
    return found


def without_pr_link(entry: Mapping[str, Any]) -> Entry:
    return {k: v for k, v in entry.items() if k != "pr-link"}


def same_entry(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Equal, or equal but for ``pr-link``: the one rule of "the same entry", for the
    gate's duplicates and the merge's (see :func:`entry_identity`)."""
    return entry_identity(a) == entry_identity(b)


_NAN = ("float", "nan")  # a .nan in old history is the same value read twice


def entry_identity(value: Any) -> Hashable:
    """A hashable form of an entry (or any YAML value) without its ``pr-link``, equal
    for two entries exactly when they are the same entry: Python's ``==`` on
    mappings, lists and scalars (``1``, ``1.0`` and ``True`` are equal, and hash
    alike), except that a NaN equals a NaN."""
    return _frozen(without_pr_link(value) if isinstance(value, Mapping) else value)


def _frozen(value: Any) -> Hashable:
    if isinstance(value, Mapping):
        return frozenset((key, _frozen(item)) for key, item in value.items())
    if isinstance(value, list | tuple):
        return tuple(_frozen(item) for item in value)
    if isinstance(value, float) and value != value:
        return _NAN
    return cast(Hashable, value)


def matches(pattern: str, key: str) -> bool:
    """Whole-key match; ``*`` matches any run of characters, all else is literal.

    Matched by its literal parts in order, each at its leftmost place (which is
    enough: what ``*`` skips is free), so the work is linear in the key whatever
    the pattern: a regex of ``.*`` runs backtracks exponentially on
    ``*a*a*a...b`` (a pattern a branch may append, to stall CI)."""
    parts = pattern.split("*")
    if len(parts) == 1:
        return key == pattern
    first, last = parts[0], parts[-1]
    if len(key) < len(first) + len(last) or not key.startswith(first) or not key.endswith(last):
        return False
    pos, end = len(first), len(key) - len(last)
    for part in parts[1:-1]:
        found = key.find(part, pos, end)
        if found < 0:
            return False
        pos = found + len(part)
    return True


def matching_keys(pattern: str, keys: Iterable[str]) -> list[str]:
    return [k for k in keys if matches(pattern, k)]
