"""Entries as plain mappings, validated by the entry schema in use
(:mod:`~changelog_tool.ledger.entryschema`), plus what JSON Schema cannot say: an integer is
an ``int``, and no text holds a lone surrogate, so whatever passes, the emitter can write."""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Mapping
from typing import cast

from changelog_tool.github import pull_link
from changelog_tool.ledger.document import entry_after, entry_before, parse
from changelog_tool.ledger.entryschema import LIST, TEXT, current
from changelog_tool.yaml.items import YamlValue
from changelog_tool.yaml.values import identity

Fields = dict[str, object]  # an entry as a plain mapping


def scenario_types() -> list[str]:
    return list(current().scenario_types)


def not_an_integer(value: object) -> str:
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
    except UnicodeEncodeError as exc:
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


def _unstorable(entry: Mapping[str, object]) -> list[tuple[str, str]]:
    found = []
    for field in (f.name for f in current().fields if f.kind in (TEXT, LIST)):
        value = entry.get(field)
        for index, text in enumerate(value) if isinstance(value, list) else [(None, value)]:
            # ASCII text holds no surrogate: most text skips the search
            if isinstance(text, str) and not text.isascii():
                why = lone_surrogate(text)
                if why is not None:
                    found.append(((field if index is None else f"{field}/{index}"), why))
    return found


def schema_errors(entry: object) -> list[tuple[str, str]]:
    """``(field path, message)`` for every violation of the entry schema in use."""
    definition = current()
    errors = []
    instance = cast(YamlValue, entry)  # jsonschema judges any value, and says what is wrong
    for error in sorted(
        definition.validator.iter_errors(instance), key=lambda error: list(error.path)
    ):
        path = "/".join(str(p) for p in error.absolute_path) or "(entry)"
        message = error.message
        if error.validator == "additionalProperties":
            allowed = ", ".join(definition.names)
            message = f"{message}; allowed fields: {allowed}; {definition.where_to_declare()}"
        elif error.validator == "not" and isinstance(entry, dict):
            # the rule's own words (a value that is no mapping gets jsonschema's)
            rule = error.schema if isinstance(error.schema, Mapping) else {}
            message = str(rule.get("description") or message)
        elif error.validator == "type" and error.validator_value == "integer":
            message = not_an_integer(error.instance)
        elif error.validator == "enum" and path.startswith("scenario-type/"):
            message = (
                f"{error.instance!r} is not a scenario type the entry schema lists "
                f"({', '.join(definition.scenario_types)}); {definition.where_to_declare('a scenario type')}"
            )
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


def normalize(entry: Mapping[str, object]) -> Fields:
    """The entry in the schema's field order, without empty optional fields; fields
    the schema does not know follow, as given (validation names them)."""
    out: Fields = {}
    definition = current()
    for spec in definition.fields:
        field = spec.name
        if field in entry and entry[field] is not None and entry[field] != []:
            value = entry[field]
            if spec.kind == LIST and isinstance(value, list | tuple):
                value = list(value)  # a bare string stays a string
            out[field] = value
    for field in entry:
        if field not in out and field not in definition.names:
            out[field] = entry[field]
    return out


MAX_PR_NUMBER = 2**31 - 1
"""The largest pull-request number accepted: GitHub's API types a number as a
GraphQL ``Int``, a signed 32-bit integer."""


PULL_LINK_SHAPE = pull_link("[0-9]+")  # groups: the repository (owner/name), the number
PULL_LINK = re.compile(rf"^{PULL_LINK_SHAPE}$")


def pull_link_problem(link: str, slug: str | None) -> str | None:
    """Why ``link`` is not a canonical pull-request link (a clause), or ``None``; with a ``slug``
    it must point at that repository."""
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
    """Why ``text`` is not a pull-request number (a clause), or ``None``: positive decimal, no
    leading zero, at most :data:`MAX_PR_NUMBER`."""
    if not (text.isascii() and text.isdigit()):
        return f"{text!r} is not written in decimal digits"
    if not text.strip("0"):
        return f"{text!r} is below 1"
    if text.startswith("0"):
        return f"{text!r} has a leading zero (write {text.lstrip('0')})"
    if len(text) > len(str(MAX_PR_NUMBER)) or int(text) > MAX_PR_NUMBER:
        return f"{text!r} is above {MAX_PR_NUMBER} (GitHub numbers them as 32-bit integers)"
    return None


def repeated_items(entry: Mapping[str, object]) -> list[tuple[str, str]]:
    """``(field path, message)`` for each key, pattern or scenario type an entry lists again."""
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
                twice = f"{value!r} is listed twice (also {field}/{seen[value]}); list each once"
                found.append((f"{field}/{index}", twice))
            else:
                seen[value] = index
    return found


def texts(value: object) -> list[str]:
    """The text items of a list field's value (``config-keys``); none when it is no list."""
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def without_pr_link(entry: Mapping[str, object]) -> Fields:
    return {k: v for k, v in entry.items() if k != "pr-link"}


def same_entry(a: Mapping[str, object], b: Mapping[str, object]) -> bool:
    """Equal, or equal but for ``pr-link``: the one rule of "the same entry"."""
    return entry_identity(a) == entry_identity(b)


def selection(entry: Mapping[str, object]) -> tuple[frozenset[str], frozenset[str]]:
    """What an entry makes the benchmark run: its patterns and scenario types (all when none)."""
    kinds = entry.get("scenario-type")
    named = kinds if isinstance(kinds, list) else [kinds] if kinds else scenario_types()
    return frozenset(texts(entry.get("config-keys"))), frozenset(map(str, named))


def entry_identity(value: object) -> Hashable:
    """A hashable form of an entry without its ``pr-link``, equal exactly for the same entry."""
    return identity(without_pr_link(value) if isinstance(value, Mapping) else value)


def matches(pattern: str, key: str) -> bool:
    """Whole-key match where ``*`` matches any run and all else is literal; linear in the key (a
    regex would backtrack on a hostile ``*a*a*...b``)."""
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


# --- a copy of an appended entry in history, found without parsing the history: a byte
# search for the entry's rarest needle, then a parse only of blocks that hold every needle

_WORD = re.compile(r"[A-Za-z0-9._/+=:-]+")


def needles(entry: Mapping[str, object]) -> list[bytes]:
    """Byte strings every YAML spelling of an equal entry contains (first key first)."""
    keys = entry.get("config-keys")
    if not isinstance(keys, list) or not keys or not all(isinstance(k, str) for k in keys):
        return []
    found = [k.encode("utf-8") for k in keys]
    for name in ("scenario-type", "description"):
        values = entry.get(name)
        for text in values if isinstance(values, list) else ():
            if isinstance(text, str):
                found.extend(w.encode("utf-8") for w in _WORD.findall(text))
    unique = list(dict.fromkeys(found[1:]))
    return [found[0], *sorted(unique, key=len, reverse=True)]


SAMPLE = 64 << 10  # how much of the newest history tells which needle is rarest


def search_order(wanted: list[bytes], sample: bytes) -> list[bytes]:
    """The needles rarest first in ``sample``, longer first among equals."""
    unique = list(dict.fromkeys(wanted))  # a key may also be a description word
    return sorted(unique, key=lambda word: (sample.count(word), -len(word)))


def duplicate_in(kept: bytes, entry: Mapping[str, object]) -> int | None:
    """The line of the last entry in ``kept`` equal to ``entry`` but for pr-link, or ``None``."""
    wanted = search_order(needles(entry), kept[-SAMPLE:])
    if not wanted:
        return None
    # every needle is in every spelling of an equal entry: search by the rarest,
    # check the others in each block it is found in
    first, rest = wanted[0], wanted[1:]
    pos = len(kept)
    while True:
        hit = kept.rfind(first, 0, pos)
        if hit < 0:
            return None
        start = pos = entry_before(kept, hit)
        end = entry_after(kept, hit + len(first))
        # looked up in place: most look-alikes fail on a missing word
        if all(kept.find(word, start, end) >= 0 for word in rest):
            value = parse(kept[start:end].rstrip(b" \n"), 1)
            if isinstance(value, dict) and same_entry(value, entry):
                return kept.count(b"\n", 0, start) + 1
        if start <= 0:
            return None
