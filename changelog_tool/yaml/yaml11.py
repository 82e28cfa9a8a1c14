"""Values as PyYAML's safe loader builds them (YAML 1.1: ``on`` is true, ``010`` is 8), which
benchmark jobs read with. Input passes the bounded scan first; what it or PyYAML refuses
(unknown tags, complex keys, bare tabs) raises :class:`YamlProblem`."""

from __future__ import annotations

import re

import yaml
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import ScalarEvent

from changelog_tool.yaml.items import YamlProblem, clipped
from changelog_tool.yaml.limits import events
from changelog_tool.yaml.values import same

_Loader: type[yaml.SafeLoader] = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


MAX_SEXAGESIMAL_PARTS = 1000
"""The most ``:``-separated parts of a base-60 integer read. Each part multiplies a
number that grows with every part, so PyYAML's work grows with the square of the
length; a value past 1,000 parts has over 1,700 digits, no benchmark setting."""
_SEXAGESIMAL = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+")


def load(data: bytes) -> object:
    """:class:`YamlProblem` for what the scan or PyYAML refuses (the scan's whole error, or
    PyYAML's first line)."""
    quoted: list[tuple[int, int]] = []  # where quoted and block scalars lie (characters)
    try:
        for event in events(data):
            if isinstance(event, ScalarEvent):
                if event.style in _QUOTED_OR_BLOCK:
                    quoted.append((event.start_mark.index, event.end_mark.index))
                elif event.implicit[0]:
                    _bounded(event.value)
    except YAMLError as exc:  # ruamel's, from the bounded scan
        raise YamlProblem("yaml-syntax", str(exc)) from None
    if b"\t" in data:  # a tab outside quoted or block scalars and comments, as PyYAML's scanner
        text, at = data.decode("utf-8", "replace"), 0
        pieces: list[str] = []
        for start, end in quoted:  # their tabs are blanked out
            pieces += [text[at:start], text[start:end].replace("\t", " ")]
            at = end
        found = _BARE_TAB.search("".join(pieces) + text[at:])
        if found is not None:
            line = text.count("\n", 0, found.end()) + 1
            raise YamlProblem(
                "yaml-syntax",
                f"a tab at line {line}: YAML 1.1 readers (PyYAML) take a tab only inside "
                "quoted text or a comment; use spaces",
            )
    try:
        return yaml.load(data, Loader=_Loader)  # a safe loader
    except yaml.YAMLError as exc:
        raise YamlProblem("yaml-syntax", str(exc).strip().splitlines()[0]) from None
    except (ValueError, TypeError, OverflowError) as exc:  # a constructor's refusal
        raise YamlProblem("yaml-syntax", str(exc)) from None


def _bounded(text: str) -> None:
    parts = text.count(":") + 1
    if parts > MAX_SEXAGESIMAL_PARTS and _SEXAGESIMAL.fullmatch(text):
        raise YamlProblem(
            "yaml-syntax",
            f"a base-60 integer of {parts} parts (over {MAX_SEXAGESIMAL_PARTS}), whose "
            "value costs time growing with the square of its length; quote it",
        )


def plain(text: str) -> object:
    """A plain scalar's value as PyYAML builds it; :class:`YamlProblem` when it cannot."""
    _bounded(text)
    loader = yaml.SafeLoader("")
    tag = loader.resolve(yaml.ScalarNode, text, (True, False))  # type: ignore[no-untyped-call]
    node = yaml.ScalarNode(tag, text)
    try:
        return loader.construct_object(node)
    except (yaml.YAMLError, ValueError, TypeError, OverflowError) as exc:
        raise YamlProblem("yaml-syntax", str(exc)) from None


_QUOTED_OR_BLOCK = frozenset("\"'|>")
_BARE_TAB = re.compile(r"^[ \t]*[^ \t\n#](?:[^\t\n#]|(?<![ \t])#)*+\t", re.MULTILINE)
"""A tab after a line's first text and before its comment (a ``#`` after a blank): in one
pass, the possessive ``*+`` never backtracking over a long line."""


READER = "PyYAML (YAML 1.1, which benchmark CI reads the changelog with)"


def disagreements(block: bytes, read: object) -> list[tuple[str, str]]:
    """``(field path, message)`` where PyYAML reads ``block`` (one or more entries) otherwise
    than ``read``, its YAML 1.2 reading."""
    try:
        other = load(block)
    except YamlProblem as exc:
        why = exc.message.strip().splitlines()[0]
        return [("(entry)", f"{READER} cannot read this entry: {why}")]
    if isinstance(read, list) and isinstance(other, list) and len(read) == len(other) == 1:
        read, other = read[0], other[0]
    out: list[tuple[str, str]] = []

    def walk(path: str, mine: object, theirs: object) -> None:
        if same(mine, theirs):
            return
        if isinstance(mine, dict) and isinstance(theirs, dict) and mine.keys() == theirs.keys():
            for key, value in mine.items():
                walk(f"{path}/{key}" if path else str(key), value, theirs[key])
        elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
            for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
                walk(f"{path}/{index}" if path else str(index), a, b)
        else:
            if isinstance(mine, str):
                advice = 'quote it ("...") so that both read text'
            elif isinstance(mine, int) and not isinstance(mine, bool):
                advice = "write it in plain decimal digits, without a leading zero"
            else:
                advice = "write it so that both read the same value"
            said = f"reads as {_shown(mine)} here (YAML 1.2) but as {_shown(theirs)} to {READER}"
            out.append((path or "(entry)", f"{said}; {advice}"))

    walk("", read, other)
    return out


def _shown(value: object) -> str:
    kind = "null" if value is None else type(value).__name__
    text = clipped(value) if isinstance(value, str) else clipped(repr(value))[1:-1]
    return f"{text} ({kind})"
