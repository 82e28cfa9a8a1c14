"""``repeated-block``'s second shape: a large block (at least
:data:`~changelog_tool.lint.repeated.MIN_SHARED` keys, or a scalar of :data:`LONG_SCALAR`
characters) written again in a changed file, at least one place new (pure)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from changelog_tool.lint.repeated import (
    MIN_SHARED,
    Merge,
    Place,
    anchor_name,
    as_already,
    merges,
    nearest,
)
from changelog_tool.yaml.tree import Mapping

LONG_SCALAR = 200


@dataclass(frozen=True)
class Copies:
    """The same large block (a mapping, or a long scalar) in several places."""

    places: tuple[Place, ...]
    scalar: bool
    size: int
    """Characters of the scalar, or fields of the mapping."""
    example: Merge | None = None

    @property
    def first(self) -> Place:
        return self.places[0]

    def message(self) -> str:
        what = (
            f"the same {self.size}-character value"
            if self.scalar
            else f"the same mapping of {self.size} fields"
        )
        where = ", ".join(f"{p.name()} ({p.path}:{p.line})" for p in self.places)
        key = self.first.keys[-1] if self.first.keys else "block"
        anchor = anchor_name(key)
        files = len({p.path for p in self.places})
        across = (
            f"; an anchor reaches only within its file, so across these {files} files "
            "each file can hold it once"
            if files > 1
            else ""
        )
        how = (
            f"`{key}: &{anchor} ...` the first time, `{key}: *{anchor}` after"
            if self.scalar
            else f"`{key}: &{anchor}` the first time, `*{anchor}` after (or `<<: *{anchor}` "
            "and what differs)"
        )
        return (
            f"{what} is written {len(self.places)} times: {where}; write it once per file: "
            f"{how}{as_already(self.example)}{across}"
        )


def copies(
    files: dict[str, list[Mapping]],
    new: Callable[[str], set[Place]],
    reported: Iterable[Place] = (),
) -> list[Copies]:
    """The large blocks written more than once in one of ``files``, with all their places, at
    least one new (``new(path)``). Not reported: blocks held once per file, inside reported
    siblings or inside a larger repeat."""
    found: dict[tuple[bool, int], list[Place]] = {}
    sizes: dict[tuple[bool, int], int] = {}
    for path, maps in files.items():
        for mapping in maps:
            if any(part.startswith("[") for part in mapping.path):
                continue  # items of one list are meant to be alike
            fields = len(mapping.fields) - ("<<" in mapping.fields)
            if mapping.path and fields >= MIN_SHARED:
                found.setdefault((False, mapping.value), []).append(
                    Place(path, mapping.path, mapping.line)
                )
                sizes[(False, mapping.value)] = fields
            for key in mapping.keys:
                length = mapping.lengths.get(key.name, 0)
                if length >= LONG_SCALAR:
                    number = (True, mapping.fields[key.name])
                    found.setdefault(number, []).append(
                        Place(path, (*mapping.path, key.name), key.line)
                    )
                    sizes[number] = length

    def twice_in_a_file(places: list[Place]) -> bool:
        return len({p.path for p in places}) < len(places)

    # the largest first: mappings before scalars, then by size
    order = sorted(
        (
            k
            for k, places in found.items()
            if twice_in_a_file(places) and any(p in new(p.path) for p in places)
        ),
        key=lambda k: (k[0], -sizes[k], min((p.path, p.line) for p in found[k])),
    )
    siblings = {(p.path, p.keys) for p in reported}
    covered: set[tuple[str, tuple[str, ...]]] = set()
    out = []
    examples: dict[str, list[Merge]] = {}
    for number in order:
        places = sorted(found[number], key=lambda p: (p.path, p.line))
        if all(_inside(covered, p) for p in places):
            continue
        if len({p.path for p in places}) == 1 and all(_inside(siblings, p) for p in places):
            continue
        first = next(p for p in places if p in new(p.path))
        places.remove(first)
        places.insert(0, first)
        if first.path not in examples:
            examples[first.path] = merges(files[first.path])
        example = nearest(examples[first.path], first.keys[:-1])
        out.append(Copies(tuple(places), number[0], sizes[number], example))
        covered.update((p.path, p.keys) for p in places)
    return out


def _inside(named: set[tuple[str, tuple[str, ...]]], place: Place) -> bool:
    """``place`` is one of the ``named`` places (path, keys), or inside one."""
    return any((place.path, place.keys[:n]) in named for n in range(len(place.keys) + 1))


def new_places(path: str, head: list[Mapping], base: list[Mapping]) -> set[Place]:
    """The places of ``path`` whose value is new at head (changed mappings and scalar fields)."""
    before = {m.path: m for m in base}
    out = set()
    for mapping in head:
        old = before.get(mapping.path)
        if old is not None and old.value == mapping.value:
            continue
        out.add(Place(path, mapping.path, mapping.line))
        for key in mapping.keys:
            if key.name in mapping.lengths and (
                old is None or old.fields.get(key.name) != mapping.fields[key.name]
            ):
                out.add(Place(path, (*mapping.path, key.name), key.line))
    return out
