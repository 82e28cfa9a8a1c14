"""Shared by the benchmark scripts: time whole commands, interpreter start included."""

from __future__ import annotations

import hashlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@cache
def installed_python(source: Path = ROOT) -> str:
    """The interpreter that runs every timed command: one where the package (this
    checkout, or another source tree of it) is a regular install, as it is for a user.

    An editable install (``pip install -e``, the test setup) adds an import finder
    that every interpreter start pays for (~25 ms on a 2-core machine: ``pathlib``
    and ``urllib`` among its imports). That would slow the tool's runs and inflate
    the ``python -c pass`` reference alike, and so flatter every ratio to it. So
    ``pip install`` of the sources goes into a venv in the temp folder, made once
    per version of the sources (their hash names it) and reused after that.
    """
    digest = hashlib.sha256()
    sources = sorted(
        [
            source / "pyproject.toml",
            *(source / "changelog_tool").rglob("*"),
            *(source / "schema").rglob("*"),
        ]
    )
    for path in sources:
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(source)).encode() + b"\0" + path.read_bytes())
    venv = Path(tempfile.gettempdir()) / f"perf-changelog-bench-{digest.hexdigest()[:16]}"
    python = venv / "bin" / "python"
    if not (venv / "ready").is_file():
        print(f"benchmarks: installing {source} into {venv} (once per source version)")
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(venv)], check=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--no-cache-dir", str(source)],
            check=True,
            capture_output=True,
        )
        (venv / "ready").touch()
    return str(python)


def revision_python(revision: str, folder: Path) -> str:
    """:func:`installed_python` for a git revision of this repository (its tree
    exported under ``folder``)."""
    sha = subprocess.run(
        ["git", "rev-parse", "--verify", f"{revision}^{{commit}}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    tree = folder / f"source-{sha[:12]}"
    if not tree.is_dir():
        tree.mkdir(parents=True)
        archive = subprocess.run(
            ["git", "archive", sha], cwd=ROOT, capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    return installed_python(tree)


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


@dataclass(frozen=True)
class Command:
    """One row of a benchmark: what runs, where, and what restores its files first."""

    cmd: list[str]
    cwd: Path
    setup: Callable[[], None] | None = None
    env: dict[str, str] | None = None

    def once(self, wrap: Sequence[str] = ()) -> float:
        if self.setup is not None:
            self.setup()
        start = time.perf_counter()
        result = subprocess.run(
            [*wrap, *self.cmd], cwd=self.cwd, capture_output=True, env=self.env, check=False
        )
        seconds = time.perf_counter() - start
        if result.returncode not in (0, 1):
            raise SystemExit(f"{' '.join(self.cmd)} failed:\n{result.stderr.decode()}")
        return seconds

    def peak_rss(self) -> int | None:
        """The peak resident set size of one run, in bytes: ``/usr/bin/time``'s ``%M``
        (the largest of the command's processes, git's included). A process forked
        from this one would report this interpreter's size, whatever it runs, so
        the size comes from ``time``, a small process; ``None`` without it."""
        import os

        if not os.access("/usr/bin/time", os.X_OK):
            return None
        with tempfile.NamedTemporaryFile() as out:
            self.once(["/usr/bin/time", "-f", "%M", "-o", out.name])
            return int(Path(out.name).read_text().split()[-1]) * 1024


def mb(size: int | None) -> str:
    """A peak RSS (:meth:`Command.peak_rss`, bytes) in MB (2**20 bytes), or ``n/a``."""
    return "n/a" if size is None else f"{size / 2**20:.1f}"


def measure_together(commands: Sequence[Command], runs: int) -> list[tuple[float, int | None]]:
    """Median wall time of ``runs`` runs of each command (exit 0 or 1 expected), the
    commands taking turns (after one untimed warm-up round), so that a load that
    comes and goes slows them alike and their ratios hold; and each command's peak
    RSS (:meth:`Command.peak_rss`)."""
    for command in commands:
        command.once()
    times: list[list[float]] = [[] for _ in commands]
    for _ in range(runs):
        for command, seen in zip(commands, times, strict=True):
            seen.append(command.once())
    return [
        (statistics.median(seen), command.peak_rss())
        for command, seen in zip(commands, times, strict=True)
    ]


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
    try:  # this process's own high-water mark (ru_maxrss would include the size of
        # the process that forked it, which an exec does not reset)
        with open("/proc/self/status") as status:
            kb = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
    except (OSError, StopIteration):
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    with open(out, "w") as handle:
        handle.write(str(kb))
atexit.register(report)
sys.argv = ["changelog", *sys.argv[1:]]
runpy.run_module("changelog_tool", run_name="__main__", alter_sys=True)
"""


def peak_rss_mb(args: list[str], cwd: Path, python: str | None = None) -> float:
    """Peak resident memory of ``changelog ARGS`` itself, in MB: the tool's own
    process (its ``VmHWM``), not the git processes it talks to (``git cat-file``
    holds a blob it serves) nor the benchmark that started it."""
    with tempfile.NamedTemporaryFile(suffix=".rss") as out:
        subprocess.run(
            [python or installed_python(), "-c", _PEAK, out.name, *args],
            cwd=cwd,
            capture_output=True,
            check=False,
        )
        return int(Path(out.name).read_text() or 0) / 1024
