"""The diff engine at the git edge: read two trees (base: the merge-base with the
protected ref; head: a commit or the work tree), hand bytes to the pure core; and a
key put back as the newest base entry covering it benchmarked it."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.diff.changelog import read_revision
from changelog_tool.diff.fields import kinds, points, scenarios_of
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, REMOVED, ChangeSet, KeyChange
from changelog_tool.diff.keydiff import diff
from changelog_tool.diff.local import linked, no_master_configs
from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.diff.recipes import is_recipe, needle, references, refers_to, same_data
from changelog_tool.errors import EnvironmentProblem
from changelog_tool.findings import ERROR, WARNING, Finding
from changelog_tool.gitrepo import WORKTREE, HeadState, Repo, head_state, remote_url_reader
from changelog_tool.ledger.document import Ledger, label
from changelog_tool.ledger.entry import matches, texts
from changelog_tool.ledger.reading import Reading, read_diff
from changelog_tool.ledger.revision import ABSENT, UNCHANGED, History
from changelog_tool.settings import Settings
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.values import same


@dataclass
class Snapshot:
    """Everything ``verify --base`` needs, read in one pass over git."""

    changes: ChangeSet
    history: History
    masters: MasterSet
    changelog: str
    base_ref: str
    messages: Callable[[], list[tuple[str, str]]]
    """The commits' ``(sha, message)``, newest first, read on first use (an opt-out)."""
    head_state: HeadState | None
    """What head is (branch, commit, operation): the gate decides if it is protected."""
    remote_url: Callable[[str], str | None]
    base_tail: bytes
    """The base changelog's last 64 KiB: its newest pr-link names the repository."""
    base_masters: MasterSet
    reading: Reading | None
    """The benchmark CI's reading of the changelog's diff, merge-base to head
    (``None``: the changelog did not change)."""
    benchmarked: Callable[[str], str | None]
    """The entry whose benchmarked state a key is put back to (:func:`benchmarked_state`)."""
    behind: Reading | None
    """Its reading from the base ref's tip, when that tip changed the changelog
    since the merge-base (the pull-request check diffs the tip, two dots)."""
    settings_change: Finding | None = None
    """The branch changed the settings (``diff/trust.py``); the gate sets the severity."""


@dataclass(frozen=True)
class Revisions:
    """The two sides of a comparison: the base ref as given, the merge-base, head
    (a commit sha, or ``WORKTREE``) and the commit head stands on."""

    base_ref: str
    base_sha: str
    head_rev: str
    head_sha: str

    @classmethod
    def of(
        cls, repo: Repo, settings: Settings | None, base: str | None, head: str | None
    ) -> Revisions:
        """``base=None``: the first protected ref of ``settings`` this clone has."""
        if base is None:
            assert settings is not None
            base = repo.protected_ref(settings.protected_ref)
        head_rev = WORKTREE if head is None else repo.resolve(head)
        head_sha = repo.resolve("HEAD") if head_rev == WORKTREE else head_rev
        return cls(base, repo.merge_base(repo.resolve(base), head_sha), head_rev, head_sha)


@dataclass(frozen=True)
class Layout:
    """Settings paths made relative to the repository's top level."""

    changelog: str
    masters: tuple[str, ...]
    prefixes: dict[str, str]
    recipe_dirs: tuple[str, ...]

    @classmethod
    def of(cls, settings: Settings, top: Path) -> Layout:
        try:
            sub = settings.root.resolve().relative_to(top.resolve()).as_posix()
        except ValueError:
            sub = "."
        pre = "" if sub == "." else sub + "/"
        return cls(
            pre + settings.changelog,
            tuple(pre + g for g in settings.master_configs),
            {k: pre + v for k, v in settings.recipe_prefixes.items()},
            tuple(pre + d for d in settings.recipe_dirs),
        )


def collect(settings: Settings, *, base: str | None = None, head: str | None = None) -> ChangeSet:
    return gather(settings, base=base, head=head).changes


def gather(settings: Settings, *, base: str | None = None, head: str | None = None) -> Snapshot:
    with Repo.open(settings.root) as repo:
        return snapshot(repo, settings, base, head)


def snapshot(
    repo: Repo,
    settings: Settings,
    base: str | None = None,
    head: str | None = None,
    revisions: Revisions | None = None,
) -> Snapshot:
    """Like :func:`gather`, with a repository the caller opened (and closes), and
    the revisions when the caller already resolved them."""
    layout = Layout.of(settings, repo.root)
    sides = revisions or Revisions.of(repo, settings, base, head)
    base_ref, base_sha, head_rev, head_sha = dataclasses.astuple(sides)
    repo.limit = settings.max_bytes  # every read below is refused over it
    files: dict[tuple[str, str], MasterFile] = {}

    def master(sha: str | None, path: str) -> MasterFile:
        """A work-tree file, or a blob (read and scanned once when both sides share it)."""
        if sha is None:
            return MasterFile(path, repo.read(WORKTREE, path) or b"")
        if (path, sha) not in files:
            files[path, sha] = MasterFile(path, repo.read_blob(sha, path=path))
        return files[path, sha]

    masters: dict[str, MasterSet] = {}
    links: set[str] = set()
    for side, rev in (("base", base_sha), ("head", head_rev)):
        found = repo.tree_files(rev, layout.masters, links if side == "head" else None)
        if rev == WORKTREE:  # a sparse checkout leaves files out: git reads them as staged
            missing = {f.path for f in masters["base"].files} - set(found)
            found.update(repo.outside_sparse_checkout(missing))
        masters[side] = MasterSet(master(s, p) for p, s in found.items())
    if not masters["base"].files and not masters["head"].files:
        raise no_master_configs(settings)
    keys, problems = diff(masters["base"], masters["head"])
    changes = ChangeSet(base=base_sha, head=head_rev, keys=keys)
    _add_recipes(repo, layout, changes, masters["head"], base_sha, head_rev)
    for change in changes.keys:
        if change.kind != REMOVED:
            with contextlib.suppress(YamlProblem):
                changes.points[change.key] = points(masters["head"].value(change.key))
    changes.problems[:0] = [  # (before the recipes' own, found above)
        *_head_problems(problems, masters["base"], masters["head"]),
        *(_linked(path, "master config") for path in sorted(links)),
    ]

    history, base_tail = read_revision(repo, layout.changelog, base_sha, head_rev)
    changes.appended = [dict(a.fields, line=a.line) for a in history.appended]
    reading = behind = None
    if history.kind not in (UNCHANGED, ABSENT):
        reading = read_diff(repo.file_diff(base_sha, head_rev, layout.changelog))
        tip = repo.resolve(base_ref)
        if tip != base_sha and repo.blob_info(tip, layout.changelog) != repo.blob_info(
            base_sha, layout.changelog
        ):
            behind = read_diff(repo.file_diff(tip, head_rev, layout.changelog))
    messages = functools.cache(functools.partial(repo.messages, base_sha, head_rev))
    return Snapshot(
        changes,
        history,
        masters["head"],
        layout.changelog,
        base_ref,
        messages,
        _head_state(repo, settings, head_sha, head_rev),
        remote_url_reader(repo.root),
        base_tail,
        base_masters=masters["base"],
        reading=reading,
        benchmarked=benchmarked_state(
            repo, layout.changelog, layout.masters, base_sha, masters["head"]
        ),
        behind=behind,
    )


def _add_recipes(
    repo: Repo,
    layout: Layout,
    changes: ChangeSet,
    head: MasterSet,
    base_sha: str,
    head_rev: str,
) -> None:
    """Changed recipe files, the keys (at head) that reference them, and orphans.
    A modified recipe counts only when its YAML data changed (not its comments,
    layout, quoting or key order); added and deleted recipes always count."""
    referencing: dict[str, set[str]] = {}
    deleted: set[str] = set()
    folders = sorted({*layout.recipe_dirs, *layout.prefixes.values()})
    for status, path in repo.changed_files(base_sha, head_rev, folders):
        if not is_recipe(path, layout.prefixes, layout.recipe_dirs):
            continue
        if status != "D" and repo.is_link(head_rev, path):
            changes.problems.append(_linked(path, "recipe"))
        if status == "M":
            before, after = repo.read(base_sha, path), repo.read(head_rev, path)
            if before is not None and after is not None and same_data(before, after):
                continue
        users = []
        for key in head.mentions(needle(path)):
            try:
                refs = references(head.value(key))
            except YamlProblem:
                continue
            if any(refers_to(ref, path, layout.prefixes) for ref in refs):
                users.append(key)
                referencing.setdefault(key, set()).add(path)
        changes.recipes[path] = users
        if status == "D":
            deleted.add(path)
        elif not users:
            changes.orphan_recipes.append(path)
    by_key = {k.key: index for index, k in enumerate(changes.keys)}
    for key, paths in sorted(referencing.items()):
        recipes = tuple(sorted(paths))
        if key in by_key:
            old = changes.keys[by_key[key]]
            if old.kind in (ADDED, MODIFIED):
                changes.keys[by_key[key]] = dataclasses.replace(old, recipes=recipes, reduced=False)
            continue
        where, line = head.locate(key)
        value = head.value(key)
        names = [Path(p).name for p in recipes]  # scenario types whose settings name one
        scenarios = sorted(
            str(kind)
            for kind, space in (scenarios_of(value) or {}).items()
            if any(name in str(space) for name in names)
        )
        changes.keys.append(
            KeyChange(
                key,
                RECIPE,
                scenarios=tuple(scenarios),
                path=where,
                line=line,
                recipes=recipes,
                kinds=kinds(value),
            )
        )
    changes.keys.sort(key=lambda k: k.key)
    # a deleted recipe a key at head still references: its sweep has nothing to run, whatever
    # entry is appended
    for change in changes.keys:
        for recipe in change.recipes:
            if recipe in deleted:
                message = (
                    f"{change.key} references {recipe}, which this branch deletes; restore "
                    "the recipe or point the key at another one"
                )
                changes.problems.append(change.finding("missing-recipe", message))


def _linked(path: str, what: str) -> Finding:
    return Finding("symbolic-link", linked(path, what), path, None)


def _head_problems(
    found: list[tuple[str, YamlProblem]], base: MasterSet, head: MasterSet
) -> list[Finding]:
    """Master-config problems the branch introduced (not those already at base); a
    top-level key the base already defines twice in that file is said as a warning
    (its last definition is the one that counts), never left unsaid."""
    old = {(path, p.message) for path, p in base.problems()}
    doubled = {(path, p.key) for path, p in base.problems() if p.code == "duplicate-yaml-key"}
    seen = set()
    out = []
    for path, problem in [*found, *head.problems()]:
        if (path, problem.line) in seen:
            continue
        # a top-level key defined twice in one file (a field twice in one value has no key)
        twice = problem.code == "duplicate-yaml-key" and problem.key is not None
        at_base = twice and (path, problem.key) in doubled
        if (path, problem.message) in old and not at_base:
            continue
        seen.add((path, problem.line))
        severity = WARNING if at_base else ERROR
        out.append(
            Finding(problem.code, problem.message, path, problem.line, severity, problem.key)
        )
    return out


def _head_state(repo: Repo, settings: Settings, head_sha: str, head_rev: str) -> HeadState | None:
    """The work tree's checked-out state, or a ``--head`` commit's (no branch)."""
    if head_rev == WORKTREE:
        return head_state(repo.root, settings.protected_ref)
    commits = {}
    for ref in settings.protected_ref:
        with contextlib.suppress(EnvironmentProblem):
            commits[ref] = repo.resolve(ref)
    return HeadState(head_sha, None, None, commits)


def benchmarked_state(
    repo: Repo, changelog: str, masters: tuple[str, ...], base_sha: str, head: MasterSet
) -> Callable[[str], str | None]:
    """``key`` -> the newest base entry covering it when head's value equals its value at that
    entry's commit; else ``None``."""
    parsed: list[tuple[int, dict[str, object]]] = []  # (line, value), newest first
    rest: Iterator[tuple[int, object]] | None = None

    def newest_first() -> Iterator[tuple[int, dict[str, object]]]:
        """The base's entries from its end, each parsed once for every key asked."""
        nonlocal rest
        if rest is None:
            entries = Ledger(repo.read(base_sha, changelog) or b"")
            rest = ((b.line, b.value) for b in reversed(entries.blocks))
        yield from parsed
        for line, value in rest:
            if isinstance(value, dict):
                parsed.append((line, value))
                yield line, value

    def lookup(key: str) -> str | None:
        for line, value in newest_first():
            if any(matches(p, key) for p in texts(value.get("config-keys"))):
                commit = repo.line_origin(base_sha, changelog, line)
                if commit is None or not _same_value(repo, commit, masters, key, head):
                    return None
                link = value.get("pr-link")
                return f"the entry on line {line} of the base ({label(value)}, {link})"
        return None

    return lookup


def _same_value(
    repo: Repo, commit: str, masters: tuple[str, ...], key: str, head: MasterSet
) -> bool:
    found = repo.tree_files(commit, masters)
    then = MasterSet(MasterFile(p, repo.read_blob(s)) for p, s in found.items() if s is not None)
    with contextlib.suppress(YamlProblem, KeyError):  # as this tool and the jobs read it
        if same(then.value(key), head.value(key)):
            old = then.value_yaml_1_1(key)  # (a refusal is no value: never the same)
            return not isinstance(old, YamlProblem) and same(old, head.value_yaml_1_1(key))
    return False
