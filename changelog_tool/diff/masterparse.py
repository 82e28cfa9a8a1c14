"""Master-config bytes (a file, or one key of it) to values within the limits, as
this tool and as a YAML 1.1 reader build them; a :class:`YamlProblem` says why they
do not read, and the key-name and duplicate-key problems are worded here."""

from __future__ import annotations

import re
from functools import lru_cache

from ruamel.yaml.constructor import ConstructorError, DuplicateKeyError
from ruamel.yaml.error import MarkedYAMLError, StreamMark, YAMLError

from changelog_tool.yaml import yaml11
from changelog_tool.yaml.items import BUILD_ERRORS, YamlProblem, build_error
from changelog_tool.yaml.limits import line_at
from changelog_tool.yaml.safeload import load

_DUPLICATE = re.compile(r'found duplicate key "((?:[^"\\]|\\.)*)"')

PYYAML = "a YAML 1.1 reader (PyYAML, which benchmark jobs read the configs with)"


@lru_cache(maxsize=8192)
def parse(data: bytes) -> object:
    """Parse YAML bytes within the limits (cached: the same key bytes recur across versions)."""
    try:
        return load(data)
    except DuplicateKeyError as exc:  # the safe loader refuses them; anchors and << stay legal
        found = _DUPLICATE.search(str(exc.problem))
        raise YamlProblem(
            "duplicate-yaml-key",
            f"duplicate field {found.group(1) if found else '?'!r} in one mapping; keep only "
            "one (most YAML readers would silently keep the last)",
            _mark_line(data, exc.problem_mark),
        ) from None
    except MarkedYAMLError as exc:
        message = str(exc.problem or exc.context or "invalid YAML")
        tag = isinstance(exc, ConstructorError) and "for the tag" in message
        if tag:
            message += "; quote the value to keep it as text (or drop the tag)"
        elif "cannot start any token" in message:
            mark = exc.problem_mark
            text = data.decode("utf-8", "replace")  # (a mark counts characters)
            char = text[mark.index : mark.index + 1] if mark is not None else ""
            reserved = f" ({char!r})" if char and char in "@`" else ""
            message += (
                f"{reserved}: `@` and a backquote are reserved in YAML and cannot begin a "
                "plain key or value; quote it"
            )
        elif "another document" in message:
            message = (
                "a second YAML document begins here (after a `---` or `...` line); a master "
                "config is one document: remove that line"
            )
        raise YamlProblem(
            "yaml-tag" if tag else "yaml-syntax",
            message,
            _mark_line(data, exc.problem_mark or exc.context_mark),
        ) from None
    except YAMLError as exc:
        raise YamlProblem("yaml-syntax", str(exc).strip().splitlines()[0], None) from None
    except BUILD_ERRORS as exc:  # a value the constructor cannot build, past a tag or alias
        raise YamlProblem(
            "yaml-syntax",
            f"a value does not read as its tag or type says ({build_error(exc)}); "
            "quote it to keep it as text, or drop the tag",
            None,
        ) from None


@lru_cache(maxsize=256)
def parse_1_1(data: bytes) -> object:
    """As a YAML 1.1 reader builds the value (:mod:`changelog_tool.yaml.yaml11`), or
    the :class:`YamlProblem` that says why it cannot (returned: cached too)."""
    try:
        return yaml11.load(data)
    except YamlProblem as exc:
        why = exc.message.strip().splitlines()[0]
        return YamlProblem("yaml-syntax", f"{PYYAML} cannot read this: {why}", None)


def _mark_line(data: bytes, mark: StreamMark | None) -> int | None:
    return line_at(data, mark.index) if mark is not None else None


def last_line(data: bytes, line: int | None) -> int:
    """A parser's 1-based line, kept on a line that has text (an error at the end of
    the stream points past the last line)."""
    last = data.rstrip(b"\n").count(b"\n") + 1
    return min(line, last) if line is not None else 1


def duplicate_key(key: str, first: int | None, line: int | None) -> YamlProblem:
    """The ``duplicate-yaml-key`` problem of a top-level key defined again at ``line``."""
    return YamlProblem(
        "duplicate-yaml-key",
        f"top-level key {key!r} is defined twice, on lines {first} and {line}: {PYYAML} "
        f"keeps the last definition, so line {line}'s is the one benchmark jobs run and "
        "the one changes are judged by; remove the other",
        line,
        key,
    )


def reads_as_no_name(read: object, key: str) -> bool:
    """``read`` is what YAML made of the key line ``key``: not a string (``123``,
    ``true``, ``2025-01-01``, ``~``, ``0x10``, ``1_000``)."""
    if isinstance(read, str):
        return False
    try:  # what YAML 1.2 makes of ``key`` written as a plain top-level key
        parsed = parse(key.encode("utf-8") + b": 0\n")
    except YamlProblem:
        return False
    found = list(parsed) if isinstance(parsed, dict) else []
    return len(found) == 1 and type(found[0]) is type(read) and bool(found[0] == read)


def not_a_name(read: object, key: str, line: int | None) -> YamlProblem:
    """The ``key-name`` problem of a top-level key YAML 1.2 reads as ``read``."""
    kind = "null" if read is None else type(read).__name__
    return YamlProblem(
        "key-name",
        f"the top-level key {key!r} reads as a YAML {kind}, not a name; quote it "
        f'("{key}":) or rename it',
        line,
        key,
    )


def not_a_name_1_1(key: str, read: object) -> str:
    """The ``key-name`` message for a top-level key YAML 1.1 reads as ``read``."""
    return (
        f"the top-level key {key!r} reads as {read!r} to {PYYAML}, not as a name; "
        f'quote it ("{key}":) or rename it'
    )
