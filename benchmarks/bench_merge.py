"""Benchmark: one merge-driver invocation on a ~400 KB changelog, end to end.

The three versions: base = the newest perf-changelog.yaml of ../shared/corpus,
grown to ~400 KB by re-appending its own entries (a synthetic file of the same
shape when the corpus is absent); ours (main) = base + 3 entries; theirs (the
branch) = base + 2 entries. The driver runs as git runs it, a fresh
``python -m changelog_tool merge-driver %O %A %B %P`` inside a real repository
whose ``main`` holds ours (so the protected-ref lookup reads a 400 KB blob).

Baseline, measured in the same run: a fresh interpreter that parses the three
versions with ruamel.yaml's round-trip loader. For reference: a bare
interpreter start, git's own textual ``git merge-file``, and the driver
compiling its own source on every run. Target: the driver under 0.2 s wall on
a 2-core machine.

Every command runs as an installed package does: with its bytecode cached
(after one untimed warm-up run). ``PYTHONDONTWRITEBYTECODE`` is dropped for the
timed commands and the cache goes to a temporary ``PYTHONPYCACHEPREFIX``, so
nothing is written into the checkout. The last reference row runs the driver
with ``PYTHONDONTWRITEBYTECODE=1`` and the usual cache location: an editable
install without ``__pycache__`` then compiles the package's source on every
start.

    python benchmarks/bench_merge.py [--runs 7]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import cache_bytecode, median_seconds

from changelog_tool.ledger.document import separator_before_append

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "inferencex-data.bundle"
TARGET_BYTES = 400_000
TARGET_SECONDS = 0.2

ENTRY = (
    "- config-keys:\n    - {key}\n  scenario-type:\n    - fixed-seq-len\n  description:\n"
    '    - "Bump image to vllm/vllm-openai:v0.{n}.0 and retune TP/EP search space for {key}"\n'
    '    - "Add conc 256 points; drop redundant TP2 runs"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n"
)


def new_entry(key: str, n: int) -> bytes:
    return ENTRY.format(key=key, n=n).encode()


def base_file(folder: Path) -> tuple[bytes, str]:
    if CORPUS.is_file():
        clone = folder / "clone"
        subprocess.run(["git", "clone", "-q", str(CORPUS), str(clone)], check=True)
        data = (clone / "perf-changelog.yaml").read_bytes()
        origin = f"corpus newest version ({len(data):,} bytes), grown by re-appending entries"
    else:
        data = b"\n".join(new_entry(f"model{n % 97}-fp4-b{n % 300}-vllm", n) for n in range(300))
        origin = "synthetic (corpus absent)"
    blocks = data.split(b"\n- config-keys:")
    grown, n = data, 0
    while len(grown) < TARGET_BYTES:
        block = blocks[n % len(blocks)].rstrip(b" \n")
        block = block if block.startswith(b"- config-keys:") else b"- config-keys:" + block
        grown = grown.rstrip(b"\n") + b"\n\n" + block + b"\n"
        n += 1
    return grown, origin


def join(data: bytes, *entries: bytes) -> bytes:
    return data + separator_before_append(data) + b"\n".join(entries)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        base, origin = base_file(folder)
        ours = join(base, *(new_entry(f"main-key-{n}", 9000 + n) for n in range(3)))
        theirs = join(base, *(new_entry(f"branch-key-{n}", 9100 + n) for n in range(2)))
        repo = folder / "repo"
        repo.mkdir()
        git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
        subprocess.run([*git, "init", "-q", "-b", "main"], cwd=repo, check=True)
        (repo / "perf-changelog.yaml").write_bytes(ours)
        subprocess.run([*git, "add", "."], cwd=repo, check=True)
        subprocess.run([*git, "commit", "-q", "-m", "main"], cwd=repo, check=True)
        paths = {name: repo / f".merge_file_{name}" for name in "OAB"}
        paths["O"].write_bytes(base)
        paths["B"].write_bytes(theirs)

        def reset() -> None:
            paths["A"].write_bytes(ours)

        files = [str(paths[n]) for n in "OAB"]
        driver = [py, "-m", "changelog_tool", "merge-driver", *files, "perf-changelog.yaml"]
        baseline = (
            "import sys; from ruamel.yaml import YAML; y = YAML(typ='rt'); "
            "[y.load(open(p, 'rb')) for p in sys.argv[1:]]"
        )
        rows = [
            ("baseline: ruamel round-trip parse of O, A, B", [py, "-c", baseline, *files]),
            ("merge-driver %O %A %B %P", driver),
            ("reference: python -c pass", [py, "-c", "pass"]),
            (
                "reference: git merge-file -p (textual)",
                ["git", "merge-file", "-p", files[1], files[0], files[2]],
            ),
            (
                "reference: merge-driver, no bytecode cache",
                ["env", "-u", "PYTHONPYCACHEPREFIX", "PYTHONDONTWRITEBYTECODE=1", *driver],
            ),
        ]
        reset()
        check = subprocess.run(rows[1][1], cwd=repo, capture_output=True, check=False)
        expected = join(ours, *(new_entry(f"branch-key-{n}", 9100 + n) for n in range(2)))
        if check.returncode != 0 or paths["A"].read_bytes() != expected:
            raise SystemExit(f"the driver did not merge as expected: {check.stderr.decode()}")
        print(
            f"file: {origin}; base {len(base):,} bytes, ours {len(ours):,}, "
            f"theirs {len(theirs):,}; median of {args.runs} runs"
        )
        cache_bytecode(folder)
        results = [
            (label, median_seconds(cmd, args.runs, repo, reset, warmup=True)) for label, cmd in rows
        ]
        reference = results[0][1]
        for label, seconds in results:
            print(f"{label:48s} {seconds * 1000:8.1f} ms   x{seconds / reference:5.2f} of baseline")
        driver = results[1][1]
        verdict = "meets" if driver < TARGET_SECONDS else "MISSES"
        print(
            f"merge driver: {driver * 1000:.0f} ms, {verdict} the {TARGET_SECONDS * 1000:.0f} ms "
            "target"
        )


if __name__ == "__main__":
    main()
