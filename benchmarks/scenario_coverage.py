"""Scenario types on the real InferenceX history: what changes touch, what entries select.

Replays every commit of the corpus (../shared/corpus) whose record changes a master
config (``master.added_keys`` or ``master.modified_keys`` of commits.jsonl), runs the
diff engine and the gate on it (the library, in this process) and prints:

- the (key, scenario type) pairs that needed an entry, by why: a new key (every type
  it has), a config-wide change (a field outside ``scenarios``, or a recipe: every
  type the key has) or a change to one scenario (``scenarios.<type>``);
- the real appended entries the per-scenario rule flags: an entry that names a key
  but not a changed scenario type of it (``uncovered-key``), or that names none of a
  key's types (``scenario-mismatch``, zero points). No commit is special-cased.

    python benchmarks/scenario_coverage.py [--json]

Skips (exit 0 with a note) when the corpus is absent.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from changelog_tool import settings as settings_module
from changelog_tool.diff.engine import snapshot
from changelog_tool.diff.keychange import ADDED, MODIFIED
from changelog_tool.diff.scenarios import changed_kinds, config_wide, gaps, named_types, selected
from changelog_tool.gate.verdict import check
from changelog_tool.gitrepo import Repo, run_git

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def measure(root: Path, facts: list[dict[str, Any]]) -> dict[str, Any]:
    settings = settings_module.load(root)
    pairs: Counter[str] = Counter()
    keys: Counter[str] = Counter()
    flagged: list[dict[str, Any]] = []
    commits = 0
    repo = Repo.open(root)
    try:
        for fact in facts:
            master = fact["master"]
            if not (master["added_keys"] or master["modified_keys"]):
                continue
            sha = fact["replay_sha"]
            parents = run_git(root, "rev-list", "--parents", "-n", "1", sha).split()[1:]
            if not parents:
                continue
            commits += 1
            snap = snapshot(repo, settings, base=parents[0], head=sha)
            for change in snap.changes.needing_entry():
                if change.kind == ADDED:
                    why = "new key"
                elif change.kind == MODIFIED and config_wide(change):
                    why = "config-wide"
                elif change.kind == MODIFIED:
                    why = "per scenario"
                else:
                    continue  # only a recipe changed: not a master-config change
                keys[why] += 1
                pairs[why] += len(changed_kinds(change)) or 1
            entries = [a.fields for a in snap.history.appended]
            where = {"commit": fact["replay_sha"][:8], "pr": fact["pr_number"]}
            for gap in gaps(snap.changes.needing_entry(), entries):
                if gap.matched:
                    change = gap.change
                    named = sorted(
                        {
                            kind
                            for entry in entries
                            if selected(entry, change.key, change.kinds) is not None
                            for kind in named_types(entry) or ["(all)"]
                        }
                    )
                    flagged.append(
                        {
                            **where,
                            "rule": "uncovered-key",
                            "key": gap.change.key,
                            "changed": list(changed_kinds(gap.change)),
                            "missing": list(gap.kinds),
                            "entry scenario-type": named,
                        }
                    )
            verdict = check(snap, settings)
            for finding in verdict.findings:
                if finding.code == "scenario-mismatch" and "zero points" in finding.message:
                    flagged.append({**where, "rule": "zero points", "message": finding.message})
    finally:
        repo.close()
    appended = [e for fact in facts for e in fact["changelog"]["appended_entries"]]
    recorded: Counter[str] = Counter()  # commits.jsonl's own reading, as a cross-check
    for fact in facts:
        for fields in fact["master"]["modified_keys"].values():
            scoped = all(f.startswith("scenarios.") for f in fields)
            recorded["per scenario" if scoped else "config-wide"] += 1
    return {
        "appended entries": len(appended),
        "appended entries naming scenario-type": sum("scenario-type" in e for e in appended),
        "modified keys in commits.jsonl": dict(recorded),
        "commits": commits,
        "keys": dict(keys),
        "pairs": dict(pairs),
        "flagged": flagged,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", action="store_true", help="print the result as JSON")
    options = parser.parse_args()
    bundle, records = CORPUS / "inferencex-data.bundle", CORPUS / "commits.jsonl"
    if not bundle.is_file() or not records.is_file():
        print("corpus absent: nothing measured")
        return 0
    facts = [json.loads(line) for line in records.read_text().splitlines()]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "inferencex"
        subprocess.run(["git", "clone", "-q", str(bundle), str(root)], check=True)
        result = measure(root, facts)
    if options.json:
        json.dump(result, sys.stdout, indent=2)
        print()
        return 0
    print(f"commits that change master configs: {result['commits']}")
    for why in ("new key", "config-wide", "per scenario"):
        print(
            f"  {why:<13} {result['keys'].get(why, 0):>5} keys, "
            f"{result['pairs'].get(why, 0):>5} (key, scenario type) pairs"
        )
    recorded = result["modified keys in commits.jsonl"]
    print(
        f"  (commits.jsonl, every modified key, reduced ones too: "
        f"{recorded.get('config-wide', 0)} config-wide, {recorded.get('per scenario', 0)} "
        "per scenario)"
    )
    print(
        f"appended entries: {result['appended entries']}, naming a scenario-type: "
        f"{result['appended entries naming scenario-type']}"
    )
    print(f"real entries the per-scenario rules flag: {len(result['flagged'])}")
    for item in result["flagged"]:
        print("  " + json.dumps(item))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
