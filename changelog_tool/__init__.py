"""perf-changelog: keep a benchmark repository's perf-changelog.yaml honest."""

from __future__ import annotations

import gc
from typing import NoReturn

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


def finish(code: int) -> NoReturn:
    """End a ``changelog`` process with ``code`` without the interpreter's teardown:
    what registered itself to run at exit still runs and the standard streams are
    flushed, then the process ends. Tearing down the ~180 modules a gate run loads,
    object by object, took ~12 ms of a 0.11 s ``verify --base`` (docs/performance.md);
    every file the commands write is closed (and synced) before they return. Output
    that cannot be written ends the run as the error would had the command raised it
    (a closed pipe: 1; another OS error: said on stderr, 2; ctrl+c while the output
    waits for its reader: 130), never with a lower code."""
    import atexit
    import contextlib
    import os
    import sys

    def cut_short_by(exc: BaseException, fallback: int) -> int:
        """The code ``exc`` ends the run with (said on stderr by descriptor: the
        stream may be what failed), never lower than the command's."""
        from changelog_tool.errors import cut_short

        failed, message = cut_short(exc) or (fallback, None)
        if message is not None:
            with contextlib.suppress(OSError):
                os.write(2, f"changelog: {message}\n".encode("utf-8", "replace"))
        return max(code, failed)

    try:
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            if stream is None:  # its descriptor was closed when the process started
                continue
            try:
                stream.flush()
            except Exception as exc:  # the output cannot be written, or the command
                code = cut_short_by(exc, 1)  # closed or replaced the stream
    except KeyboardInterrupt as exc:  # ctrl+c while a reader that stopped reading
        code = cut_short_by(exc, 130)  # held the end
    os._exit(code)
