"""The benchmark CI's scope rules for ``append-only: true`` entries (InferenceX #2613,
``utils/process_changelog.py``), pure. Changes inside a selected scenario pass here: the CI
compares those on its sweep matrix (docs/usage.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from changelog_tool.diff.engine import Snapshot
from changelog_tool.diff.fields import SCENARIOS, scenarios_of
from changelog_tool.diff.keychange import RECIPE, UNREAD, KeyChange
from changelog_tool.diff.masters import MasterSet
from changelog_tool.diff.scenarios import named_types
from changelog_tool.findings import Finding, shown
from changelog_tool.ledger.document import Entry
from changelog_tool.ledger.entry import matching_keys, scenario_types, texts
from changelog_tool.yaml.items import YamlProblem

CODE = "append-only-scope"
DROP = "or drop append-only (a regular entry reruns the whole config)"


def selection(
    entries: Sequence[Mapping[str, object]], keys: Sequence[str], known: Sequence[str]
) -> dict[str, set[str]]:
    """Each config the entries match, with the scenario types they select for it."""
    out: dict[str, set[str]] = {}
    for entry in entries:
        named = named_types(entry)
        for pattern in texts(entry.get("config-keys")):
            for key in matching_keys(pattern, keys):
                out.setdefault(key, set()).update(known if named is None else named)
    return out


def _named(entries: Sequence[Entry]) -> str:
    """``line 16: a-vllm, b-*``, one per entry: the entries a finding means."""
    return "; ".join(
        f"line {a.line}: {', '.join(shown(k) for k in texts(a.fields.get('config-keys')))}"
        for a in entries
    )


def scope_findings(snapshot: Snapshot, appended: Sequence[Entry]) -> list[Finding]:
    """The scope rules' errors for the branch's append-only entries (none without any)."""
    flagged = [a for a in appended if a.fields.get("append-only") is True]
    if not flagged:
        return []
    regular = [a for a in appended if a.fields.get("append-only") is not True]
    if regular:
        return [
            Finding(
                CODE,
                f"append-only entries ({_named(flagged)}) cannot share a sweep with regular "
                f"entries ({_named(regular)}); the benchmark CI refuses the mix: put them in "
                "separate pull requests, or drop append-only",
                snapshot.changelog,
                flagged[0].line,
            )
        ]
    head, base = snapshot.masters, snapshot.base_masters
    chosen = selection([a.fields for a in flagged], list(head.owner), scenario_types())
    out = []
    for key in sorted(chosen):
        if key not in base.owner:
            path, line = head.locate(key)
            out.append(
                Finding(
                    CODE,
                    f"{shown(key)} is selected by an append-only entry but does not exist at "
                    f"the base; append-only adds points to existing configs only: {DROP}",
                    path or "",
                    line,
                    key=key,
                )
            )
    for change in snapshot.changes.keys:
        if change.kind == RECIPE:  # no master config changed (recipes: the CI's matrix)
            continue
        if change.key not in chosen:
            out.append(
                change.finding(
                    CODE,
                    f"{shown(change.key)} changed ({change.kind}) but no append-only entry "
                    "selects it; an append-only pull request may change only the configs "
                    f"it selects: add it to config-keys, or move the change to another "
                    "pull request",
                )
            )
        elif change.key in base.owner:
            out += _inside(change, chosen[change.key], base, head)
    return out


def _inside(
    change: KeyChange, allowed: set[str], base: MasterSet, head: MasterSet
) -> list[Finding]:
    """The rules for one selected, changed config: its scenarios, config-wide fields."""
    if any(f in UNREAD for f in change.fields):
        return []  # a side that does not parse is reported as such
    try:
        old = [str(k) for k in scenarios_of(base.value(change.key)) or ()]
        new = [str(k) for k in scenarios_of(head.value(change.key)) or ()]
    except YamlProblem:
        return []
    key = shown(change.key)
    out = []
    for kind in [*(k for k in new if k not in old), *(k for k in old if k not in new)]:
        verb = "adds" if kind in new else "removes"
        out.append(
            change.finding(
                CODE,
                f"{key}: the branch {verb} scenario {shown(kind)}; an append-only sweep "
                f"may not add or remove a scenario of a selected config: {DROP}",
            )
        )
    unselected = [k for k in old if k not in allowed]
    wide = [f for f in change.fields if f != SCENARIOS and not f.startswith(SCENARIOS + ".")]
    if unselected and wide:
        out.append(
            change.finding(
                CODE,
                f"{key}: config-wide field(s) {', '.join(shown(f) for f in wide)} changed "
                f"while scenario(s) {', '.join(shown(k) for k in unselected)} are not "
                "selected, and the change would reach them: select them too (name them in "
                f"scenario-type, or drop scenario-type), {DROP}",
            )
        )
    for kind in unselected:
        if kind in new and f"{SCENARIOS}.{kind}" in change.fields:
            out.append(
                change.finding(
                    CODE,
                    f"{key}: scenario {shown(kind)} changed but the append-only entries do "
                    f"not select it: name it in scenario-type, undo that change, {DROP}",
                )
            )
    return out
