"""The ``verify --base`` checks: what a branch changed against what it appended (pure over a
``Snapshot``), and a ready-to-append entry for uncovered keys."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from changelog_tool.diff.engine import Snapshot
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE
from changelog_tool.diff.scenarios import Gap, gaps, suggested_entry
from changelog_tool.findings import ERROR, NOTICE, WARNING, Finding, listing, shown
from changelog_tool.gate import prlinks
from changelog_tool.gate.acceptance import Rules, rejections
from changelog_tool.gate.appendonly import scope_findings
from changelog_tool.gate.reading import REFUSED, reading_findings
from changelog_tool.gitrepo.state import Pending
from changelog_tool.ledger.document import Entry, Ledger
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.entry import duplicate_in, entry_identity, scenario_types, selection
from changelog_tool.ledger.revision import FORM
from changelog_tool.settings import Settings

# The explicit opt-out of a change that cannot affect performance: ``--skip-reason``, a
# subject tag in ``--pr-title``, a ``No-Perf-Change:`` trailer, or a commit's subject tag. It
# turns ``uncovered-key`` errors into warnings, nothing else.
TRAILER = "No-Perf-Change"
_TRAILER = re.compile(rf"^{TRAILER}:[ \t]*(\S.*)$", re.MULTILINE | re.IGNORECASE)
_TAG = re.compile(r"\[(?:skip[- ]sweep|no[- ]perf[- ]changes?)\]", re.IGNORECASE)


@dataclass(frozen=True)
class OptOut:
    reason: str
    source: str


def find_opt_out(
    messages: Callable[[], Sequence[tuple[str, str]]],
    flag: str | None = None,
    title: str | None = None,
) -> OptOut | None:
    """The opt-out in force: the flag, then the pull request's title, then the newest commit."""
    if flag is not None and flag.strip():
        return OptOut(flag.strip(), "--skip-reason")
    if title is not None and _TAG.search(title.split("\n", 1)[0]):
        return OptOut(title.split("\n", 1)[0].strip(), "subject tag of the pull request's title")
    for sha, message in messages():
        trailer = _TRAILER.search(message)
        if trailer:
            return OptOut(trailer.group(1).strip(), f"{TRAILER} trailer of commit {sha[:10]}")
        subject = message.split("\n", 1)[0]
        if _TAG.search(subject):
            return OptOut(subject.strip(), f"subject tag of commit {sha[:10]}")
    return None


@dataclass
class Verdict:
    findings: list[Finding] = field(default_factory=list)
    suggested_entry: str | None = None
    suggested_keys: list[str] = field(default_factory=list)
    opt_out: OptOut | None = None


def settings_change(snapshot: Snapshot, allowed: bool) -> list[Finding]:
    """The branch's settings change, if any: an error, or a warning when ``allowed``."""
    found = snapshot.settings_change
    return [] if found is None else [replace(found, severity=WARNING if allowed else ERROR)]


def check(
    snapshot: Snapshot,
    settings: Settings,
    *,
    pr_number: int | None = None,
    skip_reason: str | None = None,
    allow_settings_change: bool = False,
    pr_title: str | None = None,
    before_merge: bool = False,
    waiting: str | None = None,
) -> Verdict:
    """``waiting``: why no entry may be appended now (a stopped rebase whose commits to
    replay change the changelog): said instead of the advice to append, no entry suggested."""
    changes, history = snapshot.changes, snapshot.history
    changed = settings_change(snapshot, allow_settings_change)
    verdict = Verdict(findings=[*changed, *history.findings, *changes.problems])
    appended = history.appended
    unselected = gaps(changes.needing_entry(), [a.fields for a in appended])
    # a modified key no entry names, put back as the newest base entry covering it benchmarked it
    restoring = [
        (g, None if g.change.kind != MODIFIED or g.matched else snapshot.benchmarked(g.change.key))
        for g in unselected
    ]
    verdict.findings.extend(_restored(g, state) for g, state in restoring if state is not None)
    unselected = [g for g, state in restoring if state is None]
    uncovered = [g.change for g in unselected]
    # the commits are read for an opt-out only when it excuses something
    verdict.opt_out = find_opt_out(snapshot.messages if uncovered else list, skip_reason, pr_title)
    verdict.findings.extend(_uncovered(g, verdict.opt_out, waiting) for g in unselected)
    verdict.findings.extend(scope_findings(snapshot, appended))
    slug = None
    if appended or uncovered or history.corrections:  # to judge or suggest a pr-link
        slug = prlinks.repository_slug(settings, snapshot.base_tail, snapshot.remote_url)
    needing = frozenset(c.key for c in changes.needing_entry())
    rules = Rules(
        settings,
        snapshot.masters,
        slug,
        protected=prlinks.protected_head(settings, snapshot.head_state),
        pr_number=pr_number,
        changed=lambda: needing,
        before_merge=before_merge or settings.fill_before_merge,
    )
    for number, entry in enumerate(appended, 1):
        verdict.findings.extend(_rejected(entry, number, rules, snapshot.changelog))
    verdict.findings.extend(_duplicates(snapshot, appended, settings))
    for line, link in history.corrections:  # an old entry's corrected link: this repository's
        problem = prlinks.problem(link, settings, slug, allow_placeholder=False)
        if problem is not None:
            said = f"corrected link: {problem}"
            verdict.findings.append(Finding("pr-link", said, snapshot.changelog, line))
    read = reading_findings(snapshot, settings)
    if any(f.code == REFUSED for f in read):  # the refusal says it, as an error
        verdict.findings = [f for f in verdict.findings if f.code != "whitespace"]
    verdict.findings.extend(read)
    if settings.format == "error":
        verdict.findings = [
            replace(f, severity=ERROR) if f.code in FORM else f for f in verdict.findings
        ]
    verdict.findings.extend(orphan_findings(changes.orphan_recipes))
    named = {f.key for f in verdict.findings if f.code == "key-name"}
    suggestable = [c for c in uncovered if c.key not in named]
    verdict.suggested_keys = sorted({c.key for c in suggestable})
    if suggestable and waiting is None:
        link = (
            prlinks.canonical(slug, pr_number)
            if pr_number is not None and slug
            else settings.placeholder_link()
        )
        missing = {g.change.key: g.kinds for g in unselected}
        suggestion = suggested_entry(suggestable, link, scenario_types(), missing)
        verdict.suggested_entry = emit(suggestion).decode("utf-8")
    return verdict


def _rejected(entry: Entry, number: int, rules: Rules, path: str) -> list[Finding]:
    """The acceptance rule's rejections of one appended entry, at their lines."""
    out = []
    for rejection in rejections(entry.fields, rules, entry.text):
        if rejection.code == "schema":
            line = entry.field_line(rejection.field.split("/")[0])
            message = f"new entry {number} (line {entry.line}), {rejection}"
        else:
            line = (
                entry.line_of_text(rejection.text)
                if rejection.text is not None
                else entry.field_line(rejection.field)
            )
            # the code already names the field when they are one ("pr-link: ...")
            message = rejection.message if rejection.field == rejection.code else str(rejection)
        out.append(Finding(rejection.code, message, path, line, rejection.severity))
    return out


def _restored(gap: Gap, state: str) -> Finding:
    change = gap.change
    message = (
        f"{shown(change.key)} changed ({', '.join(change.fields)}) back to the state "
        f"benchmarked by {state}: its results are of this state, no entry needed"
    )
    return change.finding("restored", message, NOTICE)


def _uncovered(gap: Gap, opt_out: OptOut | None, waiting: str | None) -> Finding:
    change = gap.change
    recipes = f"uses changed recipe(s) {', '.join(change.recipes)}"
    if change.kind == ADDED:
        what = "was added"
    elif change.kind == RECIPE:
        what = recipes
    else:
        what = f"changed ({', '.join(change.fields)})"
        what += f" and {recipes}" if change.recipes else ""
    key = shown(change.key)  # a name from the branch: quoted when it holds a line break
    kinds = ", ".join(shown(k) for k in gap.kinds)
    severity = ERROR
    if opt_out is not None:
        message = f"{key} {what}; no entry, opted out: {opt_out.reason} ({opt_out.source})"
        severity = WARNING
    elif gap.matched:  # an entry names the key, but not these scenario types
        message = (
            f"{key} {what} but no appended entry selects its scenario type(s) {kinds} "
            "(an entry runs only the types its scenario-type names); "
            + (
                waiting
                or "name them in scenario-type (see the suggested entry) or they "
                "will never be benchmarked"
            )
        )
    else:
        # a key with all its scenario types changed: "covers it" says it all
        every = set(gap.kinds) >= set(change.kinds)
        named = f" (scenario type(s) {kinds})" if kinds and not every else ""
        message = f"{key} {what} but no appended perf-changelog entry covers it{named}; " + (
            waiting or "append one (see the suggested entry) or it will never be benchmarked"
        )
    return change.finding("uncovered-key", message, severity)


def _duplicates(snapshot: Snapshot, appended: list[Entry], settings: Settings) -> list[Finding]:
    """A new entry equal to an earlier one: at the tail a re-run (the ``duplicate-entry``
    setting), an identical copy between the base's entries an error (a merge's leftover)."""
    history, path = snapshot.history, snapshot.changelog
    kept = history.base or history.prefix
    where = " of the base" if history.base is not None else ""
    severity = ERROR if settings.duplicate_entry == "error" else WARNING
    out = []
    by_identity: dict[Hashable, Entry] = {}  # the first appended entry of each
    by_selection: dict[Hashable, Entry] = {}
    for entry in appended:
        value = entry.fields
        other: object
        first = by_identity.setdefault(entry_identity(value), entry)
        twin = by_selection.setdefault(selection(value), entry)
        if first is not entry:
            line, said, other = first.line, "", first.fields
        elif (found := duplicate_in(kept, value)) is not None:
            block = next((b for b in Ledger(kept).blocks if b.line == found), None)
            line, said, other = found, where, block.value if block is not None else None
        else:
            if twin is not entry:
                message = (
                    f"this entry selects the same config-keys and scenario types as the entry on "
                    f"line {twin.line}, which this branch appends too: the benchmark runs the "
                    "same sweeps twice (a rebase that replayed an entry already added leaves "
                    "two); keep one"
                )
                out.append(Finding("duplicate-entry", message, path, entry.line, severity))
            continue
        identical = isinstance(other, dict) and other.get("pr-link") == value.get("pr-link")
        if identical and entry.line <= history.prefix.count(b"\n"):  # before the base's last entry
            message = (
                f"this entry is a copy of the entry on line {line}{said}, its pr-link too, left "
                "between the base's entries (by a merge): it runs and publishes twice; remove it"
            )
            out.append(Finding("duplicate-entry", message, path, entry.line, ERROR))
            continue
        same = "identical to" if identical else "equal but for pr-link to"
        message = (
            f"this entry is {same} the entry on line {line}{said}; it re-runs the same sweeps "
            "and publishes twice. Remove it unless re-running is the intent"
        )
        out.append(Finding("duplicate-entry", message, path, entry.line, severity))
    return out


def orphan_findings(recipes: Iterable[str]) -> list[Finding]:
    """``orphan-recipe``: one warning per folder of changed recipes no master key references."""
    folders: dict[str, list[str]] = {}
    for recipe in recipes:
        folders.setdefault(posixpath.dirname(recipe), []).append(recipe)
    out = []
    for folder, files in sorted(folders.items()):
        files.sort()
        if len(files) == 1:
            message = (
                "no master-config key references this recipe (CONFIG_FILE=...), "
                "so no sweep will run it"
            )
        else:
            names = [posixpath.basename(f) for f in files]
            message = (
                f"no master-config key references these {len(files)} recipes in "
                f"{folder or '.'}/ (CONFIG_FILE=...): {listing(names)}; no sweep will run them"
            )
        out.append(
            Finding("orphan-recipe", message, files[0], None, WARNING, detail={"files": files})
        )
    return out


def waiting(stopped: Pending, touching: list[str], path: str) -> str | None:
    """While git has stopped in a rebase, merge or cherry-pick: the advice in place of "append
    one", as long as commits to replay change ``path``."""
    if not touching:
        return None
    op = stopped.operation
    return (
        f"{len(touching)} commit(s) the {op} has still to replay change {path} and may "
        f"hold its entry: do not append one now, finish the {op} first"
    )


def in_progress(stopped: Pending, touching: list[str], path: str) -> Finding:
    op = stopped.operation
    if stopped.remaining is None:
        left = ""
    else:
        left = f", {len(stopped.remaining)} commit(s) still to replay"
        left += f", {len(touching)} of them changing {path}" if stopped.remaining else ""
    message = (
        f"a {op} is in progress{left}: the branch is judged as it stands now; finish it "
        f"(`{stopped.continue_command()}`, or `git {op} --abort`), then verify again"
    )
    return Finding("in-progress", message, path, None, WARNING)
