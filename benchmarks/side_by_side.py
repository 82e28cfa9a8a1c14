"""Earlier versions of the tool against this checkout, in the same run: each installed
in its own venv, the versions taking turns round after round, so that a load that
comes and goes slows them alike.

    python benchmarks/side_by_side.py [--rev REV ...] [--runs N] [--commits N]

Rows (needs ../shared/corpus): `verify --base C~1 --head C` on real commits of the
corpus (the median over the commits of each version's medians); `verify --base
HEAD~1` with the work tree as head (as the Action runs it) and `verify --file`, on
the real file and on 10,000 real-sized entries; the merge driver at real size in a rebase (its ``%A``
restored before every run, in every row); `python -c pass`.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

from bench_merge import TARGET_BYTES, Scenario, grown, real_file
from bench_verify_base import CHANGELOG, CORPUS, pick_commits, synthetic_repo
from timing import Command, cache_bytecode, installed_python, measure_together, revision_python

FLOOR_IMPORT = "import ruamel.yaml, jsonschema"
FLOOR = "floor: python -I -c 'import ruamel.yaml, jsonschema'"


def first_key(repo: Path) -> str:
    """The key the synthetic head changed (its new entry names it)."""
    tail = (repo / "perf-changelog.yaml").read_text().rsplit("- config-keys:\n    - ", 1)[1]
    return tail.split("\n", 1)[0]


def verify(python: str, repo: Path, base: str, head: str | None) -> Command:
    at_head = ["--head", head] if head is not None else []
    return Command(
        [python, "-m", "changelog_tool", "verify", "--base", base, *at_head, "--format", "json"],
        repo,
    )


def verify_file(python: str, repo: Path) -> Command:
    return Command([python, "-m", "changelog_tool", "verify", "--file", CHANGELOG], repo)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", action="append", help="a git revision to compare (repeatable)")
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--commits", type=int, default=3)
    args = parser.parse_args()
    if not (CORPUS / "inferencex-data.bundle").is_file():
        print("corpus absent: nothing to benchmark")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        versions = {rev: revision_python(rev, folder) for rev in args.rev or ["HEAD~1"]}
        versions["this checkout"] = installed_python()
        cache_bytecode(folder)
        clone = folder / "clone"
        bundle = str(CORPUS / "inferencex-data.bundle")
        subprocess.run(["git", "clone", "-q", bundle, str(clone)], check=True)
        real = synthetic_repo(folder, clone, None)
        long = synthetic_repo(folder, clone, 10_000)
        key = first_key(real)
        (folder / "merge").mkdir()
        data, _ = real_file(folder / "merge")
        driver = Scenario(folder / "driver", grown(data, size=TARGET_BYTES))
        rebase = dict(os.environ, GIT_REFLOG_ACTION="rebase")
        names = list(versions)
        rows: list[tuple[str, list[Command]]] = [
            (
                f"verify --base C~1 --head C, commit {sha[:10]}",
                [verify(versions[n], clone, f"{sha}~1", sha) for n in names],
            )
            for sha in pick_commits(8)[-args.commits :]
        ]
        rows += [
            (
                "verify --base HEAD~1, work tree, real file",
                [verify(versions[n], real, "HEAD~1", None) for n in names],
            ),
            (
                "verify --base HEAD~1, work tree, 10,000 entries",
                [verify(versions[n], long, "HEAD~1", None) for n in names],
            ),
            (
                "verify --file, real file",
                [verify_file(versions[n], real) for n in names],
            ),
            (
                "verify --file, 10,000 entries",
                [verify_file(versions[n], long) for n in names],
            ),
            (
                "merge driver, real size, in a rebase",
                [
                    Command([versions[n], *driver.driver[1:]], driver.repo, driver.reset, rebase)
                    for n in names
                ],
            ),
            (
                "add --dry-run, real file",
                [
                    Command(
                        [
                            versions[n],
                            "-m",
                            "changelog_tool",
                            "add",
                            "--no-input",
                            "--dry-run",
                            "--key",
                            key,
                            "--description",
                            "x",
                        ],
                        real,
                    )
                    for n in names
                ],
            ),
            ("python -c pass", [Command([versions[n], "-c", "pass"], clone) for n in names]),
            (FLOOR, [Command([versions[n], "-I", "-c", FLOOR_IMPORT], clone) for n in names]),
        ]
        print(f"medians of {args.runs} rounds, the versions taking turns; ms")
        width = max(len(label) for label, _ in rows)
        header = " ".join(f"{n[:16]:>16}" for n in names)
        print(f"{'':<{width}} {header}   last/first   last/floor")
        timed = {label: [s for s, _ in measure_together(cmds, args.runs)] for label, cmds in rows}
        commit_rows = [t for label, t in timed.items() if label.startswith("verify --base C~1")]
        timed["verify on real commits, median"] = [
            statistics.median(t[i] for t in commit_rows) for i in range(len(names))
        ]
        floor = timed[FLOOR][-1]
        for label, times in timed.items():
            cells = " ".join(f"{t * 1000:>16.1f}" for t in times)
            ratios = f"{times[-1] / times[0]:>10.2f}   {times[-1] / floor:>10.2f}"
            print(f"{label:<{width}} {cells}   {ratios}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
