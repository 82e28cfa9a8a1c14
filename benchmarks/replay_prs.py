"""The gate replayed over the real InferenceX pull requests and main states.

Every pull request of the corpus (../shared/corpus/prs.jsonl, prs.bundle) goes
through `changelog verify --base B --head H --pr-number N`, as the Action runs it;
every distinct changelog that main held (inferencex-data.bundle) goes through
`changelog verify --file`, with today's main as the protected ref. The report:
pass and fail counts per pull-request state, and each stopped merged pull
request with the codes of its errors.

    python benchmarks/replay_prs.py [--source DIR] [--jobs 2] [--only merged] [--json OUT]

``--source`` runs another source tree of the package (e.g. ``git archive`` of an
older commit) instead of the installed one. Skips (exit 0 with a note) when the
corpus is absent.

The remote is the repository's name at the pull request's time: links named
InferenceMAX/InferenceMAX until the rename (the corpus's last such link is of
2026-02-15, its first SemiAnalysisAI/InferenceX link of 2026-02-16).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
CHANGELOG = "perf-changelog.yaml"
RENAMED = "2026-02-16"
OLD_REMOTE = "https://github.com/InferenceMAX/InferenceMAX"
NEW_REMOTE = "https://github.com/SemiAnalysisAI/InferenceX"


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def verify(command: list[str], cwd: Path, env: dict[str, str], *args: str) -> dict[str, object]:
    """One run of ``verify --format json``: exit code, error and warning codes."""
    done = subprocess.run(
        [*command, "verify", *args, "--format", "json"],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    try:
        findings = json.loads(done.stdout)["findings"]
    except (ValueError, KeyError):
        return {
            "exit": done.returncode,
            "errors": ["(no report)"],
            "warnings": [],
            "stderr": done.stderr[-400:],
        }
    return {
        "exit": done.returncode,
        "errors": sorted({f["code"] for f in findings if f["severity"] == "error"}),
        "warnings": sorted({f["code"] for f in findings if f["severity"] == "warning"}),
        "messages": [
            f"{f['severity']} {f['code']} {f.get('line')}: {f['message'][:200]}"
            for f in findings
            if f["severity"] == "error"
        ][:6],
    }


def reader(root: Path, base: str, head: str) -> str:
    """The benchmark CI's own reading of the change (this checkout's restatement of
    it): ``refuses`` (a deleted non-blank line), ``cannot load``, or ``reads N``."""
    from changelog_tool.ledger.reading import read_diff

    diff = subprocess.run(
        ["git", "diff", "--no-color", "--no-ext-diff", base, head, "--", CHANGELOG],
        cwd=root,
        capture_output=True,
        check=True,
    ).stdout
    reading = read_diff(diff)
    if reading.deleted:
        return "refuses"
    return "cannot load" if reading.problem else f"reads {len(reading.entries)}"


def pull_requests(
    command: list[str], env: dict[str, str], tmp: Path, records: list[dict[str, object]], jobs: int
) -> list[dict[str, object]]:
    repos = {}
    for remote in (OLD_REMOTE, NEW_REMOTE):
        root = tmp / remote.rsplit("/", 1)[1]
        root.mkdir()
        git(root, "init", "-q")
        git(root, "fetch", "-q", str(CORPUS / "prs.bundle"), "refs/prs/*:refs/prs/*")
        git(root, "remote", "add", "origin", remote)
        repos[remote] = root

    def one(record: dict[str, object]) -> dict[str, object]:
        remote = OLD_REMOTE if str(record["head_date"]) < RENAMED else NEW_REMOTE
        seen = reader(repos[remote], str(record["base_ref"]), str(record["head_ref"]))
        result = verify(
            command,
            repos[remote],
            env,
            "--base",
            str(record["base_ref"]),
            "--head",
            str(record["head_ref"]),
            "--pr-number",
            str(record["pr"]),
        )
        return {"pr": record["pr"], "state": record["state"], "reader": seen, **result}

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, records))


def main_states(command: list[str], env: dict[str, str], tmp: Path) -> list[dict[str, object]]:
    root = tmp / "main"
    subprocess.run(
        ["git", "clone", "-q", str(CORPUS / "inferencex-data.bundle"), str(root)], check=True
    )
    seen: set[str] = set()
    out = []
    for line in git(root, "log", "--reverse", "--format=%H", "--", CHANGELOG).split():
        blob = git(root, "rev-parse", f"{line}:{CHANGELOG}").strip() if line else ""
        if not blob or blob in seen:
            continue
        seen.add(blob)
        state = root / "state" / CHANGELOG
        state.parent.mkdir(exist_ok=True)
        state.write_bytes(
            subprocess.run(
                ["git", "cat-file", "blob", blob], cwd=root, capture_output=True, check=True
            ).stdout
        )
        # the file at the checkout's own path: the protected ref's copy is compared
        (root / CHANGELOG).write_bytes(state.read_bytes())
        result = verify(command, root, env, "--file", CHANGELOG)
        out.append({"commit": line[:12], **result})
    git(root, "checkout", "-q", "--", CHANGELOG)
    return out


def report(prs: list[dict[str, object]], states: list[dict[str, object]]) -> None:
    print("pull requests (verify --base):")
    for state in ("merged", "closed", "open"):
        these = [p for p in prs if p["state"] == state]
        failed = [p for p in these if p["exit"] == 1]
        absent = [p for p in these if p["exit"] not in (0, 1)]
        print(
            f"  {state:7} {len(these) - len(failed) - len(absent):4} pass  {len(failed):4} fail"
            f"  {len(absent):4} not judged (exit 2: no changelog yet)"
        )
    codes: Counter[str] = Counter()
    for p in prs:
        if p["state"] == "merged" and p["exit"] == 1:
            codes.update(p["errors"])  # type: ignore[arg-type]
    print("  merged stops by error code:", dict(codes.most_common()))
    failed_states = [s for s in states if s["exit"] != 0]
    print(
        f"main states (verify --file): {len(states) - len(failed_states)} pass, "
        f"{len(failed_states)} fail"
    )
    for s in failed_states:
        print(f"  {s['commit']}: {', '.join(s['errors'])}")  # type: ignore[arg-type]
    print("the benchmark's reader beside the gate (merged and closed):")
    table: Counter[tuple[str, str]] = Counter()
    for p in prs:
        if p["exit"] in (0, 1) and "reader" in p:
            seen = "accepts" if str(p["reader"]).startswith("reads") else str(p["reader"])
            table[seen, "fail" if p["exit"] == 1 else "pass"] += 1
    for (seen, verdict), count in sorted(table.items()):
        print(f"  reader {seen:11} gate {verdict}: {count}")
    passed_refused = [
        p for p in prs if p.get("reader") in ("refuses", "cannot load") and p["exit"] == 0
    ]
    print(
        "  the gate passes, the reader refuses:", [(p["pr"], p["warnings"]) for p in passed_refused]
    )
    print("merged pull requests stopped:")
    for p in prs:
        if p["state"] == "merged" and p["exit"] == 1:
            print(f"  #{p['pr']}: {', '.join(p['errors'])} (reader: {p.get('reader')})")  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", type=Path, help="run this source tree of the package")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", choices=("merged", "closed", "open"))
    parser.add_argument("--prs", help="comma-separated pull request numbers")
    parser.add_argument("--report", type=Path, help="print the report of a --json file")
    parser.add_argument("--no-main", action="store_true", help="skip the main states")
    parser.add_argument("--json", type=Path, help="write every result here")
    options = parser.parse_args(argv)
    if options.report is not None:
        done = json.loads(options.report.read_text())
        report(done["prs"], done["main"])
        return 0
    if not (CORPUS / "prs.bundle").is_file():
        print("corpus absent: nothing replayed")
        return 0
    env = dict(os.environ)
    if options.source is not None:
        env["PYTHONPATH"] = str(options.source.resolve())
    command = [sys.executable, "-m", "changelog_tool"]
    records = [json.loads(line) for line in (CORPUS / "prs.jsonl").open()]
    if options.only:
        records = [r for r in records if r["state"] == options.only]
    if options.prs:
        wanted = {int(n) for n in options.prs.split(",")}
        records = [r for r in records if r["pr"] in wanted]
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        prs = pull_requests(command, env, tmp, records, options.jobs)
        states = [] if options.no_main else main_states(command, env, tmp)
    report(prs, states)
    if options.json is not None:
        options.json.write_text(json.dumps({"prs": prs, "main": states}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
