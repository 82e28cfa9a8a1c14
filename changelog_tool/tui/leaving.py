"""How a run of the add screen ends without saving: exit code and message, the draft kept or
dropped, and the signals that end it the same way (SIGINT 130, SIGTERM 143, SIGHUP 129)."""

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
BACKSTOP_SECONDS = 10.0  # after a signal, the longest the shutdown may take

# The signals that end the run keeping the draft, and the word the message starts with.
SIGNALS: dict[signal.Signals, str] = {
    signal.SIGINT: "interrupted",
    signal.SIGTERM: "terminated",
    signal.SIGHUP: "hung up",
}

Handler = Callable[[int, FrameType | None], object] | int  # what signal.signal takes


@dataclass(frozen=True)
class Outcome:
    code: int
    message: str


def leave(path: Path, draft: Draft, baseline: Draft, signum: int | None = None) -> Outcome:
    """Leave without writing ``path``: keep ``draft`` if it has typed text, else drop an emptied
    one. Ended by signal ``signum`` (ctrl+c is SIGINT), the code is 128 + it. Never fails."""
    code = LEFT_CODE if signum is None else 128 + signum
    nothing = "" if signum is None else f"{SIGNALS[signal.Signals(signum)]}: "
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
    """Keep ``draft`` for ``path``; what to tell when it could not be."""
    try:
        drafts.save(path, draft)
    except (ChangelogError, OSError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        return f"The draft could not be kept either ({reason}); the answers stay on screen."
    return ""


def detach_if_hung_up() -> bool:
    """When the terminal is gone (EIO), point stdin, stdout and stderr at /dev/null and say so."""
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


def backstop(code: int, seconds: float = BACKSTOP_SECONDS) -> None:
    """End the process with ``code`` if it still runs ``seconds`` from now (a daemon timer)."""
    timer = threading.Timer(seconds, os._exit, (code,))
    timer.daemon = True
    timer.start()


def route_signals(react: Callable[[int], None]) -> Callable[[], None]:
    """Call ``react(signum)`` on the running loop for each of :data:`SIGNALS`, detaching from a
    dead terminal first; returns the restorer. Only on the main thread."""
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
