"""The one rule for an acceptable new entry (:func:`rejections`), used by ``add``, ``--json``,
the TUI and ``verify``: schema, no repeats, patterns that match, scenario types, pr-link."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from changelog_tool.diff.fields import kinds
from changelog_tool.diff.local import no_master_configs, work_tree_masters
from changelog_tool.diff.masters import MasterSet
from changelog_tool.diff.scenarios import named_types, runs
from changelog_tool.errors import ChangelogError, did_you_mean, see
from changelog_tool.findings import shown as quoted
from changelog_tool.gate import prlinks
from changelog_tool.gitrepo import head_state
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.entry import (
    matching_keys,
    normalize,
    repeated_items,
    schema_errors,
    texts,
)
from changelog_tool.settings import Settings, is_placeholder
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.yaml11 import disagreements

QUEUE = see("The placeholder before a merge queue")

BROAD_PATTERN_EXTRA_KEYS = 10
"""A pattern is *broad* when it matches more than this many keys that the branch did
not change: each of them re-runs its whole sweep for nothing the change needs."""


def broad(pattern: str, matched: Sequence[str], changed: Iterable[str]) -> str | None:
    """The warning for a pattern reaching far more keys than the branch changed, or ``None``."""
    needed = set(matched) & set(changed)
    extra = len(matched) - len(needed)
    if "*" not in pattern or extra <= BROAD_PATTERN_EXTRA_KEYS:
        return None
    return (
        f"{pattern!r} matches {len(matched)} keys; {extra} of them did not change on this "
        f"branch and would run their sweeps again (narrow the pattern, or name the keys)"
    )


@dataclass(frozen=True)
class Rejection:
    """Why an entry is not acceptable: ``field`` is a schema path, ``text`` the offending text."""

    code: str
    field: str
    message: str
    text: str | None = None
    severity: str = "error"  # a "warning" is said, never refused

    def __str__(self) -> str:
        return f"{self.field}: {self.message}"


@dataclass(frozen=True)
class Rules:
    """What an entry is judged against: master configs, pr-link repository, protected branch."""

    settings: Settings
    masters: MasterSet
    slug: str | None
    protected: str | None = None
    pr_number: int | None = None
    changed: Callable[[], Collection[str] | None] | None = None
    """The keys the branch changed that need an entry (``None``: unknown), asked only
    for a pattern that could be broad."""
    before_merge: bool = False
    """The head is about to land on the protected branch (a merge queue, or the
    ``fill-before-merge`` setting): a placeholder pr-link is an error naming finalize."""


def work_tree_rules(
    settings: Settings,
    changelog_tail: bytes | None,
    masters: MasterSet | None = None,
    changed: Callable[[], Collection[str] | None] | None = None,
) -> Rules:
    """The rules for an entry written to the work tree's changelog (its tail names the slug)."""
    if masters is None:
        masters = work_tree_masters_or_error(settings)
    protected = prlinks.protected_head(settings, head_state(settings.root, settings.protected_ref))
    slug = prlinks.repository_slug(settings, changelog_tail)
    return Rules(settings, masters, slug, protected, changed=changed)


def work_tree_masters_or_error(settings: Settings) -> MasterSet:
    masters = work_tree_masters(settings)
    if masters is None:
        raise no_master_configs(settings)
    return masters


def unmatched(pattern: str, keys: Sequence[str], files: Sequence[str]) -> str:
    return f"{pattern!r} matches no key in {', '.join(files)}{did_you_mean(pattern, keys)}"


def rejections(
    entry: Mapping[str, object], rules: Rules, block: bytes | None = None
) -> list[Rejection]:
    """Every reason ``entry`` would fail the gate (empty: acceptable). ``block``: its bytes as
    appended, else as ``add`` would write; both YAML readings must agree."""
    out = [Rejection("schema", path, message) for path, message in schema_errors(entry)]
    if block is not None:
        out += _readings(entry, block)
    elif not out:
        try:
            emitted = emit(entry)
        except ChangelogError:  # what the emitter refuses, the schema names
            pass
        else:
            out += _readings(normalize(entry), emitted)
    out += [Rejection("repeated-key", path, message) for path, message in repeated_items(entry)]
    link = entry.get("pr-link")
    if isinstance(link, str) and not any(r.field == "pr-link" for r in out):
        refused = _pr_link(link, rules)
        if refused is not None:
            out.append(refused)
    keys = list(rules.masters.owner)
    files = [m.path for m in rules.masters.files]
    matched: set[str] = set()
    for pattern in texts(entry.get("config-keys")):
        found = matching_keys(pattern, keys)
        if not found:
            out.append(
                Rejection(
                    "dangling-pattern",
                    "config-keys",
                    f"{unmatched(pattern, keys, files)}; fix the spelling or add "
                    "the config (CI fails on a pattern that matches nothing)",
                    pattern,
                )
            )
        elif rules.changed is not None and "*" in pattern and len(found) > BROAD_PATTERN_EXTRA_KEYS:
            changed = rules.changed()
            warning = broad(pattern, found, changed) if changed is not None else None
            if warning is not None:
                out.append(Rejection("broad-pattern", "config-keys", warning, pattern, "warning"))
        matched.update(found)
    # zero points for some keys: said per key; for every key: said per type, below
    zero = zero_points(entry, sorted(matched), rules.masters)
    some = bool(zero) and len(zero) < len(matched)
    out += zero if some else []
    for kind in texts(entry.get("scenario-type")) if matched and not some else []:
        if not any(rules.masters.has_scenario(k, kind) for k in matched):
            shown = ", ".join(sorted(matched)[:3]) + (", ..." if len(matched) > 3 else "")
            out.append(
                Rejection(
                    "scenario-mismatch",
                    "scenario-type",
                    f"{kind!r} exists for none of the matched keys ({shown}); no sweep would run",
                    kind,
                )
            )
    return out


def _pr_link(link: str, rules: Rules) -> Rejection | None:
    """The pr-link policy on ``link``: a re-land, a refused link, or a placeholder that the
    merge must not carry."""
    settings, number, allow = rules.settings, rules.pr_number, rules.protected is None
    why = prlinks.problem(link, settings, rules.slug, allow_placeholder=allow, pr_number=number)
    placeholder = is_placeholder(link, settings.placeholders)
    # this repository's link to another pull request: a re-land of a reverted one keeps its
    # first link; the entry still runs what it selects
    relink = why is not None and number is not None
    if relink and prlinks.problem(link, settings, rules.slug, allow_placeholder=allow) is None:
        why = f"{why}; if this is not a re-land, run `changelog finalize --pr-number {number}`"
        return Rejection("re-land", "pr-link", why, link, "warning")
    if why is not None:
        if rules.protected is not None and placeholder:
            why += (
                f" ({rules.protected} is the protected branch: pass the pull request's "
                "link, or add the entry on a branch)"
            )
        return Rejection("pr-link", "pr-link", why, link)
    if number is not None and placeholder and rules.slug:
        why = (
            f"placeholder {link!r}: before merging it must be "
            f"{prlinks.canonical(rules.slug, number)} (run `changelog finalize --pr-number "
            f"{number}`; {QUEUE})"
        )
        return Rejection(
            "pr-link", "pr-link", why, link, "error" if rules.before_merge else "warning"
        )
    if rules.before_merge and placeholder:
        why = (
            f"placeholder {link!r} would reach the protected branch: fill it before "
            "the merge (run `changelog finalize --pr-number N` with the pull "
            f"request's number; {QUEUE})"
        )
        return Rejection("pr-link", "pr-link", why, link)
    return None


def zero_points(
    entry: Mapping[str, object], keys: Sequence[str], masters: MasterSet
) -> list[Rejection]:
    """A ``scenario-mismatch`` for each key that has none of the entry's ``scenario-type``."""
    named = named_types(entry)
    if named is None:
        return []
    out = []
    for key in keys:
        if any(masters.has_scenario(key, kind) for kind in named):
            continue
        try:
            has = kinds(masters.value(key))
        except YamlProblem:  # reported where the key is read
            continue
        if has and not runs(named, has):  # (never for unknown types)
            out.append(
                Rejection(
                    "scenario-mismatch",
                    "scenario-type",
                    f"{quoted(key)} has none of the named scenario types "
                    f"({', '.join(map(quoted, named))}), so the entry runs zero points for "
                    f"it; it has {', '.join(map(quoted, has))}: name those too, drop "
                    "scenario-type, or drop the key",
                    named[0],
                )
            )
    return out


def _readings(entry: Mapping[str, object], block: bytes) -> list[Rejection]:
    """Where PyYAML (YAML 1.1) reads the entry's bytes otherwise than this tool (YAML 1.2)."""
    out = []
    for path, message in disagreements(block, [dict(entry)]):
        value: object = entry
        for part in path.split("/") if path != "(entry)" else []:
            if isinstance(value, list):
                value = value[int(part)]
            elif isinstance(value, Mapping):
                value = value.get(part)
        text = value if isinstance(value, str) else None
        out.append(Rejection("yaml-1-1", path, message, text))
    return out


def refuse(entries: Sequence[Mapping[str, object]], rules: Rules) -> list[str]:
    """Raise naming every rejection of every entry, if one is an error; else the warnings."""
    lines: list[str] = []
    warnings: list[str] = []
    for number, entry in enumerate(entries, 1):
        label = f"entry {number}: " if len(entries) > 1 else ""
        for rejection in rejections(entry, rules):
            said = lines if rejection.severity == "error" else warnings
            said.append(f"{label}{rejection}")
    if lines:
        raise ChangelogError(
            "refused: `changelog verify` would fail this entry (nothing was written):\n  "
            + "\n  ".join(lines)
        )
    return warnings
