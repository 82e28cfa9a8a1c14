"""The installed `changelog add` in a real terminal (tmux) ended by a signal from outside
(``kill``, not a key): SIGINT, SIGTERM and SIGHUP keep the typed answers as the draft the
next `changelog add` offers, write nothing, restore the terminal without a traceback, and
exit 128 + the signal's number; closing the terminal keeps the draft too."""

from __future__ import annotations

import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from terminal import Terminal, alive, exit_code, launch, needs_tmux, open_terminal, process_id

from changelog_tool.authoring import drafts
from changelog_tool.demo import sandbox
from changelog_tool.tui import leaving

pytestmark = needs_tmux

TYPED = "half a thought"
APP_MODES = {"alternate_on": "1", "mouse_any_flag": "1", "mouse_sgr_flag": "1", "cursor_flag": "0"}
SHELL_MODES = {
    "alternate_on": "0",
    "mouse_any_flag": "0",
    "mouse_sgr_flag": "0",
    "cursor_flag": "1",
}


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    yield from open_terminal(tmp_path)


def start_and_type(terminal: Terminal, tmp_path: Path, text: str) -> tuple[sandbox.Sandbox, int]:
    """`changelog add` on a demo repository, the keys on screen, ``text`` typed into the
    description; returns the sandbox and the pid of the `changelog` process."""
    box = sandbox.build(tmp_path / "demo")
    launch(terminal, "add", box.root, tmp_path / "exit-code", pid=tmp_path / "pid")
    terminal.wait_for("Changed keys since")  # the keys are loaded; the description has focus
    if text:
        terminal.tmux("send-keys", "-t", "t", "-l", text)
        terminal.wait_for(text)
    return box, process_id(tmp_path / "pid")


@pytest.mark.parametrize(
    ("signum", "code", "how"),
    [
        (signal.SIGINT, "130", "interrupted"),
        (signal.SIGTERM, "143", "terminated"),
        (signal.SIGHUP, "129", "hung up"),
    ],
)
def test_a_signal_after_typing_keeps_the_draft_and_exits_128_plus_its_number(
    terminal: Terminal, tmp_path: Path, signum: int, code: str, how: str
) -> None:
    before = sandbox.build(tmp_path / "pristine").changelog.read_bytes()
    box, pid = start_and_type(terminal, tmp_path, TYPED)
    assert box.changelog.read_bytes() == before
    assert terminal.modes() == APP_MODES
    os.kill(pid, signum)
    assert exit_code(terminal, tmp_path / "exit-code") == code
    screen = terminal.screen(joined=True)
    assert f"changelog: {how}: nothing was written to" in screen
    assert "your answers are kept" in screen
    assert "Traceback" not in screen and "Changed keys since" not in screen
    assert terminal.modes() == SHELL_MODES  # Textual's shutdown restored the terminal
    assert box.changelog.read_bytes() == before
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0].description == [TYPED]


def test_the_next_add_offers_the_answers_kept_at_a_sigint(
    terminal: Terminal, tmp_path: Path
) -> None:
    box, pid = start_and_type(terminal, tmp_path, TYPED)
    os.kill(pid, signal.SIGINT)
    assert exit_code(terminal, tmp_path / "exit-code") == "130"
    terminal.tmux("kill-session", "-t", "t")
    launch(terminal, "add", box.root, tmp_path / "again")
    terminal.wait_for("Restored your unsaved answers")  # the note, in the status line
    terminal.wait_for(TYPED)


def test_a_sigint_in_an_untouched_screen_exits_130_and_keeps_no_draft(
    terminal: Terminal, tmp_path: Path
) -> None:
    box, pid = start_and_type(terminal, tmp_path, "")
    before = box.changelog.read_bytes()
    os.kill(pid, signal.SIGINT)
    assert exit_code(terminal, tmp_path / "exit-code") == "130"
    screen = terminal.screen(joined=True)
    assert "changelog: interrupted: nothing was written to" in screen
    assert "Traceback" not in screen and terminal.modes() == SHELL_MODES
    assert box.changelog.read_bytes() == before and drafts.load(box.changelog) is None


def test_a_sigterm_while_the_leave_question_is_open_keeps_the_draft(
    terminal: Terminal, tmp_path: Path
) -> None:
    box, pid = start_and_type(terminal, tmp_path, TYPED)
    before = box.changelog.read_bytes()
    terminal.tmux("send-keys", "-t", "t", "Escape")
    terminal.wait_for("Leave without saving?")
    os.kill(pid, signal.SIGTERM)
    assert exit_code(terminal, tmp_path / "exit-code") == "143"
    assert "Traceback" not in terminal.screen() and terminal.modes() == SHELL_MODES
    assert box.changelog.read_bytes() == before
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0].description == [TYPED]


def test_closing_the_terminal_keeps_the_draft_and_ends_the_process(
    terminal: Terminal, tmp_path: Path
) -> None:
    box, pid = start_and_type(terminal, tmp_path, TYPED)
    before = box.changelog.read_bytes()
    terminal.tmux("kill-session", "-t", "t")  # the pane's processes get SIGHUP
    # ended by the shutdown itself, not by the backstop that would end it later
    deadline = time.monotonic() + leaving.BACKSTOP_SECONDS - 2
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not alive(pid), "`changelog add` outlived its terminal"
    assert box.changelog.read_bytes() == before
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0].description == [TYPED]
