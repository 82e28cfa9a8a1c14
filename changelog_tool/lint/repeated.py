"""``repeated-block``: two sibling mappings written out in full that are equal in
all but a few fields, where an anchor and a merge key would say it once (pure).

Typical: a recipe's ``prefill`` and ``decode`` blocks repeating a dozen fields and
a long connector setting, so that a later edit to one copy silently makes them
disagree. Blocks that already use a merge key (``<<``) are never reported.
Thresholds: a block needs at least ``min_fields`` leaf fields, and the pair may
differ in at most ``max_different`` of them.
"""

from __future__ import annotations

from dataclasses import dataclass

from changelog_tool.lint.tree import Mapping

MIN_FIELDS = 8
MAX_DIFFERENT = 3


@dataclass(frozen=True)
class Repeat:
    first: Mapping
    second: Mapping
    different: tuple[str, ...]
    shared: int

    def message(self) -> str:
        a, b = self.first.path[-1], self.second.path[-1]
        differ = ", ".join(self.different) if self.different else "nothing"
        return (
            f"{a} (line {self.first.line}) and {b} (line {self.second.line}) repeat "
            f"{self.shared} fields and differ only in {differ}; write the shared fields "
            f"once: `{a}: &{a}-common {{...}}` and `{b}: {{<<: *{a}-common, ...}}`, so an "
            "edit to one cannot silently leave the other behind"
        )


def repeats(
    maps: list[Mapping],
    changed: set[tuple[str, ...]] | None = None,
    *,
    min_fields: int = MIN_FIELDS,
    max_different: int = MAX_DIFFERENT,
) -> list[Repeat]:
    """Pairs of sibling blocks that repeat each other; with ``changed``, only pairs
    where at least one block is among the changed paths."""
    merged_parents = {m.path[:-1] for m in maps if m.merges and m.path}
    groups: dict[tuple[str, ...], list[Mapping]] = {}
    for mapping in maps:
        if (
            mapping.path
            and not mapping.merges
            and mapping.path[:-1] not in merged_parents
            and len(mapping.leaves) >= min_fields
        ):
            groups.setdefault(mapping.path[:-1], []).append(mapping)
    out = []
    for siblings in groups.values():
        for i, first in enumerate(siblings):
            for second in siblings[i + 1 :]:
                if changed is not None and first.path not in changed and second.path not in changed:
                    continue
                fields = first.leaves.keys() | second.leaves.keys()
                different = sorted(f for f in fields if first.leaves.get(f) != second.leaves.get(f))
                if len(different) <= max_different and len(fields) - len(different) >= min_fields:
                    out.append(
                        Repeat(first, second, tuple(different), len(fields) - len(different))
                    )
    return out


def changed_blocks(head: list[Mapping], base: list[Mapping]) -> set[tuple[str, ...]]:
    """Paths of the mappings that are new at head or whose leaves changed."""
    before = {m.path: m.leaves for m in base}
    return {m.path for m in head if before.get(m.path) != m.leaves}
