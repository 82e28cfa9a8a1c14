"""The TUI's changed keys, found by a child process while this one imports Textual.

`changelog add` spends its first ~0.2 s importing Textual and building the first
frame, all on one core, and only then can it run the diff engine (~0.1 s alone,
more on the app's thread because it shares the interpreter lock with Textual's
first refreshes). A child forked before that import runs the same diff on the
other core, so the keys are ready by the first frame.

The child is a copy of this process made with ``os.fork`` (where there is one,
and only while this process runs a single thread: forking a threaded process can
copy a lock held by a thread that does not exist in the child). It reads nothing
from the terminal and writes nothing to it: its standard streams are
``/dev/null``, its answer goes through a pipe, pickled (the pipe is between this
process and its own copy, so it carries nothing another program wrote), and it
ends with ``os._exit``. Its answer is exactly :func:`diff_answer`'s, the function
the app calls itself when there is no child or the child gives no answer (it
crashed, was killed, or the platform cannot fork): the keys shown never depend on
which process found them.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
from typing import TYPE_CHECKING

from changelog_tool.errors import ChangelogError

if TYPE_CHECKING:
    from changelog_tool.diff.keychange import ChangeSet
    from changelog_tool.settings import Settings


def diff_answer(settings: Settings, base: str | None) -> ChangeSet | str:
    """The diff engine's changes against ``base``, or the message of the error that
    stopped it (what the key list says instead of keys)."""
    from changelog_tool.diff.engine import collect

    try:
        return collect(settings, base=base)
    except ChangelogError as exc:
        return str(exc)


STOPPED = "the search for changed keys was stopped"
"""What :meth:`Ahead.take` answers once :meth:`Ahead.close` stopped the child (the app
has ended: nobody reads it, and nothing is searched again)."""


class Ahead:
    """One child running :func:`diff_answer`: :meth:`take` waits for its answer (from a
    worker), :meth:`close` stops it if the app ends first; either may come first, from
    different threads."""

    def __init__(self, pid: int, pipe: int) -> None:
        self.pid = pid
        self._pipe: int | None = pipe  # until a take or a close has it
        self._reaped = False
        self._closed = False
        self._lock = threading.Lock()

    @classmethod
    def start(cls, settings: Settings, base: str | None) -> Ahead | None:
        """Fork the child; ``None`` where this process cannot (no ``fork``, another
        thread running, or the fork itself failed): the app then runs the diff."""
        if not hasattr(os, "fork") or threading.active_count() != 1:
            return None
        read_end, write_end = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            return None
        if pid == 0:  # pragma: no cover - runs in the child (the tests read its answer)
            _child(read_end, write_end, settings, base)
        os.close(write_end)
        return cls(pid, read_end)

    def take(self) -> ChangeSet | str | None:
        """The child's answer (it waits for it), once; ``None`` if the child gave none
        (the caller then runs :func:`diff_answer` itself), :data:`STOPPED` after a
        :meth:`close`."""
        with self._lock:
            pipe, self._pipe = self._pipe, None
        if pipe is None:
            return STOPPED if self._closed else None
        with open(pipe, "rb", closefd=True) as stream:
            data = stream.read()
        with self._lock:
            status = _reap(self.pid)
            self._reaped = True
            if self._closed:
                return STOPPED
        if status != 0 or not data:
            return None
        answer: ChangeSet | str = pickle.loads(data)  # our own child wrote it
        return answer

    def close(self) -> None:
        """Stop the child if it is still running and reap it, unless a :meth:`take`
        under way does (the child's end then ends its read at once)."""
        with self._lock:
            self._closed = True
            if self._reaped:
                return
            with contextlib.suppress(ProcessLookupError):  # not reaped: still its pid
                os.kill(self.pid, signal.SIGKILL)
            if self._pipe is not None:  # nobody is reading: reap it here
                os.close(self._pipe)
                self._pipe = None
                _reap(self.pid)
                self._reaped = True


def _reap(pid: int) -> int:
    """The child's wait status (``-1``: already reaped by someone else, no answer)."""
    try:
        return os.waitpid(pid, 0)[1]
    except ChildProcessError:
        return -1


def _child(  # pragma: no cover - runs in the forked child
    read_end: int, write_end: int, settings: Settings, base: str | None
) -> None:
    code = 1
    try:
        os.close(read_end)
        quiet = os.open(os.devnull, os.O_RDWR)
        for stream in (0, 1, 2):
            os.dup2(quiet, stream)
        # and Python's streams, which may write to other descriptors than 1 and 2
        sys.stdin = sys.stdout = sys.stderr = open(quiet, "r+", closefd=False)  # noqa: SIM115
        data = pickle.dumps(diff_answer(settings, base), protocol=pickle.HIGHEST_PROTOCOL)
        with open(write_end, "wb", closefd=True) as out:
            out.write(data)
        code = 0
    finally:
        os._exit(code)
