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


def measure(
    cmd: list[str],
    runs: int,
    cwd: Path,
    setup: Callable[[], None] | None = None,
    warmup: bool = False,
    env: dict[str, str] | None = None,
) -> tuple[float, int | None]:
    """Median wall time of ``runs`` runs of ``cmd`` (exit 0 or 1 expected), and the
    peak resident set size of one more run, in bytes: ``/usr/bin/time``'s ``%M``
    (the largest of the command's processes, git's included). A process forked
    from this one would report this interpreter's size, whatever it runs, so the
    size comes from ``time``, a small process; ``None`` without ``/usr/bin/time``.

    ``setup`` and ``warmup`` as in :func:`median_seconds`; ``env`` replaces the
    environment.
    """
    import os
    import tempfile

    def once(command: list[str]) -> float:
        if setup is not None:
            setup()
        start = time.perf_counter()
        result = subprocess.run(command, cwd=cwd, capture_output=True, env=env, check=False)
        seconds = time.perf_counter() - start
        if result.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(command)} failed:\n{result.stderr.decode()}")
        return seconds

    if warmup:
        once(cmd)
    seconds = statistics.median(once(cmd) for _ in range(runs))
    if not os.access("/usr/bin/time", os.X_OK):
        return seconds, None
    with tempfile.NamedTemporaryFile() as out:
        once(["/usr/bin/time", "-f", "%M", "-o", out.name, *cmd])
        kilobytes = int(Path(out.name).read_text().split()[-1])
    return seconds, kilobytes * 1024


def cache_bytecode(folder: Path) -> None:
    """Time commands as an installed package runs: with its bytecode cached.

    ``PYTHONDONTWRITEBYTECODE`` (set in some environments) would make every run
    compile the package's source; the cache goes to ``folder`` so nothing is
    written into the checkout. Call once, before the first (untimed) run.
    """
    import os

    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder / "pycache")
