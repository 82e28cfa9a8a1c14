"""ctrl+e in a real terminal (tmux): while $EDITOR runs, a SIGTERM to `changelog add`
ends the editor and the tool within the documented backstop, keeping the typed answers
as the draft."""

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
from changelog_tool.tui.leaving import BACKSTOP_SECONDS

pytestmark = needs_tmux

TYPED = "typed before the editor"


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    yield from open_terminal(tmp_path)


def test_sigterm_while_the_editor_runs_ends_both_and_keeps_the_draft(
    terminal: Terminal, tmp_path: Path
) -> None:
    """Before the fix the editor ran on the app's loop: the signal's handler waited for
    the editor (here, ten minutes), and the backstop never started."""
    box = sandbox.build(tmp_path / "demo")
    before = box.changelog.read_bytes()
    editor_pid = tmp_path / "editor-pid"
    script = tmp_path / "editor.sh"
    script.write_text(f'echo $$ > "{editor_pid}"\nexec sleep 600\n')
    done = tmp_path / "exit-code"
    launch(
        terminal,
        "add",
        box.root,
        done,
        pid=tmp_path / "pid",
        env={"VISUAL": "", "EDITOR": f"sh {script}"},
    )
    terminal.wait_for("Changed keys since")
    terminal.tmux("send-keys", "-t", "t", "-l", TYPED)
    terminal.wait_for(TYPED)
    pid = process_id(tmp_path / "pid")
    terminal.tmux("send-keys", "-t", "t", "C-e")
    editor = process_id(editor_pid)
    assert alive(editor)
    sent = time.monotonic()
    os.kill(pid, signal.SIGTERM)
    assert exit_code(terminal, done, timeout=BACKSTOP_SECONDS + 5) == "143"
    assert time.monotonic() - sent < BACKSTOP_SECONDS + 5
    assert not alive(editor)
    screen = terminal.screen(joined=True)
    assert "changelog: terminated: nothing was written to" in screen
    assert "your answers are kept" in screen and "Traceback" not in screen
    assert box.changelog.read_bytes() == before
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0].description == [TYPED]
