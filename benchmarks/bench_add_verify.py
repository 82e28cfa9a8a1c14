"""Benchmark: `verify --file` and a dry-run `add`, end to end (interpreter start included).

Files: the real perf-changelog.yaml (the newest version in ../shared/corpus when
present, else a synthetic file of ~500-byte entries) and changelogs of 1,000,
10,000 and 100,000 real-sized entries, made by cycling the real file's entries
(or the synthetic ones). For `verify --file` it reports the median time, the
throughput (MB/s) and the peak resident memory of the process. Baseline,
measured in the same run: a fresh interpreter that fully parses the real file
with ruamel.yaml's round-trip loader. `add` on 100,000 entries is judged as the
other scaling figures are: within 1.3x of the real file beyond what its floor
grows by (a process reading the file, checking that it is UTF-8 and counting
its lines). Every
command runs with its bytecode cached, as an installed package does.

    python benchmarks/bench_add_verify.py [--runs 5] [--big-runs 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import tempfile
from pathlib import Path

from timing import Command, cache_bytecode, installed_python, mb, median_seconds

from changelog_tool.ledger.document import Ledger

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "inferencex-data.bundle"

# `add` checks its keys against the master configs of the directory it runs in
MASTER = (
    "dsr1-fp4-b200-sglang:\n  image: lmsysorg/sglang:v0.5.9\n  model: deepseek-ai/DeepSeek-R1\n"
    "  runner: b200\n  precision: fp4\n  framework: sglang\n  multinode: false\n"
    "  scenarios:\n    fixed-seq-len:\n    - isl: 1024\n      osl: 1024\n"
    "      search-space:\n      - { tp: 8, conc-list: [4, 8] }\n"
)
ENTRY = (
    "- config-keys:\n    - {key}\n    - {key}-mtp\n  scenario-type:\n    - fixed-seq-len\n"
    "  description:\n"
    '    - "Bump image to vllm/vllm-openai:v0.{n}.0 and retune the TP/EP search space for {key}"\n'
    '    - "Add conc 256 and 512 points for 1k1k and 8k1k; drop the redundant TP2 runs"\n'
    '    - "Set VLLM_USE_FLASHINFER_MOE_FP8=1 and --max-num-batched-tokens 16384 (#{n})"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n"
)
SIZES = (1_000, 10_000, 100_000)


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


def cycled(data: bytes, entries: int) -> bytes:
    """``entries`` entries taken in turn from ``data``, one empty line between them."""
    ledger = Ledger(data)
    texts = [ledger.text(block).rstrip(b"\n") + b"\n" for block in ledger.blocks]
    return b"\n".join(texts[n % len(texts)] for n in range(entries))


FLOOR = """
import codecs, sys
check = codecs.getincrementaldecoder("utf-8")()
lines = 0
with open(sys.argv[1], "rb") as handle:
    while chunk := handle.read(1 << 20):
        check.decode(chunk)
        lines += chunk.count(b"\\n")
check.decode(b"", final=True)
"""
"""What `add` must do at least with the file it appends to: read every byte, check
that it is UTF-8 (a file that is not is refused, whatever it holds) and count its
lines (`add` says the line its entry begins at, and a refusal the line of the first
bad byte), a megabyte at a time as the tool does (reading it whole would cost more
than the tool's own pass). The floor of `verify --base` from the work tree counts
lines for the same reason."""

# `python -m changelog_tool` with the package taken from sys.path[0]
RUN_MODULE = (
    "import runpy; sys.argv[0] = 'changelog_tool'; "
    "runpy.run_module('changelog_tool', run_name='__main__', alter_sys=True)"
)


def median_run(cmd: list[str], runs: int, cwd: Path) -> tuple[float, int | None]:
    """Median time of ``runs`` runs after one untimed run, and the peak resident
    memory (bytes) of one more run (:meth:`timing.Command.peak_rss`)."""
    return median_seconds(cmd, runs, cwd, warmup=True), Command(cmd, cwd).peak_rss()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big-runs", type=int, default=3, help="runs at 100,000 entries")
    parser.add_argument(
        "--before",
        type=Path,
        metavar="DIR",
        help="also time verify --file from this source tree (an export of an earlier "
        "commit: `git archive REV | tar -x -C DIR`), for a before/after in the same run",
    )
    args = parser.parse_args()
    py = installed_python()
    tool = [py, "-m", "changelog_tool"]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache_bytecode(folder)
        (folder / "configs").mkdir()
        (folder / "configs" / "nvidia-master.yaml").write_text(MASTER)
        data, origin = real_file(folder)
        files = {"real": folder / "real.yaml"}
        files["real"].write_bytes(data)
        for size in SIZES:
            files[f"{size:,}"] = folder / f"entries-{size}.yaml"
            files[f"{size:,}"].write_bytes(cycled(data, size))
        add = [*tool, "add", "--no-input", "--dry-run", "--key", "dsr1-fp4-b200-sglang"]
        add += ["--description", "benchmark entry", "--file"]
        baseline = (
            "import sys; from ruamel.yaml import YAML; YAML(typ='rt').load(open(sys.argv[1], 'rb'))"
        )
        rows: list[tuple[str, str, list[str]]] = [
            ("baseline: ruamel round-trip parse", "real", [py, "-c", baseline, str(files["real"])]),
            ("add --dry-run", "real", [*add, str(files["real"])]),
            ("add --dry-run", "100,000", [*add, str(files["100,000"])]),
            ("reference: read, UTF-8, lines", "real", [py, "-c", FLOOR, str(files["real"])]),
            ("reference: read, UTF-8, lines", "100,000", [py, "-c", FLOOR, str(files["100,000"])]),
        ]
        rows += [
            ("verify --file", name, [*tool, "verify", "--file", str(path)])
            for name, path in files.items()
        ]
        if args.before is not None:
            before = str(args.before.resolve())
            old = [py, "-c", f"import sys; sys.path.insert(0, {before!r}); {RUN_MODULE}"]
            rows += [
                ("verify --file, before", name, [*old, "verify", "--file", str(path)])
                for name, path in files.items()
            ]
        entries = {
            name: Ledger(path.read_bytes()).entry_head_count() for name, path in files.items()
        }
        print(
            f"real file: {origin}, {len(data):,} bytes, {entries['real']} entries; "
            f"entries cycled from it for 1,000 / 10,000 / 100,000; bytecode cached; "
            f"median of {args.runs} runs ({args.big_runs} at 100,000); "
            f"load average {os.getloadavg()[0]:.1f} at the start"
        )
        results: dict[tuple[str, str], tuple[float, int]] = {}
        for label, name, cmd in rows:
            runs = args.big_runs if name == "100,000" else args.runs
            results[label, name] = median_run(cmd, runs, folder)
        base = results["baseline: ruamel round-trip parse", "real"][0]
        print(
            f"{'command':34} {'entries':>8} {'MB':>6} {'seconds':>8} {'MB/s':>6} "
            f"{'peak RSS MB':>11} {'x baseline':>10}"
        )
        for (label, name), (elapsed, rss) in results.items():
            megabytes = files[name].stat().st_size / 1e6
            verify = label.startswith("verify --file")
            speed = f"{megabytes / elapsed:6.1f}" if verify else f"{'':6}"
            print(
                f"{label:34} {entries[name]:>8,} {megabytes:6.1f} {elapsed:8.3f} {speed} "
                f"{mb(rss):>11} {elapsed / base:10.2f}"
            )
        add_real, add_big = (results["add --dry-run", name][0] for name in ("real", "100,000"))
        floor_real, floor_big = (
            results["reference: read, UTF-8, lines", name][0] for name in ("real", "100,000")
        )
        allowed = 1.3 * add_real + (floor_big - floor_real)
        big, big_rss = results["verify --file", "100,000"]
        big_speed = files["100,000"].stat().st_size / 1e6 / big
        print(
            f"add on 100,000 entries: {add_big:.3f} s, {add_big / add_real:.2f}x the real file; "
            f"{allowed:.3f} s allowed (1.3x real + {floor_big - floor_real:.3f} s more to read, "
            f"check and count): {'met' if add_big <= allowed else 'MISSED'}"
        )
        print(f"verify --file, real: {results['verify --file', 'real'][0]:.3f} s (target < 0.3 s)")
        print(
            f"verify --file, 100,000 entries: {big_speed:.1f} MB/s (target >= 10), "
            f"peak RSS {mb(big_rss)} MB (target <= 100)"
        )
        print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
