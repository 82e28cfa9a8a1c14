"""How often the review lints would have spoken on the real InferenceX history.

Replays every commit of the corpus bundle (../shared/corpus) that changed a recipe
or a master config, runs `changelog lint`'s review on what that commit changed,
and prints per file lint the number of commits and findings, with a few examples.
(``recipe-reference`` needs the diff engine's key changes: the corpus's own
``recipe_refs_unresolved`` field counts those.)

    python benchmarks/lint_corpus.py [--examples 3]

Skips (exit 0 with a note) when the corpus is absent.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from pathlib import Path

from changelog_tool.diff.recipes import target
from changelog_tool.lint.review import Changed, MasterKey, review
from changelog_tool.settings import DEFAULT_RECIPE_PREFIXES

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
MASTERS = ("configs/", ".github/configs/")


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, capture_output=True, text=True, check=True
    ).stdout


def show(root: Path, rev: str, path: str) -> bytes | None:
    done = subprocess.run(
        ["git", "show", f"{rev}:{path}"], cwd=root, capture_output=True, check=False
    )
    return done.stdout if done.returncode == 0 else None


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--examples", type=int, default=3)
    options = parser.parse_args()
    bundle = CORPUS / "inferencex-data.bundle"
    if not bundle.is_file():
        print("corpus absent: nothing measured")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "inferencex"
        subprocess.run(["git", "clone", "-q", str(bundle), str(root)], check=True)
        commits = git(root, "rev-list", "--reverse", "HEAD").split()
        per_code: Counter[str] = Counter()
        commits_with: dict[str, set[str]] = defaultdict(set)
        examples: dict[str, list[str]] = defaultdict(list)
        linted = 0
        for sha in commits[1:]:
            rows = git(root, "diff", "--name-status", "--no-renames", f"{sha}^", sha).splitlines()
            changed = Changed()
            for row in rows:
                status, path = row.split("\t", 1)
                if status == "D" or not path.endswith((".yaml", ".yml")):
                    continue
                head = show(root, sha, path)
                if head is None:
                    continue
                if path.startswith("benchmarks/multi_node/"):
                    changed.recipes[path] = (head, show(root, f"{sha}^", path))
                elif path.startswith(MASTERS) and path.endswith("-master.yaml"):
                    base = show(root, f"{sha}^", path)
                    changed.master_keys.append(MasterKey(path, head, base, 1, None))
            if not changed.recipes and not changed.master_keys:
                continue
            linted += 1
            for finding in review(changed, lambda p: True, _where):
                per_code[finding.code] += 1
                commits_with[finding.code].add(sha)
                if len(examples[finding.code]) < options.examples:
                    examples[finding.code].append(
                        f"{sha[:9]} {finding.path}:{finding.line}: {finding.message[:160]}"
                    )
        print(
            f"commits replayed: {len(commits) - 1}, linted (a recipe or master changed): {linted}"
        )
        for code in ("key-style", "repeated-block"):
            print(f"{code}: {len(commits_with[code])} commits, {per_code[code]} findings")
            for line in examples[code]:
                print(f"    {line}")
    return 0


def _where(ref: str) -> str | None:
    path = target(ref, DEFAULT_RECIPE_PREFIXES)
    return path if "/" in path else None


if __name__ == "__main__":
    sys.exit(main())
