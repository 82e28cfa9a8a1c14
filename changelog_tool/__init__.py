"""perf-changelog: keep a benchmark repository's perf-changelog.yaml honest."""

from __future__ import annotations

import gc

__version__ = "0.1.0"
HOME = "perf-changelog/perf-changelog"
"""The project's GitHub repository (``owner/name``): the Action, the pre-commit hook
and ``pip install git+https://github.com/{HOME}@v{__version__}`` name it; releases
are tagged ``v<version>``."""


def batch_process() -> None:
    """A ``changelog`` process (the console command, ``python -m changelog_tool``)
    runs without the cyclic garbage collector: reference counting frees what the
    commands make, and none makes cyclic garbage that grows with its input (peak
    RSS at 100,000 entries is the same either way: docs/performance.md), while the
    ~30 collections the collector runs as the modules load cost ~9 ms of a 0.2 s
    gate run. The TUI, a long session whose event loop makes cycles as it goes,
    turns it back on (:func:`changelog_tool.tui.run_add`). ``cli.main`` called in
    a process of its own (the tests) leaves the collector as it is."""
    gc.disable()
