"""perf-changelog: keep a benchmark repository's perf-changelog.yaml honest."""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
import sys
import threading
from types import TracebackType
from typing import NoReturn, TextIO

from changelog_tool.errors import INTERRUPTED, cut_short

__version__ = "0.1.0"


def batch_process() -> None:
    """Set up a ``changelog`` process (the console command, ``python -m
    changelog_tool``). From here on a ctrl+c ends the run as one (130, "interrupted"), wherever it lands:

    - a KeyboardInterrupt that escapes every handler (between the command's end and
      :func:`finish`, say) reaches the interpreter's top level, which hands it to
      ``sys.excepthook`` before its teardown; ending there keeps that teardown from
      flushing stdout into a pipe whose reader stopped reading, for ever;
    - Python raises KeyboardInterrupt only where its main thread checks for signals,
      so one can be swallowed (in a weakref callback or ``__del__``: "Exception
      ignored") or land just before a blocking write, which then waits for ever. The
      signal's number also goes to a wakeup pipe, which :func:`finish` watches."""
    global _WAKEUP
    sys.excepthook = _uncaught
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    _WAKEUP = read_end, write_end


_WAKEUP: tuple[int, int] | None = None
"""The pipe (read end, write end) the signals' numbers are written to, once
:func:`batch_process` has set it up."""


def _uncaught(
    kind: type[BaseException], exc: BaseException, traceback: TracebackType | None
) -> None:
    if issubclass(kind, KeyboardInterrupt):
        _end(_cut_short(exc, INTERRUPTED, INTERRUPTED))
    sys.__excepthook__(kind, exc, traceback)


_ENDING = threading.Lock()
"""Held by the one thread that ends the process: the main thread, or the watcher of
:func:`_watch_for_ctrl_c`, whichever sees the ctrl+c first; the other waits for the end."""


def _end(code: int, message: str | None = None) -> NoReturn:
    _ENDING.acquire()
    if message is not None:
        with contextlib.suppress(OSError):
            os.write(2, f"changelog: {message}\n".encode("utf-8", "replace"))
    os._exit(code)


def _cut_short(exc: BaseException, code: int, fallback: int) -> int:
    """The code a run that ``exc`` cut short ends with, never lower than the command's
    ``code``, after saying why on stderr (by descriptor: the stream may be what
    failed)."""
    failed, message = cut_short(exc) or (fallback, None)
    if failed == INTERRUPTED:
        _end(INTERRUPTED, message)
    if message is not None:
        with contextlib.suppress(OSError):
            os.write(2, f"changelog: {message}\n".encode("utf-8", "replace"))
    return max(code, failed)


def _watch_for_ctrl_c() -> None:
    """While the output is flushed, a thread ends the run on a ctrl+c that came at
    any moment since :func:`batch_process`, one the main thread did not act on."""
    if _WAKEUP is None or threading.current_thread() is not threading.main_thread():
        return
    read_end, write_end = _WAKEUP
    signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)  # (in case it was replaced)

    def watch() -> None:
        while number := os.read(read_end, 1):
            if number[0] == signal.SIGINT:
                _end(INTERRUPTED, "interrupted")

    threading.Thread(target=watch, name="ctrl+c", daemon=True).start()


def finish(code: int) -> NoReturn:
    """End a ``changelog`` process with ``code`` without the interpreter's teardown:
    what registered itself to run at exit still runs and the standard streams are
    flushed, then the process ends (every file the commands write is closed and
    synced before they return). Output that cannot be written ends the run as the
    error would had the command raised it (a closed pipe: 1; another OS error: said
    on stderr, 2; ctrl+c while the output waits for its reader: 130), never with a
    lower code. An interrupted run (130) drops what stdout still holds: its output
    was cut short anyway, and flushing it could wait for ever on a reader that
    stopped reading."""
    try:
        atexit._run_exitfuncs()
        if code == INTERRUPTED:  # (and said so)
            streams: tuple[TextIO | None, ...] = (sys.stderr,)
        else:
            streams = (sys.stdout, sys.stderr)
            _watch_for_ctrl_c()
        for stream in streams:
            if stream is None:  # its descriptor was closed when the process started
                continue
            try:
                stream.flush()
            except Exception as exc:  # the output cannot be written, or the command
                code = _cut_short(exc, code, 1)  # closed or replaced the stream
    except KeyboardInterrupt as exc:  # ctrl+c while a reader that stopped reading
        code = _cut_short(exc, code, INTERRUPTED)  # held the end
    _end(code)
