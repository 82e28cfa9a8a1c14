"""What a branch changed in the master configs, key by key (pure): added, removed, modified,
defined twice, or unnameable by an entry."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from changelog_tool.diff.fields import (
    changed_fields,
    is_reduction,
    kinds,
    touched_scenarios,
)
from changelog_tool.diff.keychange import (
    ADDED,
    MODIFIED,
    REMOVED,
    UNPARSABLE,
    UNPARSABLE_AT_BASE,
    KeyChange,
)
from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.ledger.entryschema import builtin_definition
from changelog_tool.yaml.items import YamlProblem


def diff(base: MasterSet, head: MasterSet) -> tuple[list[KeyChange], list[tuple[str, YamlProblem]]]:
    """Keys added, modified (semantically) and removed between two trees, and the problems of the
    keys the branch touched."""
    changes: list[KeyChange] = []
    problems: list[tuple[str, YamlProblem]] = []
    for key in sorted(set(head.owner) | set(base.owner)):
        path, line = head.locate(key)
        if key not in base.owner:
            scenarios: list[str] = []
            has: tuple[str, ...] = ()
            if not head.unknown(key):
                try:
                    value = head.value(key)
                    scenarios, has = touched_scenarios(None, value), kinds(value)
                except YamlProblem as problem:
                    problems.append((path or "", problem))
            changes.append(
                KeyChange(key, ADDED, scenarios=tuple(scenarios), path=path, line=line, kinds=has)
            )
            continue
        if key not in head.owner:
            old_path, old_line = base.locate(key)
            changes.append(KeyChange(key, REMOVED, path=old_path, line=old_line))
            continue
        if head.unknown(key):
            continue  # its file does not parse at head (reported once): unknown, not changed
        old_chunk, new_chunk = base.chunk(key), head.chunk(key)
        if old_chunk is not None and old_chunk == new_chunk:
            continue
        try:
            new = head.value(key)
        except YamlProblem as problem:
            problems.append((path or "", problem))
            changes.append(KeyChange(key, MODIFIED, fields=(UNPARSABLE,), path=path, line=line))
            continue
        try:
            old = base.value(key)
        except YamlProblem:
            changes.append(
                KeyChange(key, MODIFIED, fields=(UNPARSABLE_AT_BASE,), path=path, line=line)
            )
            continue
        fields = changed_fields(old, new)
        reduced = bool(fields) and is_reduction(old, new)
        if not fields or reduced:  # so far as YAML 1.2 reads them; as benchmark jobs do?
            new_1_1, old_1_1 = head.value_yaml_1_1(key), base.value_yaml_1_1(key)
            if isinstance(new_1_1, YamlProblem) and isinstance(old_1_1, YamlProblem):
                pass  # those jobs could read it at neither side: nothing new to them
            elif isinstance(new_1_1, YamlProblem):  # they can no longer read it at all
                problems.append((path or "", new_1_1))
                changes.append(KeyChange(key, MODIFIED, fields=(UNPARSABLE,), path=path, line=line))
                continue
            elif isinstance(old_1_1, YamlProblem):  # they could not read it at base: now they can
                fields, reduced = fields or [UNPARSABLE_AT_BASE], False
            else:
                fields_1_1 = changed_fields(old_1_1, new_1_1)
                if fields_1_1 and not fields:  # a change only YAML 1.1 sees, judged so
                    old, new, fields = old_1_1, new_1_1, fields_1_1
                reduced = reduced and (not fields_1_1 or is_reduction(old_1_1, new_1_1))
            if not fields:
                continue
        changes.append(
            KeyChange(
                key,
                MODIFIED,
                fields=tuple(fields),
                scenarios=tuple(touched_scenarios(old, new)),
                reduced=reduced,
                path=path,
                line=line,
                kinds=kinds(new),
            )
        )
    problems.extend(key_names(changes, head))
    problems.extend(duplicate_definitions(base, head))
    return changes, problems


def key_names(changes: list[KeyChange], head: MasterSet) -> list[tuple[str, YamlProblem]]:
    """A ``key-name`` problem for each added or modified key the schema refuses, or that YAML 1.1
    reads as no name (a plain ``on:``)."""
    out = []
    for change in changes:
        if change.kind not in (ADDED, MODIFIED):
            continue
        file = head.owner[change.key]
        why = key_name_problem(change.key) or file.yaml_1_1_name_problem(change.key)
        if why is not None:
            problem = YamlProblem("key-name", why, change.line, change.key)
            out.append((change.path or "", problem))
    return out


_MANY_DUPLICATES = 10


def duplicate_definitions(base: MasterSet, head: MasterSet) -> list[tuple[str, YamlProblem]]:
    """A ``duplicate-master-key`` per extra definition of a key in head's master files that base
    did not have (one per file pair when many)."""
    pairs: dict[tuple[str, str], list[tuple[str, MasterFile, MasterFile]]] = {}
    for key, files in head.defined.items():
        if len(files) < 2:
            continue
        before = {f.path for f in base.defined.get(key, ())}
        if len(before) > 1 and {f.path for f in files} <= before:
            continue  # already defined twice at base: not this change's doing
        first = next((f for f in files if f.path in before), files[0])
        for other in files:
            if other is not first:
                pairs.setdefault((other.path, first.path), []).append((key, other, first))
    out: list[tuple[str, YamlProblem]] = []
    for (path, first_path), found in sorted(pairs.items()):
        found.sort(key=lambda item: item[1].line(item[0]) or 0)
        many = len(found) > _MANY_DUPLICATES  # then one problem, at the first
        for key, other, first in found[:1] if many else found:
            if many:
                names = ", ".join(k for k, _, _ in found[:3])
                message = (
                    f"{len(found)} keys defined here are also defined in {first_path} ({names}, "
                    "...); is one file a copy of the other? Each key belongs in one master config"
                )
            else:
                message = (
                    f"{key!r} is also defined in {first_path}:{first.line(key)}; a key belongs in "
                    "one master config (the sweep would read only one of the two definitions)"
                )
            out.append((path, YamlProblem("duplicate-master-key", message, other.line(key))))
    return out


# Key names no entry can name: a character the schema's config-key pattern refuses (an
# invisible or look-alike one), as the schema in ``schema/`` defines it.
_SHOWN = 3
_UNNAMED = {
    "Cc": "a control character",
    "Cf": "a format character",
    "Co": "a private-use character",
}


@cache
def _pattern() -> re.Pattern[str]:
    return re.compile(str(builtin_definition("config-key")["pattern"]))


def describe(char: str) -> str:
    """``'x' U+0078 LATIN SMALL LETTER X``; an invisible character is only named."""
    code = f"U+{ord(char):04X}"
    category = unicodedata.category(char)
    name = unicodedata.name(char, "") or _UNNAMED.get(category, "an unassigned character")
    if category.startswith("Z") or char.isspace():
        return f"{code} {name} (looks like a space)"
    if char.isprintable():
        return f"{char!r} {code} {name}"
    return f"{code} {name} (invisible)"


def key_name_problem(key: str) -> str | None:
    """Why no entry can name ``key`` (its refused characters and 1-based positions), or ``None``."""
    if _pattern().fullmatch(key) is not None:
        return None
    if not key:
        return "an empty key name cannot be named in a changelog entry; name the key"
    found: dict[str, int] = {}
    for index, char in enumerate(key):  # refused first in a key, or after an accepted one?
        if char not in found and _pattern().fullmatch(char if index == 0 else "a" + char) is None:
            found[char] = index + 1
    if not found:
        return f"key {key!r} does not match the schema's config-key pattern; rename the key"
    parts = [f"{describe(c)} at position {p}" for c, p in list(found.items())[:_SHOWN]]
    if len(found) > _SHOWN:
        parts.append(f"{len(found) - _SHOWN} more")
    return (
        f"key {key!r} contains {', '.join(parts)}, which no changelog entry can name "
        "(config-keys accept ASCII letters, digits and . _ + - *, not beginning with + or -); "
        "rename the key"
    )
