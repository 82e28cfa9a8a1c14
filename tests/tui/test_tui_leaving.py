"""Signals in the add screen, below the real terminal: a real SIGTERM / SIGINT sent to
this process while a Pilot drives the app ends it the way leaving does (draft kept,
128 + the number) and puts the previous handlers back; a closed terminal is swapped for
/dev/null; the backstop ends a process whose shutdown is stuck."""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from tui_helpers import SIZE, app_for, build, settle, synchronous

from changelog_tool.authoring import drafts
from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.tui.screens import ConfirmLeave


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


def handlers() -> list[object]:
    return [signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)]


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
@synchronous
async def test_a_real_signal_in_the_leave_question_keeps_the_draft(
    box: Sandbox, signum: int, code: int
) -> None:
    assert threading.current_thread() is threading.main_thread()  # where signals arrive
    before, outside = box.changelog.read_bytes(), handlers()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert handlers() != outside  # routed to the app while it runs
        await pilot.press(*"half a thought", "escape")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmLeave)
        os.kill(os.getpid(), signum)
        for _ in range(100):
            if not app.is_running:
                break
            await pilot.pause(0.05)
        assert not app.is_running
    assert app.return_value is not None and app.return_value.code == code
    assert "your answers are kept" in app.return_value.message
    assert box.changelog.read_bytes() == before
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0].description == ["half a thought"]
    assert handlers() == outside


@pytest.mark.parametrize("how", ["SIGTERM", "ctrl+c"])
@synchronous
async def test_a_draft_that_cannot_be_kept_still_lets_the_app_end(box: Sandbox, how: str) -> None:
    drafts.location(box.changelog).mkdir()  # the draft file's place is taken: saving fails
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"half a thought")
        if how == "SIGTERM":
            os.kill(os.getpid(), signal.SIGTERM)
        else:
            await pilot.press("ctrl+c", "ctrl+c")
        for _ in range(100):
            if not app.is_running:
                break
            await pilot.pause(0.05)
        assert not app.is_running
    assert app.return_value is not None
    assert app.return_value.code == (143 if how == "SIGTERM" else 130)
    assert "your answers could not be kept" in app.return_value.message


@synchronous
async def test_a_signal_after_the_answer_is_given_changes_nothing(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape")  # untouched: leaves at once with exit code 1
        app.signalled(signal.SIGTERM)  # what the handler calls, arriving during shutdown
    assert app.return_value is not None and app.return_value.code == 1


PROBE = """
import os, sys, time
from changelog_tool.tui.leaving import detach_if_hung_up
print("ready", flush=True)
while not os.path.exists(sys.argv[1]):
    time.sleep(0.02)
gone = detach_if_hung_up()
print("still writing", flush=True)  # fails with EIO on a closed terminal, not on /dev/null
sys.stderr.write("and stderr\\n")
sys.stderr.flush()
open(sys.argv[2], "w").write(str(gone))
"""


@pytest.mark.parametrize("closed", [True, False])
def test_a_closed_terminal_is_swapped_for_dev_null_and_a_live_one_kept(
    tmp_path: Path, closed: bool
) -> None:
    go, result = tmp_path / "go", tmp_path / "result"
    master, slave = pty.openpty()
    child = subprocess.Popen(
        [sys.executable, "-c", PROBE, str(go), str(result)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        start_new_session=True,
    )
    os.close(slave)
    try:
        seen = b""
        while b"ready\n" not in seen.replace(b"\r", b""):  # the whole line: its write is over
            seen += os.read(master, 100)
        if closed:
            os.close(master)  # the terminal goes away: the pty is hung up
        go.touch()
        assert child.wait(timeout=30) == 0
        assert result.read_text() == str(closed)
        if not closed:
            time.sleep(0.2)
            assert b"still writing" in os.read(master, 1000)
    finally:
        if not closed:
            os.close(master)
        if child.poll() is None:
            child.kill()


def test_the_backstop_ends_a_stuck_process_with_the_signals_code() -> None:
    script = (
        "import time\n"
        "from changelog_tool.tui.leaving import backstop\n"
        "backstop(143, 0.3)\n"
        "time.sleep(60)\n"
    )
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", script], check=False, timeout=30)
    assert done.returncode == 143 and time.monotonic() - started < 20
