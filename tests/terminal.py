"""A real terminal for the tests that drive the installed `changelog` (tmux): start a
command in an 80x24 window, read the screen, and learn the command's exit code and pid
(shared by test_terminal_tmux.py and test_terminal_signals.py; no tests here)."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

CHANGELOG = Path(sys.executable).parent / "changelog"

needs_tmux = pytest.mark.skipif(
    shutil.which("tmux") is None or not CHANGELOG.exists(),
    reason="needs tmux and the installed `changelog` script",
)


class Terminal:
    """One tmux server whose socket lives in ``folder`` (the test's ``tmp_path``, as
    ``TMUX_TMPDIR``): nothing is left in tmux's default socket folder."""

    def __init__(self, folder: Path, socket: str = "t") -> None:
        self.folder = folder
        self.socket = socket

    def tmux(self, *args: str, check: bool = True) -> str:
        return subprocess.run(
            ["tmux", "-L", self.socket, "-f", "/dev/null", *args],
            capture_output=True,
            text=True,
            env={**os.environ, "TMUX_TMPDIR": str(self.folder)},
            check=check,
        ).stdout

    @property
    def socket_path(self) -> Path:
        """Where tmux puts the server's socket (``$TMUX_TMPDIR/tmux-UID/LABEL``)."""
        return self.folder / f"tmux-{os.getuid()}" / self.socket

    def screen(self, joined: bool = False) -> str:
        """The window's text; ``joined``: lines the terminal wrapped as one line."""
        return self.tmux("capture-pane", "-p", *(["-J"] if joined else []), "-t", "t")

    def modes(self) -> dict[str, str]:
        """The terminal modes an app may leave behind: alternate screen, mouse reporting,
        cursor shown ("1" on, "0" off)."""
        names = ["alternate_on", "mouse_any_flag", "mouse_sgr_flag", "cursor_flag"]
        shown = self.tmux("display", "-p", "-t", "t", " ".join(f"#{{{n}}}" for n in names))
        return dict(zip(names, shown.split(), strict=True))

    def wait_for(self, text: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            screen = self.screen()
            if text in screen:
                return screen
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared; the screen was:\n{self.screen()}")

    def close(self) -> None:
        self.tmux("kill-server", check=False)
        self.socket_path.unlink(missing_ok=True)


def open_terminal(tmp_path: Path) -> Iterator[Terminal]:
    """The body of a ``terminal`` fixture: one tmux server per test, its socket in the
    test's own folder, killed (and the socket removed) after it."""
    term = Terminal(tmp_path)
    yield term
    term.close()


def launch(
    terminal: Terminal,
    args: str,
    cwd: Path,
    done: Path,
    pid: Path | None = None,
    env: dict[str, str] | None = None,
) -> None:
    """Run ``changelog ARGS`` in an 80x24 tmux window; its exit code goes to ``done`` and,
    with ``pid``, its process id to that file (the shell writes ``$$`` and ``exec``s it);
    ``env`` adds environment variables."""
    run = f"{CHANGELOG} {args}"
    if env:
        run = shlex.join(["env", *(f"{k}={v}" for k, v in env.items())]) + " " + run
    if pid is not None:
        run = "sh -c " + shlex.quote(f"echo $$ > {shlex.quote(str(pid))}; exec {run}")
    command = f"{run}; echo $? > {shlex.quote(str(done))}; sleep 60"
    terminal.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "-c", str(cwd), command)


BOX = "│┃╭╮╰╯┏┓┗┛─━ "
MESSAGE_MARKS = ("✗", "✓", "⚠")


def assert_messages_whole(screen: str, *expected: str) -> None:
    """No message on ``screen`` is cut off: each ``expected`` text is there whole (when
    wrapped, over consecutive lines), and no message line ends in an ellipsis."""
    lines = [line.strip(BOX) for line in screen.splitlines()]
    flowing = " ".join(" ".join(lines).split())
    for text in expected:
        assert " ".join(text.split()) in flowing, f"{text!r} is not whole on:\n{screen}"
    for line in lines:
        if line.startswith(MESSAGE_MARKS):
            assert not line.endswith(("…", "...")), f"cut off: {line!r}\n{screen}"


def exit_code(terminal: Terminal, done: Path, timeout: float = 30) -> str:
    """The command's exit status, once the shell has written it: the redirection
    creates the file before the status is in it, so an empty file is not yet done."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = done.read_text().strip() if done.exists() else ""
        if text:
            return text
        time.sleep(0.1)
    raise AssertionError(terminal.screen())


def process_id(pid: Path, timeout: float = 10) -> int:
    """The launched command's pid, once the shell has written it."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = pid.read_text().strip() if pid.exists() else ""
        if text:
            return int(text)
        time.sleep(0.05)
    raise AssertionError("the launched command never wrote its pid")


def alive(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")
