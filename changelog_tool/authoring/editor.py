"""The description in ``$VISUAL``, ``$EDITOR`` or ``vi``, one bullet per line (blank and ``#``
lines dropped, as git does); :meth:`Editing.stop` ends it from another thread on a signal."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
import threading
from collections.abc import Mapping
from pathlib import Path

from changelog_tool.errors import ChangelogError

STOP_SECONDS = 3.0  # how long a stopped editor has to end on SIGTERM before it is killed
HELP = """\
# The description of the changelog entry: one bullet per line.
# Lines starting with '#' and empty lines are ignored; save and quit to use it.
"""


class EditorFailed(ChangelogError):
    """The editor could not be run, or ended with an error: the description is kept."""


def editor_command(env: Mapping[str, str]) -> list[str]:
    """The editor to run, as arguments (``$VISUAL`` may be ``code --wait``)."""
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            return shlex.split(value)
    return ["vi"]


class Editing:
    """One run of the editor, which another thread may stop (:meth:`stop`)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
        self.stopped = False

    def started(self, process: subprocess.Popen[bytes]) -> None:
        with self._lock:
            self._process = process
            if self.stopped:
                process.terminate()

    def stop(self) -> None:
        """End the editor (SIGTERM; SIGKILL if it still runs :data:`STOP_SECONDS` later)."""
        with self._lock:
            self.stopped = True
            process = self._process
        if process is None or process.poll() is not None:
            return
        process.terminate()
        timer = threading.Timer(STOP_SECONDS, process.kill)  # a no-op once it has ended
        timer.daemon = True
        timer.start()


def edit_description(
    lines: list[str], env: Mapping[str, str] | None = None, editing: Editing | None = None
) -> list[str]:
    """Run the editor on ``lines`` and return what it leaves; :class:`EditorFailed` when it is
    missing, fails or was stopped (``editing``: the run to stop)."""
    env = os.environ if env is None else env
    editing = editing or Editing()
    command = editor_command(env)
    handle, name = tempfile.mkstemp(prefix="perf-changelog-description-", suffix=".txt")
    path = Path(name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("".join(f"{line}\n" for line in lines if line.strip()) + "\n" + HELP)
        try:
            process = subprocess.Popen([*command, str(path)], env=dict(env))
        except OSError as exc:
            raise EditorFailed(
                f"could not run the editor {command[0]!r} ({exc.strerror or exc}); set "
                "$VISUAL or $EDITOR to an editor that is installed. The description is "
                "unchanged"
            ) from None
        editing.started(process)
        code = process.wait()
        if editing.stopped:
            raise EditorFailed("the editor was stopped; the description is unchanged")
        if code != 0:
            raise EditorFailed(
                f"the editor {shlex.join(command)!r} exited with code {code}; "
                "the description is unchanged"
            )
        text = path.read_text(encoding="utf-8", errors="replace")
        edited = [line.strip() for line in text.splitlines()]
        return [line for line in edited if line and not line.startswith("#")]
    finally:
        path.unlink(missing_ok=True)
