"""Peak memory of every command that reads the changelog, at 10,000 real-sized
entries (budget: at most 256 MB each, the tool's own process; git's are not counted).

    python benchmarks/bench_memory.py [--entries N] [--rev REV]

Needs ../shared/corpus: the history's entries are cycled to N entries on main, and a
branch changes one master key and appends one entry for it (as
``bench_verify_base.synthetic_repo`` builds it). Each command runs once, in its own
interpreter, measured by ``timing.peak_rss_mb``; the files it writes are restored
after it.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
from pathlib import Path

from bench_verify_base import CHANGELOG, CORPUS, masters, synthetic_repo
from timing import cache_bytecode, installed_python, peak_rss_mb, revision_python

TARGET_MB = 256


def _own_entry(key: str) -> bytes:
    return (
        f'- config-keys:\n    - {key}\n  description:\n    - "Own change of {key}"\n'
        "  pr-link: XXX\n"
    ).encode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=10_000)
    parser.add_argument("--rev", action="append", default=[], help="also measure this revision")
    args = parser.parse_args()
    bundle = CORPUS / "inferencex-data.bundle"
    if not bundle.is_file():
        print("skipped: ../shared/corpus is absent")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        cache_bytecode(root)
        clone = root / "corpus"
        subprocess.run(["git", "clone", "-q", str(bundle), str(clone)], check=True)
        repo = synthetic_repo(root, clone, args.entries)
        key = next(
            line[:-1]
            for line in (repo / masters(clone, "HEAD")[0]).read_text().splitlines()
            if line and line[0].isalnum() and line.endswith(":")
        )
        head = (repo / CHANGELOG).read_bytes()
        base = subprocess.run(
            ["git", "show", f"HEAD~1:{CHANGELOG}"], cwd=repo, capture_output=True, check=True
        ).stdout
        sides = root / "sides"
        sides.mkdir()
        (sides / "O").write_bytes(base)
        (sides / "B").write_bytes(head)
        ours = base + (b"" if base.endswith(b"\n\n") else b"\n") + _own_entry("main-only-key")
        rows: list[tuple[str, list[str], Path]] = [
            ("verify --base (work tree)", ["verify", "--base", "HEAD~1"], repo),
            ("verify --base --head", ["verify", "--base", "HEAD~1", "--head", "HEAD"], repo),
            ("verify --file", ["verify", "--file", CHANGELOG], repo),
            ("keys --base", ["keys", "--base", "HEAD~1"], repo),
            ("lint --base", ["lint", "--base", "HEAD~1"], repo),
            ("log KEY", ["log", key], repo),
            (
                "add --dry-run (flags)",
                ["add", "--dry-run", "--key", key, "--description", "x", "--no-input"],
                repo,
            ),
            ("add (flags)", ["add", "--key", key, "--description", "x", "--no-input"], repo),
            (
                "merge-driver",
                ["merge-driver", str(sides / "O"), str(sides / "A"), str(sides / "B"), CHANGELOG],
                repo,
            ),
        ]
        print(f"{args.entries:,} entries, {len(head) / 1e6:.1f} MB changelog")
        pythons = {"this checkout": installed_python()}
        pythons.update({rev: revision_python(rev, root) for rev in args.rev})
        print(f"{'command':32}" + "".join(f"{name:>16}" for name in pythons))
        worst = dict.fromkeys(pythons, 0.0)
        for name, words, cwd in rows:
            found = []
            for label, python in pythons.items():
                (sides / "A").write_bytes(ours)
                peak = peak_rss_mb(words, cwd, python)
                (repo / CHANGELOG).write_bytes(head)  # add appended: restore
                worst[label] = max(worst[label], peak)
                found.append(f"{peak:13.1f} MB")
            print(f"{name:32}" + "".join(found))
        print(f"{'worst':32}" + "".join(f"{w:13.1f} MB" for w in worst.values()))
        print(f"budget: at most {TARGET_MB} MB each")
        shutil.rmtree(clone)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
