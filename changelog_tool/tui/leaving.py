"""How a run of the add screen ends without saving: its exit code and message, the draft
kept or dropped, and the signals from outside that end it the same way.

Exit codes (what ``changelog add`` returns; a shell reports 128 + N for a command that
signal N ended, and these keep that convention although the process exits normally):

- 0: saved (not decided here).
- 1: left with esc or ctrl+q.
- 130: left with the ctrl+c key, or a SIGINT from outside (``kill -INT``).
- 143: a SIGTERM (``kill``, a supervisor stopping the session).
- 129: a SIGHUP (the terminal was closed, or ``kill -HUP``).

A signal ends the run the way leaving does, without asking: the typed answers are kept
as the draft (``.git/perf-changelog-draft.json``) the next ``changelog add`` offers,
nothing is written to the changelog, and the app exits through Textual's own shutdown,
which restores the terminal and prints no traceback. A second signal while the app ends
changes nothing; other signals (SIGQUIT, SIGKILL) keep their default effect.

How: Python-level handlers, installed when the app loads (before the terminal enters
application mode) and replaced by the previous ones once the app has shut down, do only
two things at once: when the terminal is gone (closed: its ioctls fail with EIO) they
point stdin/stdout/stderr at /dev/null, and they hand the signal to the app's event loop
(``call_soon_threadsafe``), where the draft is read from the form and saved before the
app exits, never in the middle of the app's own code. The first must happen at once:
closing a terminal also sends SIGCONT, on which Textual's driver restarts application
mode on the dead terminal, its output thread dies of the failed write, and the shutdown
waits for that thread forever. A backstop ends the process with the signal's code if the
shutdown still has not ended it 10 s after the draft was kept.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import signal
import termios
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from changelog_tool.authoring import drafts
from changelog_tool.authoring.drafts import Draft
from changelog_tool.errors import ChangelogError

LEFT_CODE = 1  # esc / ctrl+q: the user chose not to save
INTERRUPTED = "interrupted"
BACKSTOP_SECONDS = 10.0  # after a signal, the longest the shutdown may take

# The signals that end the run keeping the draft, and the word the message starts with.
SIGNALS: dict[signal.Signals, str] = {
    signal.SIGINT: INTERRUPTED,
    signal.SIGTERM: "terminated",
    signal.SIGHUP: "hung up",
}

Handler = Callable[[int, FrameType | None], object] | int  # what signal.signal takes


@dataclass(frozen=True)
class Outcome:
    code: int
    message: str


def signal_code(signum: int) -> int:
    """The exit code for a run a signal ended: 128 + its number (130, 143, 129)."""
    return 128 + signum


def leave(path: Path, draft: Draft, baseline: Draft, code: int, how: str = "") -> Outcome:
    """Leave without writing ``path``: keep ``draft`` when it holds typed text, else drop
    a kept draft the user emptied; ``how`` (e.g. "interrupted") starts the message. A
    draft that cannot be kept is said so in the message: leaving never fails."""
    nothing = f"{how}: " if how else ""
    nothing += f"nothing was written to {path}"
    if draft.has_text():
        try:
            where = drafts.save(path, draft)
        except (OSError, ChangelogError) as exc:
            return Outcome(code, f"{nothing}; your answers could not be kept: {exc}")
        return Outcome(code, f"{nothing}; your answers are kept in {where} and offered next time")
    if draft != baseline:
        with contextlib.suppress(OSError):
            drafts.discard(path)
    return Outcome(code, nothing)


def keep(path: Path, draft: Draft) -> str:
    """Keep ``draft`` as the draft of ``path``; what to tell when it could not be (the
    answers stay in the form either way)."""
    try:
        drafts.save(path, draft)
    except (ChangelogError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"The draft could not be kept either ({reason}); the answers stay on screen."
    return ""


def detach_if_hung_up() -> bool:
    """When the terminal is gone (its ioctls fail with EIO, as after it was closed), point
    stdin, stdout and stderr at /dev/null and say so: Textual's shutdown and the last
    message then write nowhere, instead of failing on the dead terminal (a failed write
    kills Textual's output thread, and the shutdown then waits for it forever)."""
    gone = False
    for fd in (0, 1, 2):
        try:
            termios.tcgetattr(fd)
        except termios.error as exc:
            gone = gone or exc.args[0] == errno.EIO  # ENOTTY: redirected, not gone
    if gone:
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        os.close(null)
    return gone


def backstop(code: int, seconds: float = BACKSTOP_SECONDS) -> threading.Timer:
    """End the process with ``code`` if it still runs ``seconds`` from now (a daemon timer,
    gone when the process ends first): once a signal has come and the draft is kept, a
    shutdown stuck on the terminal must not keep the process alive."""
    timer = threading.Timer(seconds, os._exit, (code,))
    timer.daemon = True
    timer.start()
    return timer


def route_signals(react: Callable[[int], None]) -> Callable[[], None]:
    """Call ``react(signum)`` on the running loop for each of :data:`SIGNALS`, detaching
    from a terminal that is gone first; returns what puts the previous handlers back.
    Outside the main thread (where Python takes no signals) it routes nothing."""
    loop = asyncio.get_running_loop()

    def handler(signum: int, frame: FrameType | None) -> None:
        detach_if_hung_up()
        loop.call_soon_threadsafe(react, signum)

    previous: dict[signal.Signals, Handler | None] = {}
    for signum in SIGNALS:
        try:
            previous[signum] = signal.signal(signum, handler)
        except ValueError:  # not the main thread
            break

    def undo() -> None:
        for signum, before in previous.items():
            signal.signal(signum, signal.SIG_DFL if before is None else before)

    return undo
