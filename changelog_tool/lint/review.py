"""The lints over what a branch changed, as findings at their lines with the severities the
settings give (``off`` drops one). Pure over the files given."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from collections.abc import Mapping as MappingType
from dataclasses import dataclass, field, replace
from functools import cached_property

from changelog_tool.findings import Finding, listing
from changelog_tool.lint import keystyle, repeated
from changelog_tool.settings import DEFAULT_SEVERITY
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.tree import Mapping, Values, mappings


@dataclass(frozen=True)
class MasterKey:
    """One changed master key, or a whole master or recipe file (from line 1): file, head and
    base bytes (``None``: added), start line, the file's styled keys."""

    path: str
    head: bytes
    base: bytes | None
    line: int
    style: Callable[[], keystyle.Votes] | None


@dataclass
class Changed:
    """The changed recipes, the changed master keys (whole master files first), their references."""

    recipes: dict[str, tuple[bytes, bytes | None]] = field(default_factory=dict)
    master_keys: list[MasterKey] = field(default_factory=list)
    references: list[tuple[str, str, str, int]] = field(default_factory=list)
    """``(master file, key, reference, line)``."""


def review(
    changed: Changed,
    exists: Callable[[str], bool],
    target: Callable[[str], str | None],
    severity: MappingType[str, str] | None = None,
) -> list[Finding]:
    levels = {**DEFAULT_SEVERITY, **(severity or {})}
    styles, repeats = levels["key-style"] != "off", levels["repeated-block"] != "off"
    values = Values()
    work = repeated.Budget(values) if repeats else None
    out: list[Finding] = []
    recipes = []
    taken, skipped = _budget(changed, levels)
    for path, (head, base) in sorted(changed.recipes.items()):
        if path in taken:
            file = _File(MasterKey(path, head, base, 1, None), values if repeats else None)
            out += file.lints(styles, work)
            recipes.append(file)
    for part in changed.master_keys:
        if part.path in taken:
            out += _File(part).lints(styles, None)
    out += skipped
    if work is not None and work.cut:
        paths, closed = sorted(work.cut), levels["repeated-block"] == "error"
        said = (
            f"repeated-block compared blocks until its work budget ({repeated.MAX_PAIRS:,} "
            f"pairs, {repeated.MAX_LEAVES:,} fields) ran out, in {', '.join(paths)}: "
        ) + (
            "it is an error in the settings, so the review fails closed; split the change"
            if closed
            else "what it did not compare is reviewed by hand"
        )
        out.append(Finding("review-skipped", said, paths[0], None, "error" if closed else "notice"))
    if repeats:  # large blocks repeated across the recipes, beyond the sibling repeats
        read = {f.path: f for f in recipes if f.now is not None}
        maps = {path: f.now or [] for path, f in read.items()}
        siblings = {(f.path, b.path) for f in read.values() for b in f.repeated}
        out += repeated.copies(maps, lambda path: read[path].new_places, siblings)
    out += reference_findings(changed.references, exists, target)
    return [
        replace(f, severity=levels.get(f.code, f.severity))
        for f in out
        if levels.get(f.code, f.severity) != "off"
    ]


REVIEW_BYTES = 512 << 10
"""The changed YAML key-style and repeated-block read in one run (a real change is kilobytes);
past it a ``review-skipped`` finding names what is left, an error for a lint the settings make
one, so a budget never lowers a severity."""


def _budget(changed: Changed, levels: MappingType[str, str]) -> tuple[set[str], list[Finding]]:
    """The files read within :data:`REVIEW_BYTES`, decided before reading (masters first, then
    recipes, smallest first in each), and a ``review-skipped`` error per erroring lint that left
    a file unread, one notice for the others."""
    masters: dict[str, int] = {}
    for part in changed.master_keys:
        masters[part.path] = masters.get(part.path, 0) + len(part.head)
    recipes = {path: len(head) for path, (head, _) in changed.recipes.items()}
    read, taken, skipped = 0, set[str](), dict[str, int]()
    for group in (masters, recipes):
        for path, size in sorted(group.items(), key=lambda item: (item[1], item[0])):
            if read + size <= REVIEW_BYTES:
                read += size
                taken.add(path)
            else:
                skipped[path] = skipped.get(path, 0) + size
    unread = {
        "key-style": sorted(skipped),
        "repeated-block": sorted(p for p in skipped if p not in masters),
    }
    spoken = [code for code, paths in unread.items() if paths and levels[code] != "off"]
    groups = [([code], "error") for code in spoken if levels[code] == "error"]
    lower = [code for code in spoken if levels[code] != "error"]
    groups += [(lower, "notice")] if lower else []
    out = []
    for codes, level in groups:
        paths = sorted({p for code in codes for p in unread[code]})
        left = sum(skipped[path] for path in paths)
        said = (
            f"{codes[0]} is an error in the settings, and this change is too large for it to "
            f"review: it read {read:,} bytes of changed YAML and left {left:,} bytes unread, "
            f"in {', '.join(paths)}; the review fails closed: split the change into smaller "
            "branches"
            if level == "error"
            else f"{' and '.join(codes)} reviewed {read:,} bytes of changed YAML and left "
            f"{left:,} bytes unread (in {', '.join(paths)}): a change this large is reviewed "
            "by hand; the gate's other checks ran on all of it"
        )
        out.append(Finding("review-skipped", said, paths[0], None, level))
    return taken, out


class _File:
    """A recipe or a master key's part; its base is parsed only when a lint asks."""

    def __init__(self, part: MasterKey, values: Values | None = None) -> None:
        self.part, self.path, self.values = part, part.path, values
        self.repeated: list[Mapping] = []  # the blocks its repeated-block findings name
        try:
            self.now: list[Mapping] | None = mappings(part.head, part.line - 1, values=values)
        except YamlProblem:
            self.now = None

    @cached_property
    def before(self) -> list[Mapping]:
        base = self.part.base
        return mappings(base, values=self.values) if base is not None else []

    @cached_property
    def new_paths(self) -> set[tuple[str, ...]]:
        return keystyle.key_paths(self.now or []) - keystyle.key_paths(self.before)

    @cached_property
    def new_places(self) -> set[repeated.Place]:
        """(Asked only once :meth:`lints` read the base.)"""
        return repeated.new_places(self.path, self.now or [], self.before)

    def lints(self, styles: bool, work: repeated.Budget | None) -> list[Finding]:
        now = self.now
        if now is None:
            return []
        out = []
        try:
            if styles:
                out += keystyle.slips(self.path, now, lambda: self.new_paths, self.part.style)
            if work is not None:
                found, self.repeated = repeated.repeats(self.path, now, self.before, work)
                out += found
        except YamlProblem:
            self.now = None
            return []
        return out


def reference_findings(
    references: Iterable[tuple[str, str, str, int]],
    exists: Callable[[str], bool],
    target: Callable[[str], str | None],
) -> list[Finding]:
    """``recipe-reference``: one finding per ``(master file, key)`` whose references name no
    existing path, at its first line."""
    dangling: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
    for path, key, ref, line in references:
        where = target(ref)
        if where is not None and not exists(where):
            dangling.setdefault((path, key), []).append((ref, where, line))
    out = []
    for (path, key), refs in dangling.items():
        refs.sort(key=lambda r: (r[2], r[0]))
        if len(refs) == 1:
            ref, where, _ = refs[0]
            what = f"references {ref!r}, but {where} is not in this repository"
        else:
            names = [repr(ref) for ref, _, _ in refs]
            what = (
                f"references {len(refs)} recipes that are not in this repository ({listing(names)})"
            )
        out.append(
            Finding(
                "recipe-reference",
                f"{key} {what}; fix the path, add the recipe, or (for a recipe from "
                "another collection) ignore this",
                path,
                refs[0][2],
                key=key,
                detail={
                    "references": [
                        {"reference": ref, "path": where, "line": line} for ref, where, line in refs
                    ]
                },
            )
        )
    return out
