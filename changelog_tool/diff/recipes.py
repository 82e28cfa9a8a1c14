"""Recipe references: which master keys point at which recipe files (``NAME=<path>.yaml`` in a
value) (pure). A recipe edit counts only when its YAML data changes to YAML 1.2 or to PyYAML
(:func:`same_data`)."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence

from changelog_tool.diff.masterparse import parse, parse_1_1
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.values import same

_REF = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*=([^\s\"',;=]+\.ya?ml)(?![A-Za-z0-9_.])")
RECIPE_SUFFIXES = (".yaml", ".yml")


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def references(value: object) -> list[str]:
    """Every recipe reference (the part after ``NAME=``) inside a key's value."""
    found: list[str] = []
    for text in _strings(value):
        found.extend(m.group(1) for m in _REF.finditer(text))
    return sorted(set(found))


def target(ref: str, prefixes: Mapping[str, str]) -> str:
    """The repository path a reference stands for (a bare name stays bare)."""
    for prefix, folder in prefixes.items():
        if ref.startswith(prefix):
            return folder + ref[len(prefix) :]
    return ref


def refers_to(ref: str, path: str, prefixes: Mapping[str, str]) -> bool:
    """Does a reference name this recipe file, as a file system reads the path?"""
    mapped = target(posixpath.normpath(ref) if "/" in ref else ref, prefixes)
    if "/" in mapped:
        mapped = posixpath.normpath(mapped)
    if "/" not in mapped:
        return path.rsplit("/", 1)[-1] == mapped
    return mapped == path


def is_recipe(path: str, prefixes: Mapping[str, str], recipe_dirs: Sequence[str]) -> bool:
    if not path.endswith(RECIPE_SUFFIXES):
        return False
    folders = (*recipe_dirs, *prefixes.values())
    return any(path.startswith(folder) for folder in folders)


def needle(path: str) -> str:
    """A substring every reference to ``path`` contains: its file name."""
    return path.rsplit("/", 1)[-1]


def same_data(old: bytes, new: bytes) -> bool:
    """Do two versions of a recipe hold the same YAML data, to both readings? One that does not
    parse, repeats a key or breaks a limit never does; two the jobs (PyYAML) cannot load are
    the same to them."""
    if old == new:
        return True
    try:
        if not same(parse(old), parse(new)):
            return False
    except YamlProblem:
        return False
    before, after = parse_1_1(old), parse_1_1(new)
    if isinstance(before, YamlProblem) or isinstance(after, YamlProblem):
        return isinstance(before, YamlProblem) and isinstance(after, YamlProblem)
    return same(before, after)
