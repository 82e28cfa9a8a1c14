"""``repeated-block``: two sibling mappings written out in full that are equal in
all but a few fields, where an anchor and a merge key would say it once (pure).

Typical: a recipe's ``prefill`` and ``decode`` blocks repeating a dozen fields and
a long connector setting, so that a later edit to one copy silently makes them
disagree. Blocks that already use a merge key (``<<``) are never reported, nor
items of one list (a sweep's entries are meant to look alike).
Thresholds: a block needs at least ``min_fields`` leaf fields, and the pair may
differ in at most ``max_different`` of them.
"""

from __future__ import annotations

from changelog_tool.lint.tree import Mapping
from changelog_tool.records import record

MIN_FIELDS = 8
MAX_DIFFERENT = 3


@record(frozen=True)
class Repeat:
    """Sibling blocks that repeat each other: the first is where the notice goes."""

    blocks: tuple[Mapping, ...]
    different: tuple[str, ...]
    shared: int

    @property
    def first(self) -> Mapping:
        return self.blocks[0]

    def message(self) -> str:
        names = [b.path[-1] for b in self.blocks]
        where = ", ".join(f"{n} (line {b.line})" for n, b in zip(names, self.blocks, strict=True))
        how = f"differ only in {', '.join(self.different)}" if self.different else "are identical"
        a = names[0]
        return (
            f"{where} repeat {self.shared} fields and {how}; write the shared fields "
            f"once: `{a}: &{a}-common {{...}}` and `{names[1]}: {{<<: *{a}-common, ...}}`, "
            "so an edit to one cannot silently leave the others behind"
        )


def repeats(
    maps: list[Mapping],
    changed: set[tuple[str, ...]] | None = None,
    *,
    min_fields: int = MIN_FIELDS,
    max_different: int = MAX_DIFFERENT,
) -> list[Repeat]:
    """Groups of sibling blocks that repeat each other (one notice per group); with
    ``changed``, only groups where at least one block is among the changed paths."""
    merged_parents = {m.path[:-1] for m in maps if m.merges and m.path}
    groups: dict[tuple[str, ...], list[Mapping]] = {}
    for mapping in maps:
        if (
            mapping.path
            and not mapping.path[-1].startswith("[")  # list items are meant to be alike
            and not mapping.merges
            and mapping.path[:-1] not in merged_parents
            and len(mapping.leaves) >= min_fields
        ):
            groups.setdefault(mapping.path[:-1], []).append(mapping)
    out = []
    for siblings in groups.values():
        taken: set[int] = set()
        for i, first in enumerate(siblings):
            if i in taken:
                continue
            members, different = [first], set()
            for j in range(i + 1, len(siblings)):
                second = siblings[j]
                fields = first.leaves.keys() | second.leaves.keys()
                differ = {f for f in fields if first.leaves.get(f) != second.leaves.get(f)}
                if len(differ) <= max_different and len(fields) - len(differ) >= min_fields:
                    members.append(second)
                    different |= differ
                    taken.add(j)
            if len(members) < 2:
                continue
            if changed is not None and not any(m.path in changed for m in members):
                continue
            every = set().union(*(m.leaves.keys() for m in members))
            out.append(Repeat(tuple(members), tuple(sorted(different)), len(every - different)))
    return out


def changed_blocks(head: list[Mapping], base: list[Mapping]) -> set[tuple[str, ...]]:
    """Paths of the mappings that are new at head or whose leaves changed."""
    before = {m.path: m.leaves for m in base}
    return {m.path for m in head if before.get(m.path) != m.leaves}
