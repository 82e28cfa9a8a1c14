"""Shared by the benchmark scripts: time whole commands, interpreter start included."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable
from pathlib import Path


def median_seconds(
    cmd: list[str],
    runs: int,
    cwd: Path,
    setup: Callable[[], None] | None = None,
    warmup: bool = False,
) -> float:
    """Median wall time of ``runs`` runs of ``cmd`` (exit 0 or 1 expected).

    ``setup`` runs untimed before each run (e.g. to restore a file the command
    rewrites); ``warmup`` does one untimed run first (page cache, .pyc files).
    """
    if warmup:
        subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    times = []
    for _ in range(runs):
        if setup is not None:
            setup()
        start = time.perf_counter()
        result = subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
        times.append(time.perf_counter() - start)
        if result.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(cmd)} failed:\n{result.stderr.decode()}")
    return statistics.median(times)


def cache_bytecode(folder: Path) -> None:
    """Time commands as an installed package runs: with its bytecode cached.

    ``PYTHONDONTWRITEBYTECODE`` (set in some environments) would make every run
    compile the package's source; the cache goes to ``folder`` so nothing is
    written into the checkout. Call once, before the first (untimed) run.
    """
    import os

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")


_PEAK = r"""
import atexit, resource, runpy, sys
out = sys.argv.pop(1)
def report():
    with open(out, "w") as handle:
        handle.write(str(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))
atexit.register(report)
sys.argv = ["changelog", *sys.argv[1:]]
runpy.run_module("changelog_tool", run_name="__main__", alter_sys=True)
"""


def peak_rss_mb(args: list[str], cwd: Path) -> float:
    """Peak resident memory of ``changelog ARGS`` itself, in MB: the tool's own
    process (``RUSAGE_SELF``), not the git processes it talks to."""
    import sys
    import tempfile

    with tempfile.NamedTemporaryFile(suffix=".rss") as out:
        subprocess.run(
            [sys.executable, "-c", _PEAK, out.name, *args],
            cwd=cwd,
            capture_output=True,
            check=False,
        )
        return int(Path(out.name).read_text() or 0) / 1024
