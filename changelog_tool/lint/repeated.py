"""``repeated-block`` (pure): sibling mappings that are near copies (:func:`repeats`) and large
blocks written again (:func:`copies`), bounded by :data:`MAX_PAIRS` and :data:`MAX_LEAVES`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from changelog_tool.findings import Finding
from changelog_tool.yaml.tree import Mapping, Values

MIN_SHARED = 8
MIN_SHARE = 0.75
MAX_PAIRS = 50_000
MAX_LEAVES = 500_000


@dataclass(frozen=True)
class Place:
    path: str
    keys: tuple[str, ...]
    line: int


@dataclass(frozen=True)
class Merge:
    """An anchor a file already defines and a mapping that merges it."""

    anchor: str
    defined: Mapping
    used: Mapping


def anchor_name(name: str) -> str:
    cleaned = "".join(c if c.isalnum() or c in "-_" else "-" for c in name).strip("-")
    return f"{cleaned or 'block'}-common"


def as_already(examples: Sequence[Merge], near: tuple[str, ...]) -> str:
    """The file's own anchor-and-merge pair whose merging mapping shares the longest path with
    ``near`` (first on a tie), as an example to follow; empty without one."""
    example = max(examples, key=lambda e: _shared(e.used.path, near), default=None)
    if example is None:
        return ""
    defined, used = example.defined, example.used
    return (
        f", as this file already does with `{defined.path[-1] if defined.path else '...'}: "
        f"&{example.anchor}` (line {defined.line}) and `<<: *{example.anchor}` "
        f"(line {used.line})"
    )


def _shared(a: tuple[str, ...], b: tuple[str, ...]) -> int:
    """How many leading path components ``a`` and ``b`` have in common."""
    pairs = enumerate(zip(a, b, strict=False))
    return next((i for i, (x, y) in pairs if x != y), min(len(a), len(b)))


MAX_EXAMPLES = 100


def merges(maps: Sequence[Mapping]) -> list[Merge]:
    """The file's own anchor-and-merge-key pairs, the first :data:`MAX_EXAMPLES`."""
    anchored = {m.anchor: m for m in maps if m.anchor is not None}
    out: list[Merge] = []
    for mapping in maps:
        for name in mapping.merged_from:
            defined = anchored.get(name)
            if defined is not None and len(out) < MAX_EXAMPLES:
                out.append(Merge(name, defined, mapping))
    return out


class Budget:
    """Work left over one review: sibling pairs to compare, and leaf fields to flatten (a
    block's fields as leaf paths, flattened once; past the budget, its direct keys)."""

    def __init__(self, values: Values) -> None:
        self.values = values
        self.pairs, self.leaves = MAX_PAIRS, MAX_LEAVES
        self.path = ""  # the file being reviewed
        self.cut: set[str] = set()  # the files whose review it cut short
        self._done: dict[int, dict[str, int] | None] = {}

    def of(self, mapping: Mapping) -> dict[str, int]:
        out = self._join(mapping.fields.items())
        return dict(mapping.fields) if out is None else out

    def _flat(self, number: int) -> dict[str, int] | None:
        if number in self._done:
            return self._done[number]
        shape = self.values.shape(number)
        kind, inner = shape if isinstance(shape, tuple) else (None, ())
        if kind == "m":
            out = self._join(inner)
        elif kind == "q":
            out = self._join((f"[{i}]", n) for i, n in enumerate(inner))
        else:
            out = {"": number}
        self._done[number] = out
        return out

    def _join(self, fields: Iterable[tuple[str, int]]) -> dict[str, int] | None:
        out: dict[str, int] = {}
        for name, number in fields:
            below = self._flat(number)
            if below is None:
                return None
            if not below or "" in below:  # a scalar, or an empty collection
                out[name] = number
                continue
            for path, value in below.items():
                out[f"{name}{'' if path.startswith('[') else '.'}{path}"] = value
        self.leaves -= len(out)
        if self.leaves < 0:
            self.cut.add(self.path)
            return None
        return out


def repeats(
    path: str, maps: list[Mapping], base: list[Mapping], budget: Budget
) -> tuple[list[Finding], list[Mapping]]:
    """Groups of sibling blocks (none using ``<<``, nor list items) sharing at least
    :data:`MIN_SHARED` identical leaf fields and :data:`MIN_SHARE` of their union, one of them
    new or changed since ``base``: a finding at each group's first block, and the blocks
    reported."""
    budget.path = path
    before = {m.path: m.value for m in base}
    changed = {m.path for m in maps if before.get(m.path) != m.value}
    merged_parents = {m.path[:-1] for m in maps if m.merges and m.path}
    groups: dict[tuple[str, ...], list[Mapping]] = {}
    for mapping in maps:
        if (
            mapping.path
            and not mapping.path[-1].startswith("[")  # list items are meant to be alike
            and not mapping.merges
            and mapping.path[:-1] not in merged_parents
        ):
            groups.setdefault(mapping.path[:-1], []).append(mapping)
    out, reported = [], []
    examples: list[Merge] | None = None
    for siblings in groups.values():
        if len(siblings) < 2:
            continue
        blocks = [(m, budget.of(m)) for m in siblings]
        blocks = [(m, fields) for m, fields in blocks if len(fields) >= MIN_SHARED]
        for members in _near_copies(blocks, budget):
            if not any(m.path in changed for m, _ in members):
                continue
            first, firsts = members[0]
            different = {
                f
                for _, fields in members[1:]
                for f in firsts.keys() | fields.keys()
                if firsts.get(f) != fields.get(f)
            }
            shared = len(set().union(*(fields.keys() for _, fields in members)) - different)
            if examples is None:
                examples = merges(maps)
            already = as_already(examples, first.path[:-1])
            reported += [m for m, _ in members]
            names = [m.path[-1] for m, _ in members]
            where = ", ".join(f"{m.path[-1]} (line {m.line})" for m, _ in members)
            how = f"differ only in {', '.join(sorted(different))}" if different else "are identical"
            a, anchor = names[0], anchor_name(names[0])
            said = (
                f"{where} repeat {shared} fields and {how}; write the shared fields once: "
                f"`{a}: &{anchor}` and, in {', '.join(names[1:])}, `<<: *{anchor}` followed by "
                f"only the fields that differ{already}, so an edit to one "
                "copy cannot silently leave the others behind"
            )
            out.append(Finding("repeated-block", said, path, first.line))
    return out, reported


Block = tuple[Mapping, dict[str, int]]


def _near_copies(siblings: list[Block], budget: Budget) -> Iterable[list[Block]]:
    """Identical siblings by value number, near copies by fields while the budget lasts."""
    leaders: list[tuple[Block, set[tuple[str, int]], list[Block]]] = []
    by_value: dict[int, list[Block]] = {}
    for block in siblings:
        mapping, fields = block
        same = by_value.get(mapping.value)
        if same is not None:
            same.append(block)
            continue
        items = set(fields.items())
        group = None
        for (_, leader), leader_items, members in leaders:
            if budget.pairs <= 0:
                budget.cut.add(budget.path)
                break
            budget.pairs -= 1
            shared = len(items & leader_items)
            union = len(fields.keys() | leader.keys())
            if shared >= MIN_SHARED and shared >= MIN_SHARE * union:
                group = members
                break
        if group is None:
            group = []
            leaders.append((block, items, group))
            by_value[mapping.value] = group
        group.append(block)
    return [members for _, _, members in leaders if len(members) > 1]


# ``repeated-block``'s second shape: a large block (at least :data:`MIN_SHARED` keys, or a
# scalar of :data:`LONG_SCALAR` characters) written again in a changed file, one place new.
LONG_SCALAR = 200


def _copies_message(places: list[Place], scalar: bool, size: int, already: str) -> str:
    """``size``: characters of the scalar, or fields of the mapping."""
    what = f"the same {size}-character value" if scalar else f"the same mapping of {size} fields"
    where = ", ".join(f"{'.'.join(p.keys) or '(the document)'} ({p.path}:{p.line})" for p in places)
    key = places[0].keys[-1] if places[0].keys else "block"
    anchor = anchor_name(key)
    files = len({p.path for p in places})
    across = (
        f"; an anchor reaches only within its file, so across these {files} files "
        "each file can hold it once"
        if files > 1
        else ""
    )
    how = (
        f"`{key}: &{anchor} ...` the first time, `{key}: *{anchor}` after"
        if scalar
        else f"`{key}: &{anchor}` the first time, `*{anchor}` after (or `<<: *{anchor}` "
        "and what differs)"
    )
    return (
        f"{what} is written {len(places)} times: {where}; write it once per file: "
        f"{how}{already}{across}"
    )


def copies(
    files: dict[str, list[Mapping]],
    new: Callable[[str], set[Place]],
    siblings: set[tuple[str, tuple[str, ...]]],
) -> list[Finding]:
    """The large blocks (a mapping, or a long scalar) written more than once in one of ``files``,
    at their first new place, with all their places, at least one new (``new(path)``). Not
    reported: blocks held once per file, inside the reported ``siblings`` (path, keys) or inside
    a larger repeat."""
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

    # twice in one file, one place new; the largest first: mappings before scalars, then by size
    order = sorted(
        (
            k
            for k, places in found.items()
            if len({p.path for p in places}) < len(places) and any(p in new(p.path) for p in places)
        ),
        key=lambda k: (k[0], -sizes[k], min((p.path, p.line) for p in found[k])),
    )
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
        already = as_already(examples[first.path], first.keys[:-1])
        said = _copies_message(places, number[0], sizes[number], already)
        out.append(Finding("repeated-block", said, first.path, first.line))
        covered.update((p.path, p.keys) for p in places)
    return out


def _inside(named: set[tuple[str, tuple[str, ...]]], place: Place) -> bool:
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
