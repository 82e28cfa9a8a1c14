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
    """One changed master key, or a whole master file (from line 1): file, head and base bytes
    (``None``: added), start line, the file's styled keys."""

    path: str
    head: bytes
    base: bytes | None
    line: int
    style: Callable[[], keystyle.Votes] | None
    """The whole file's styled keys (counted when a key has no styled sibling)."""


@dataclass
class Changed:
    """What the lints look at: the changed recipe files, the changed master keys (or whole master
    files, first) and their references."""

    recipes: dict[str, tuple[bytes, bytes | None]] = field(default_factory=dict)
    master_keys: list[MasterKey] = field(default_factory=list)
    references: list[tuple[str, str, str, int]] = field(default_factory=list)
    """``(master file, key, reference, line)`` for each reference of a changed key."""


def review(
    changed: Changed,
    exists: Callable[[str], bool],
    target: Callable[[str], str | None],
    severity: MappingType[str, str] | None = None,
) -> list[Finding]:
    levels = {**DEFAULT_SEVERITY, **(severity or {})}
    styles, repeats = levels["key-style"] != "off", levels["repeated-block"] != "off"
    values = Values()
    leaves = repeated.Leaves(values, repeated.Budget()) if repeats else None
    out: list[Finding] = []
    recipes = []
    budget = _Budget(changed)
    for path, (head, base) in sorted(changed.recipes.items()):
        if path in budget.taken:
            file = _File(path, head, base, values if repeats else None)
            out += file.lints(styles, leaves)
            recipes.append(file)
    for part in changed.master_keys:
        if part.path in budget.taken:
            file = _File(part.path, part.head, part.base, line=part.line, style=part.style)
            out += file.lints(styles, None)
    out += budget.findings(levels)
    if leaves is not None and leaves.budget.cut:
        out.append(_cut_short(sorted(leaves.budget.cut), levels["repeated-block"]))
    if repeats:
        out += _copies(recipes)
    out += reference_findings(changed.references, exists, target)
    return [
        replace(f, severity=levels.get(f.code, f.severity))
        for f in out
        if levels.get(f.code, f.severity) != "off"
    ]


REVIEW_BYTES = 512 << 10
"""The changed YAML key-style and repeated-block read in one run: a real change is a
few recipes and keys (kilobytes); past this, what is left is not reviewed and a
``review-skipped`` finding names it, so that a branch of a 1 MB file of new keys
costs bounded work. A lint the settings make an error fails closed: its
``review-skipped`` is an error, so a budget never lowers a severity."""


class _Budget:
    """Which changed files the review reads within :data:`REVIEW_BYTES`, decided before reading:
    masters first, then recipes, smallest first in each."""

    def __init__(self, changed: Changed) -> None:
        sizes: dict[str, int] = {}
        for part in changed.master_keys:
            sizes[part.path] = sizes.get(part.path, 0) + len(part.head)
        self.masters = set(sizes)
        recipes = {path: len(head) for path, (head, _) in changed.recipes.items()}
        self.read = 0
        self.taken: set[str] = set()
        self.skipped: dict[str, int] = {}
        for group in (sizes, recipes):
            for path, size in sorted(group.items(), key=lambda item: (item[1], item[0])):
                if self.read + size <= REVIEW_BYTES:
                    self.read += size
                    self.taken.add(path)
                else:
                    self.skipped[path] = self.skipped.get(path, 0) + size

    def findings(self, levels: MappingType[str, str]) -> list[Finding]:
        """A ``review-skipped`` error per erroring lint that left a file unread, a notice for the
        others."""
        unread = {
            "key-style": sorted(self.skipped),
            "repeated-block": sorted(p for p in self.skipped if p not in self.masters),
        }
        out = []
        lower = []
        for code, paths in unread.items():
            if not paths or levels[code] == "off":
                continue
            if levels[code] != "error":
                lower.append(code)
                continue
            out.append(
                Finding(
                    "review-skipped",
                    f"{code} is an error in the settings, and this change is too large for it "
                    f"to review: it read {self.read:,} bytes of changed YAML and left "
                    f"{self._size(paths):,} bytes unread, in {', '.join(paths)}; the review "
                    "fails closed: split the change into smaller branches",
                    paths[0],
                    None,
                    "error",
                )
            )
        if lower:
            paths = sorted({p for code in lower for p in unread[code]})
            out.append(
                Finding(
                    "review-skipped",
                    f"{' and '.join(lower)} reviewed {self.read:,} bytes of changed YAML "
                    f"and left {self._size(paths):,} bytes unread (in {', '.join(paths)}): "
                    "a change this large is reviewed by hand; the gate's other checks ran on "
                    "all of it",
                    paths[0],
                    None,
                    "notice",
                )
            )
        return out

    def _size(self, paths: list[str]) -> int:
        return sum(self.skipped[path] for path in paths)


def _cut_short(paths: list[str], level: str) -> Finding:
    """repeated-block ran out of budget: an error when the settings make it one, else a notice."""
    closed = level == "error"
    return Finding(
        "review-skipped",
        f"repeated-block compared blocks until its work budget ({repeated.MAX_PAIRS:,} "
        f"pairs, {repeated.MAX_LEAVES:,} fields) ran out, in {', '.join(paths)}: "
        + (
            "it is an error in the settings, so the review fails closed; split the change"
            if closed
            else "what it did not compare is reviewed by hand"
        ),
        paths[0],
        None,
        "error" if closed else "notice",
    )


class _File:
    """One file (or one key's part) and what the lints ask of it; the base is parsed only when
    needed."""

    def __init__(
        self,
        path: str,
        head: bytes,
        base: bytes | None,
        values: Values | None = None,
        *,
        line: int = 1,
        style: Callable[[], keystyle.Votes] | None = None,
    ) -> None:
        self.path = path
        self.base = base
        self.values = values
        self.style = style
        self.repeats: list[repeated.Repeat] = []
        try:
            self.now: list[Mapping] | None = mappings(head, line - 1, values=values)
        except YamlProblem:
            self.now = None

    @cached_property
    def before(self) -> list[Mapping]:
        return mappings(self.base, values=self.values) if self.base is not None else []

    @cached_property
    def new_paths(self) -> set[tuple[str, ...]]:
        return keystyle.key_paths(self.now or []) - keystyle.key_paths(self.before)

    @cached_property
    def new_places(self) -> set[repeated.Place]:
        try:
            before = self.before
        except YamlProblem:  # a base no lint can read: nothing here counts as new
            return set()
        return repeated.new_places(self.path, self.now or [], before)

    def lints(self, styles: bool, leaves: repeated.Leaves | None) -> list[Finding]:
        """``leaves``: look for repeated blocks too (recipes)."""
        now = self.now
        if now is None:
            return []
        out = []
        try:
            for slip in keystyle.slips(now, lambda: self.new_paths, self.style) if styles else []:
                out.append(
                    Finding("key-style", _style_message(slip), self.path, slip.line, key=slip.key)
                )
            if leaves is not None:
                changed = repeated.changed_blocks(now, self.before)
                self.repeats = repeated.repeats(self.path, now, leaves, changed)
                for repeat in self.repeats:
                    out.append(Finding("repeated-block", repeat.message(), self.path, repeat.line))
        except YamlProblem:
            self.now = None
            return []
        return out


def _style_message(slip: keystyle.StyleSlip) -> str:
    if slip.by_file:
        siblings = (
            "its sibling keys are split evenly between the styles"
            if slip.split
            else "it has no sibling key with a style to go by"
        )
        why = (
            f"in a file whose keys are {100 * slip.backing // slip.voters}% {slip.expected} "
            f"({siblings})"
        )
    else:
        why = (
            f"among {slip.expected} keys ({slip.backing} of its {slip.voters} sibling keys "
            "with a style)"
        )
    return f"{slip.key!r} is {slip.style} {why}; write {slip.fix!r}, as they are written"


def _copies(files: list[_File]) -> list[Finding]:
    """The large blocks repeated across the changed recipe files, beyond the sibling repeats."""
    readable = [f for f in files if f.now is not None]
    maps = {f.path: f.now or [] for f in readable}
    by_path = {f.path: f for f in readable}
    places = [p for f in readable for r in f.repeats for p in r.places()]
    found = repeated.copies(maps, lambda path: by_path[path].new_places, places)
    return [Finding("repeated-block", c.message(), c.first.path, c.first.line) for c in found]


# ``recipe-reference``: a changed key's references that name no file, one finding per key.
def reference_findings(
    references: Iterable[tuple[str, str, str, int]],
    exists: Callable[[str], bool],
    target: Callable[[str], str | None],
) -> list[Finding]:
    """One finding per ``(master file, key)`` whose references name no existing path, at its
    first line."""
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
