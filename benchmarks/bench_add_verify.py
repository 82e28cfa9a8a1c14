"""Benchmark: `verify --file` and a dry-run `add`, end to end (interpreter start included).

Files: the real perf-changelog.yaml (the newest version in ../shared/corpus when
present, else a synthetic file of the same shape and ~400 KB) and a synthetic
100,000-entry file. Baseline, measured in the same run: a fresh interpreter
that fully parses the same file with ruamel.yaml's round-trip loader. Every
command runs with its bytecode cached, as an installed package does.

    python benchmarks/bench_add_verify.py [--runs 5]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

from timing import cache_bytecode, median_seconds

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "inferencex-data.bundle"

ENTRY = (
    "- config-keys:\n    - {key}\n  scenario-type:\n    - fixed-seq-len\n  description:\n"
    '    - "Bump image to vllm/vllm-openai:v0.{n}.0 and retune TP/EP search space for {key}"\n'
    '    - "Add conc 256 points; drop redundant TP2 runs"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n"
)


def synthetic(entries: int) -> bytes:
    parts = [
        ENTRY.format(key=f"model{n % 97}-fp{4 + n % 2}-b{n % 300}-vllm", n=n)
        for n in range(entries)
    ]
    return "\n".join(parts).encode()


def real_file(folder: Path) -> tuple[bytes, str]:
    if CORPUS.is_file():
        clone = folder / "clone"
        subprocess.run(["git", "clone", "-q", str(CORPUS), str(clone)], check=True)
        return (clone / "perf-changelog.yaml").read_bytes(), "corpus (newest version)"
    return synthetic(800), "synthetic (corpus absent)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache_bytecode(folder)
        data, origin = real_file(folder)
        real = folder / "real.yaml"
        real.write_bytes(data)
        big = folder / "big.yaml"
        big.write_bytes(synthetic(100_000))
        add = [
            "add",
            "--no-input",
            "--dry-run",
            "--key",
            "dsr1-fp4-b200-sglang",
            "--description",
            "benchmark entry",
        ]
        baseline = (
            "import sys; from ruamel.yaml import YAML; YAML(typ='rt').load(open(sys.argv[1], 'rb'))"
        )
        rows = [
            ("baseline: ruamel round-trip parse, real", [py, "-c", baseline, str(real)]),
            ("verify --file, real", [py, "-m", "changelog_tool", "verify", "--file", str(real)]),
            ("add --dry-run, real", [py, "-m", "changelog_tool", *add, "--file", str(real)]),
            (
                "add --dry-run, 100,000 entries",
                [py, "-m", "changelog_tool", *add, "--file", str(big)],
            ),
            (
                "verify --file, 100,000 entries",
                [py, "-m", "changelog_tool", "verify", "--file", str(big)],
            ),
        ]
        print(
            f"real file: {origin}, {len(data):,} bytes, {data.count(b'- config-keys:')} entries; "
            f"synthetic: {big.stat().st_size:,} bytes; median of {args.runs} runs"
        )
        results = {}
        for label, cmd in rows:
            runs = 1 if "verify --file, 100,000" in label else args.runs
            results[label] = median_seconds(cmd, runs, folder, warmup=runs > 1)
        base = results["baseline: ruamel round-trip parse, real"]
        print(f"{'command':42} {'seconds':>8} {'vs baseline':>12}")
        for label, seconds in results.items():
            print(f"{label:42} {seconds:8.3f} {seconds / base:11.2f}x")
        ratio = results["add --dry-run, 100,000 entries"] / results["add --dry-run, real"]
        print(f"add on 100,000 entries vs add on real: {ratio:.2f}x (target <= 2x)")
        print(f"verify --file on real: {results['verify --file, real']:.3f} s (target < 0.3 s)")


if __name__ == "__main__":
    main()
