"""How a `changelog` process ends (:func:`changelog_tool.finish`): with the command's
exit code, its output flushed and what registered itself to run at exit run, but
without the interpreter's teardown; output that cannot be written is an error the
exit code says (never a success), said in one line, never a traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import GitRepo

BUFFERED = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
"""The environment, with stdout buffered as it is for a user (some set it unbuffered)."""

COMMANDS = {
    "console script": [str(Path(sys.executable).with_name("changelog"))],
    "python -m": [sys.executable, "-m", "changelog_tool"],
}


def verify(
    repo: GitRepo, how: str, *args: str, **popen: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMANDS[how], "verify", "--base", "main", *args],
        cwd=repo.root,
        env=BUFFERED,
        text=True,
        stderr=subprocess.PIPE,
        check=False,
        **popen,  # type: ignore[call-overload]
    )


@pytest.mark.parametrize("how", COMMANDS)
def test_the_whole_output_arrives_with_the_commands_exit_code(project: GitRepo, how: str) -> None:
    done = verify(project, how, "--format", "json", stdout=subprocess.PIPE)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("{") and done.stdout.rstrip().endswith("}")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="a device that is always full")
@pytest.mark.parametrize("how", COMMANDS)
@pytest.mark.parametrize("fmt", ["text", "json"])
def test_output_that_cannot_be_written_is_an_error_said_in_one_line(
    project: GitRepo, how: str, fmt: str
) -> None:
    with open("/dev/full", "w") as full:
        done = verify(project, how, "--format", fmt, stdout=full)
    assert done.returncode == 2
    assert done.stderr.startswith("changelog: cannot complete: no space left on the device")
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("how", COMMANDS)
def test_a_closed_pipe_ends_the_run_with_1_and_no_noise(project: GitRepo, how: str) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written
    try:
        done = verify(project, how, stdout=write_end)
    finally:
        os.close(write_end)
    assert done.returncode == 1
    assert done.stderr == ""


def finish_with(script: str, **popen: object) -> subprocess.CompletedProcess[str]:
    """A process that writes ``script``'s output and ends with ``finish``."""
    code = "import atexit, os, sys\nfrom changelog_tool import finish\n" + script
    popen.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-c", code],
        env=BUFFERED,
        stderr=subprocess.PIPE,
        text=True,
        check=False,
        **popen,  # type: ignore[call-overload]
    )


def test_what_registered_to_run_at_exit_still_runs_and_the_output_is_flushed(
    tmp_path: Path,
) -> None:
    mark = tmp_path / "ran"
    done = finish_with(
        f"atexit.register(lambda: open({str(mark)!r}, 'w').write('yes'))\n"
        "sys.stdout.write('buffered, not yet written')\n"
        "finish(3)\n"
    )
    assert done.returncode == 3 and done.stderr == ""
    assert done.stdout == "buffered, not yet written"
    assert mark.read_text() == "yes"


def test_the_interpreter_is_not_torn_down() -> None:
    """What makes it fast: objects still alive are not freed one by one at the end."""
    done = finish_with(
        "class Kept:\n"
        "    def __del__(self):\n"
        "        os.write(2, b'freed at teardown')\n"
        "kept = Kept()\n"
        "finish(0)\n"
    )
    assert done.returncode == 0 and done.stderr == ""


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="a device that is always full")
@pytest.mark.parametrize("code", [0, 1, 3])
def test_buffered_output_that_cannot_be_written_is_said_and_never_a_success(code: int) -> None:
    with open("/dev/full", "w") as full:
        done = finish_with(f"sys.stdout.write('x' * 100)\nfinish({code})\n", stdout=full)
    assert done.returncode == max(code, 2)
    assert done.stderr.startswith("changelog: cannot complete: no space left on the device")
    assert done.stderr.count("\n") == 1


@pytest.mark.parametrize("code", [0, 3])
def test_buffered_output_to_a_closed_pipe_ends_with_1_or_the_commands_code(code: int) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = finish_with(f"sys.stdout.write('x' * 100)\nfinish({code})\n", stdout=write_end)
    finally:
        os.close(write_end)
    assert done.returncode == max(code, 1) and done.stderr == ""


@pytest.mark.parametrize("closed", ["stdout", "stderr"])
def test_a_stream_closed_from_the_start_is_skipped(closed: str) -> None:
    """A descriptor closed before the process started: Python's stream is None."""
    done = finish_with(f"sys.{closed} = None\nfinish(3)\n")
    assert done.returncode == 3
    assert "Traceback" not in done.stderr


def test_the_version_with_stdout_closed_is_no_traceback() -> None:
    done = subprocess.run(
        [*COMMANDS["python -m"], "--version"],
        env=BUFFERED,
        capture_output=True,
        text=True,
        check=False,
        preexec_fn=lambda: os.close(1),  # in the child, before it starts
    )
    # (argparse writes the version to stderr when there is no stdout)
    assert done.returncode == 0 and "Traceback" not in done.stderr


FILL_THE_PIPE = (
    "import fcntl\n"
    "flags = fcntl.fcntl(1, fcntl.F_GETFL)\n"
    "fcntl.fcntl(1, fcntl.F_SETFL, flags | os.O_NONBLOCK)\n"
    "try:\n"
    "    while True:\n"
    "        os.write(1, b'x' * 4096)\n"
    "except BlockingIOError:\n"
    "    pass\n"
    "fcntl.fcntl(1, fcntl.F_SETFL, flags)\n"
    "sys.stdout.write('waits in the buffer')\n"
)
"""Fill stdout's pipe (its reader never reads), then leave text in Python's buffer: the
final flush waits for ever unless something ends it."""


def started(script: str) -> subprocess.Popen[bytes]:
    """A process set up as a ``changelog`` process is, running ``script`` (which says
    ``ready`` on stderr when it should be interrupted)."""
    code = (
        "import atexit, os, sys\n"
        "from changelog_tool import batch_process, finish\n"
        "batch_process()\n" + script
    )
    return subprocess.Popen(
        [sys.executable, "-c", code],
        env=BUFFERED,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=ctrl_c_delivered,
    )


def ctrl_c_delivered() -> None:
    """In the child, before it starts: SIGINT at its default, as in a terminal. A test
    run started in the background by a shell without job control inherits SIGINT
    ignored, and Python then installs no handler for it (the child would never see
    the ctrl+c under test)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(process: subprocess.Popen[bytes]) -> tuple[int, bytes]:
    """SIGINT now, then :func:`ended`."""
    process.send_signal(signal.SIGINT)
    return ended(process)


def ended(process: subprocess.Popen[bytes]) -> tuple[int, bytes]:
    """The exit code and everything said on stderr, within 10 s (which an interrupted
    run takes a few milliseconds of)."""
    assert process.stdout is not None and process.stderr is not None
    try:
        code = process.wait(timeout=10)
    finally:
        process.kill()
        process.stdout.close()
    return code, process.stderr.read()


def blocked_writing(pid: int) -> bool:
    """Whether process ``pid`` sleeps in a write to a pipe (Linux's ``wchan``)."""
    try:
        return "pipe_write" in Path(f"/proc/{pid}/wchan").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/wchan").exists(), reason="needs /proc/<pid>/wchan")
def test_ctrl_c_while_the_output_waits_for_its_reader_is_one_line_and_130() -> None:
    """A reader that stopped reading (a pager left open): the last flush waits, and a
    ctrl+c ends it as an interrupted command, never with a traceback."""
    process = started(FILL_THE_PIPE + "os.write(2, b'ready\\n')\nfinish(0)\n")
    assert process.stderr is not None
    assert process.stderr.readline() == b"ready\n"
    deadline = time.monotonic() + 30
    while not blocked_writing(process.pid):  # the state under test: inside the final flush
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    assert interrupted(process) == (130, b"changelog: interrupted\n")


@pytest.mark.parametrize("delay", [0.0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05])
def test_ctrl_c_at_any_moment_of_a_run_is_one_line_and_130_never_a_hang(delay: float) -> None:
    """Wherever the signal lands (in the command, between its end and ``finish``, in
    ``finish`` before its handler, in the final flush), the run ends with 130 and one
    line, and never waits on the full pipe."""
    script = (
        "os.write(2, b'ready\\n')\n"
        "for _ in range(2000):\n"  # the command's work, then its end
        "    sorted(range(100))\n" + FILL_THE_PIPE + "finish(0)\n"
    )
    process = started(script)
    assert process.stderr is not None
    assert process.stderr.readline() == b"ready\n"
    time.sleep(delay)  # only where the signal lands: every moment has the same outcome
    assert interrupted(process) == (130, b"changelog: interrupted\n")


def test_an_interrupt_that_escapes_every_handler_is_one_line_and_130() -> None:
    """The window the flaky test hit: a KeyboardInterrupt outside ``finish``'s handler
    (here raised where the signal could have landed) would have ended in a traceback
    and a teardown that flushed into the full pipe for ever."""
    process = started(FILL_THE_PIPE + "raise KeyboardInterrupt\n")
    assert ended(process) == (130, b"changelog: interrupted\n")


def test_a_ctrl_c_swallowed_on_the_way_still_ends_the_run_and_never_a_hang() -> None:
    """Python raises KeyboardInterrupt where its main thread checks for signals, and
    some places swallow it ("Exception ignored in" a weakref callback, say): the run
    still ends as interrupted, where the final flush used to wait for ever."""
    swallowed = (
        "import signal\n"
        "try:\n"
        "    os.kill(os.getpid(), signal.SIGINT)\n"
        "    sorted(range(100))\n"
        "except KeyboardInterrupt:\n"
        "    pass\n"
    )
    process = started(FILL_THE_PIPE + swallowed + "finish(0)\n")
    assert ended(process) == (130, b"changelog: interrupted\n")


def test_an_interrupted_run_drops_its_buffered_output() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys\nfrom changelog_tool import finish\n"
            "sys.stdout.write('cut short')\nfinish(130)\n",
        ],
        env=BUFFERED,
        capture_output=True,
        text=True,
        check=False,
    )
    assert (done.returncode, done.stdout, done.stderr) == (130, "", "")
