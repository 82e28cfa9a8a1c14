"""The TUI's changed keys, found by a child process while this one imports Textual.

`changelog add` spends its first moments importing Textual and building the first
frame, all on one core, and only then can it run the diff engine (on the app's
thread, it shares the interpreter lock with Textual's first refreshes). A child
forked before that import runs the same diff on another core, so the keys are
ready by the first frame.

The child is a copy of this process made with ``os.fork``, only where that is
safe and worth it: a platform with ``fork``, a single thread running (forking a
threaded process can copy a lock held by a thread the child does not have),
children this process can wait for (SIGCHLD not ignored), and more than one core
to run on. It reads nothing from the terminal and writes nothing to it: its
standard streams are ``/dev/null``, its answer goes through a pipe, pickled (the
pipe is between this process and its own copy, so it carries nothing another
program wrote), and it ends with ``os._exit``. A ctrl+c or a signal sent to the
terminal's process group ends it at once, without running any of this process's
code: SIGINT is its default action there, set while signals are held, so none
arrives between the fork and that. Its answer is exactly :func:`diff_answer`'s,
the function the app calls itself when there is no child or the child gives no
answer (it crashed, was killed, or the platform cannot fork): the keys shown never
depend on which process found them.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading

from changelog_tool.diff.engine import collect
from changelog_tool.diff.keychange import ChangeSet
from changelog_tool.errors import ChangelogError
from changelog_tool.settings import Settings

STOPPED = "the search for changed keys was stopped"
"""What :meth:`Ahead.take` answers once :meth:`Ahead.close` stopped the child (the app
is ending: nobody reads it, and nothing is searched again)."""

HELD = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)
"""The signals held around the fork (a handler of this process must not run in the
child, nor end this process before it knows the child's pid)."""


def diff_answer(settings: Settings, base: str | None) -> ChangeSet | str:
    """The diff engine's changes against ``base``, or the message of the error that
    stopped it (what the key list says instead of keys)."""
    try:
        return collect(settings, base=base)
    except ChangelogError as exc:
        return str(exc)


def can_fork() -> bool:
    """Whether a child may be forked now, and would run beside this process."""
    if not hasattr(os, "fork") or not hasattr(signal, "pthread_sigmask"):
        return False
    if threading.active_count() != 1:
        return False
    if signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN:  # it could not be waited for
        return False
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_getaffinity") else None
    return (len(cores) if cores is not None else os.cpu_count() or 1) > 1


class Ahead:
    """At most one child running :func:`diff_answer`. :meth:`start` forks it;
    :meth:`take` waits for its answer (from a worker); :meth:`close` stops it when
    the app ends first. ``take`` and ``close`` may come in either order, from
    different threads, and ``close`` any number of times."""

    def __init__(self, settings: Settings, base: str | None) -> None:
        self.settings = settings
        self.base = base
        self.pid: int | None = None
        self._pipe: int | None = None  # until a take or a close has it
        self.status: int | None = None
        """The child's wait status once reaped (``-1``: it was gone)."""
        self._closed = False
        self._lock = threading.Lock()

    def start(self) -> bool:
        """Fork the child, where :func:`can_fork`; ``False`` if there is none (the app
        then runs the diff). Signals are held until :attr:`pid` is set, so whoever
        made this object can always :meth:`close` it."""
        if self.pid is not None or not can_fork():
            return False
        try:
            read_end, write_end = os.pipe()
        except OSError:
            return False
        held = signal.pthread_sigmask(signal.SIG_BLOCK, HELD)
        try:
            pid = os.fork()
        except OSError:
            os.close(read_end)
            os.close(write_end)
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
            return False
        if pid == 0:  # pragma: no cover - runs in the child (the tests read its answer)
            _child(read_end, write_end, held, self.settings, self.base)
        os.close(write_end)
        self.pid, self._pipe = pid, read_end
        signal.pthread_sigmask(signal.SIG_SETMASK, held)  # a held ctrl+c is raised here
        return True

    def take(self) -> ChangeSet | str | None:
        """The child's answer (it waits for it), once; ``None`` if there was no child
        or it gave no answer (the caller then runs :func:`diff_answer` itself),
        :data:`STOPPED` after a :meth:`close`."""
        with self._lock:
            pipe, self._pipe = self._pipe, None
            if pipe is None:
                return STOPPED if self._closed else None
        data = b""
        try:
            with contextlib.suppress(OSError), open(pipe, "rb", closefd=True) as stream:
                data = stream.read()
        finally:
            with self._lock:
                status = self._reap()
                closed = self._closed
        if closed:
            return STOPPED
        if status != 0 or not data:
            return None
        try:
            answer: ChangeSet | str = pickle.loads(data)  # our own child wrote it
        except Exception:  # no answer: the caller runs the diff itself
            return None
        return answer

    def close(self) -> None:
        """Stop the child if it is still running, and reap it unless a :meth:`take` is
        under way (ended at once by the child's end: that ``take`` reaps it)."""
        with self._lock:
            self._closed = True
            if self.pid is None or self.status is not None:  # none, or reaped
                return
            os.kill(self.pid, signal.SIGKILL)  # not reaped yet: the pid is still the child's
            if self._pipe is not None:  # nobody is reading: reap it here
                os.close(self._pipe)
                self._pipe = None
                self._reap()

    def _reap(self) -> int:
        """Wait for the child (under the lock); its wait status, ``-1`` if it is gone."""
        assert self.pid is not None
        try:
            self.status = os.waitpid(self.pid, 0)[1]
        except ChildProcessError:
            self.status = -1
        return self.status


def _child(  # pragma: no cover - runs in the forked child
    read_end: int,
    write_end: int,
    held: set[int | signal.Signals],
    settings: Settings,
    base: str | None,
) -> None:
    code = 1
    try:
        signal.signal(signal.SIGINT, signal.SIG_DFL)  # ended by ctrl+c, no handler run
        signal.pthread_sigmask(signal.SIG_SETMASK, held)
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
