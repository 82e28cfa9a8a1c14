"""Recipe references: which master keys point at which recipe files (pure).

A key references a recipe with a string ``NAME=<path>.yaml`` anywhere in its
value (``CONFIG_FILE=recipes/vllm/...yaml`` in practice). ``recipes/...`` and
other configured prefixes map to a directory of the repository; a path under a
recipe directory is taken as is; a bare file name means any recipe file with
that name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

_REF = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]*=([^\s\"',;=]+\.ya?ml)(?![A-Za-z0-9_.])")
RECIPE_SUFFIXES = (".yaml", ".yml")


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _strings(item)


def references(value: Any) -> list[str]:
    """Every recipe reference (the part after ``NAME=``) inside a key's value."""
    found: list[str] = []
    for text in _strings(value):
        found.extend(m.group(1) for m in _REF.finditer(text))
    return sorted(set(found))


def target(ref: str, prefixes: Mapping[str, str]) -> str:
    """The repository path a reference stands for (a bare name stays bare)."""
    for prefix, folder in prefixes.items():
        if ref.startswith(prefix):
            return folder + ref[len(prefix):]
    return ref


def refers_to(ref: str, path: str, prefixes: Mapping[str, str]) -> bool:
    """Does a reference name this recipe file?"""
    mapped = target(ref, prefixes)
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
