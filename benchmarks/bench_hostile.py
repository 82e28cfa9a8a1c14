"""Every command on every 1 MB hostile input of tests/hostile_inputs.py, timed as
a subprocess (interpreter start included), and the slowest of them.

    python benchmarks/bench_hostile.py [--runs 3] [--top 10]

Each input is committed on a branch of a throwaway repository built like the tests'
(tests/projects.py); each command runs --runs times there and its median is kept.
The target (tests/test_time_bounds.py): under 2 s for every run. Prints the --top
slowest pairs and the slowest one last.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from timing import installed_python, median_seconds

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from conftest import GitRepo  # the tests' own repositories and inputs
from hostile_inputs import COMMANDS, INPUTS
from projects import make_project

LIMIT = 2.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    os.environ.update(
        GIT_AUTHOR_NAME="bench",
        GIT_AUTHOR_EMAIL="bench@example.invalid",
        GIT_COMMITTER_NAME="bench",
        GIT_COMMITTER_EMAIL="bench@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
    )
    python = installed_python()
    timed: list[tuple[float, str, str]] = []
    for name, files in INPUTS.items():
        with tempfile.TemporaryDirectory() as folder:
            root = Path(folder) / "repo"
            root.mkdir()
            repo = GitRepo(root)
            repo.git("init", "-q", "-b", "main")
            make_project(repo)
            repo.commit(name, **files)
            for command, argv in COMMANDS.items():
                seconds = median_seconds(
                    [python, "-I", "-m", "changelog_tool", *argv], args.runs, root, warmup=True
                )
                timed.append((seconds, name, command))
                print(f"{seconds:6.2f} s  {name}: {command}", flush=True)
    timed.sort(reverse=True)
    print(f"\nslowest {args.top} of {len(timed)} (median of {args.runs} runs each):")
    for seconds, name, command in timed[: args.top]:
        flag = "  OVER 2 s" if seconds >= LIMIT else ""
        print(f"{seconds:6.2f} s  {name}: {command}{flag}")
    seconds, name, command = timed[0]
    print(f"\nslowest hostile input: {name!r} ({command}), {seconds:.2f} s")


if __name__ == "__main__":
    main()
