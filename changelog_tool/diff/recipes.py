"""Recipe references: which master keys point at which recipe files (pure).

A key references a recipe with a string ``NAME=<path>.yaml`` anywhere in its
value (``CONFIG_FILE=recipes/vllm/...yaml`` in practice). ``recipes/...`` and
other configured prefixes map to a directory of the repository; a path under a
recipe directory is taken as is; a bare file name means any recipe file with
that name.

A recipe edit counts only when the file's YAML data changes, as this tool reads it
(YAML 1.2) or as the benchmark jobs load it (PyYAML, YAML 1.1: an unquoted ``off``
is false there, ``"off"`` text): comments, layout, quoting and key order that
neither reading sees do not (:func:`same_data`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator, Mapping, Sequence

from ruamel.yaml.error import YAMLError

from changelog_tool.yaml.limits import BUILD_ERRORS, YamlRefused
from changelog_tool.yaml.safeload import load
from changelog_tool.yaml.values import same
from changelog_tool.yaml.yaml11 import Unreadable
from changelog_tool.yaml.yaml11 import load as load_1_1

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
    """Does a reference name this recipe file? (``recipes/v/./agg.yaml`` and
    ``./recipes//v/agg.yaml`` name ``recipes/v/agg.yaml``, as a file system reads them.)"""
    mapped = target(posixpath.normpath(ref) if "/" in ref else ref, prefixes)
    if "/" in mapped:
        mapped = posixpath.normpath(mapped)
    if "/" not in mapped:
        return path.rsplit("/", 1)[-1] == mapped
    return mapped == path


def is_recipe(path: str, prefixes: Mapping[str, str], recipe_dirs: Sequence[str]) -> bool:
    """A YAML file under a recipe directory or a prefix's directory."""
    if not path.endswith(RECIPE_SUFFIXES):
        return False
    folders = (*recipe_dirs, *prefixes.values())
    return any(path.startswith(folder) for folder in folders)


def needle(path: str) -> str:
    """A substring every reference to ``path`` contains: its file name."""
    return path.rsplit("/", 1)[-1]


def same_data(old: bytes, new: bytes) -> bool:
    """Do two versions of a recipe hold the same YAML data, to both readings? A
    version that does not parse, holds a key twice or breaks a limit (``limits``:
    alias expansion, depth) never does: the recipe counts as changed."""
    if old == new:
        return True
    try:
        if not same(load(old), load(new)):
            return False
    except (YAMLError, YamlRefused):
        return False
    except BUILD_ERRORS:  # a value its tag says it is and is not
        return False
    return _same_to_the_jobs(old, new)


_UNREAD = object()


def _same_to_the_jobs(old: bytes, new: bytes) -> bool:
    """Do the benchmark jobs (PyYAML) load the same data from both versions? Two
    versions they cannot load at all are the same to them (nothing new runs)."""
    before, after = _as_the_jobs_load(old), _as_the_jobs_load(new)
    if before is _UNREAD or after is _UNREAD:
        return before is after
    return same(before, after)


def _as_the_jobs_load(data: bytes) -> object:
    try:
        return load_1_1(data)
    except (Unreadable, YAMLError, YamlRefused):
        return _UNREAD
