"""How a `changelog` process ends (:func:`changelog_tool.cli.ended`): with the command's
exit code and its output flushed; output that cannot be written is an error the exit
code says (never a success), said in one line, never a traceback; ctrl+c is 130 and
one line, wherever it lands, even while the output waits for a reader that stopped
reading."""

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


def command_process(script: str, code: int, **popen: object) -> subprocess.Popen[bytes]:
    """A ``changelog`` process (:func:`cli.entry_point`) whose command runs ``script``
    and returns ``code``."""
    body = "".join(f"    {line}\n" for line in script.splitlines())
    source = (
        "import os, sys\n"
        "from changelog_tool import cli\n"
        f"def command():\n{body}    return {code}\n"
        "cli.main = command\n"
        "cli.entry_point()\n"
    )
    popen.setdefault("stdout", subprocess.PIPE)
    return subprocess.Popen(
        [sys.executable, "-c", source],
        env=BUFFERED,
        stderr=subprocess.PIPE,
        preexec_fn=ctrl_c_delivered,
        **popen,  # type: ignore[call-overload]
    )


def command_ends(script: str, code: int, **popen: object) -> tuple[int, bytes, bytes]:
    """The exit code, stdout and stderr of :func:`command_process`."""
    process = command_process(script, code, **popen)
    out, err = process.communicate(timeout=30)
    return process.returncode, out or b"", err


def ctrl_c_delivered() -> None:
    """In the child, before it starts: SIGINT at its default, as in a terminal. A test
    run started in the background by a shell without job control inherits SIGINT
    ignored, and Python then installs no handler for it (the child would never see
    the ctrl+c under test)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_buffered_output_arrives_with_the_commands_code() -> None:
    done = command_ends("sys.stdout.write('buffered, not yet written')", 3)
    assert done == (3, b"buffered, not yet written", b"")


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="a device that is always full")
@pytest.mark.parametrize("code", [0, 1, 3])
def test_buffered_output_that_cannot_be_written_is_said_and_never_a_success(code: int) -> None:
    with open("/dev/full", "w") as full:
        got, _, err = command_ends("sys.stdout.write('x' * 100)", code, stdout=full)
    assert got == max(code, 2)
    assert err.startswith(b"changelog: cannot complete: no space left on the device")
    assert err.count(b"\n") == 1


@pytest.mark.parametrize("code", [0, 3])
def test_buffered_output_to_a_closed_pipe_ends_with_1_or_the_commands_code(code: int) -> None:
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        got, _, err = command_ends("sys.stdout.write('x' * 100)", code, stdout=write_end)
    finally:
        os.close(write_end)
    assert got == max(code, 1) and err == b""


@pytest.mark.parametrize("closed", ["stdout", "stderr"])
def test_a_stream_closed_from_the_start_is_skipped(closed: str) -> None:
    """A descriptor closed before the process started: Python's stream is None."""
    got, _, err = command_ends(f"sys.{closed} = None", 3)
    assert got == 3
    assert b"Traceback" not in err


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
    process = command_process(FILL_THE_PIPE + "os.write(2, b'ready\\n')", 0)
    assert process.stderr is not None
    assert process.stderr.readline() == b"ready\n"
    deadline = time.monotonic() + 30
    while not blocked_writing(process.pid):  # the state under test: inside the final flush
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.005)
    assert interrupted(process) == (130, b"changelog: interrupted\n")


@pytest.mark.parametrize("delay", [0.0, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05])
def test_ctrl_c_at_any_moment_of_a_run_is_one_line_and_130_never_a_hang(delay: float) -> None:
    """Wherever the signal lands (in the command's work, while it fills the pipe, in
    the final flush), the run ends with 130 and one line, and never waits on the full
    pipe."""
    script = (
        "os.write(2, b'ready\\n')\n"
        "for _ in range(2000):\n"  # the command's work, then its end
        "    sorted(range(100))\n" + FILL_THE_PIPE
    )
    process = command_process(script, 0)
    assert process.stderr is not None
    assert process.stderr.readline() == b"ready\n"
    time.sleep(delay)  # only where the signal lands: every moment has the same outcome
    assert interrupted(process) == (130, b"changelog: interrupted\n")


def test_an_interrupt_the_command_does_not_catch_is_one_line_and_130() -> None:
    """A KeyboardInterrupt outside the command's own error boundary (raised here where
    the signal could have landed) is no traceback, and the full pipe is not waited on."""
    process = command_process(FILL_THE_PIPE + "raise KeyboardInterrupt", 0)
    assert ended(process) == (130, b"changelog: interrupted\n")


def test_an_interrupted_run_drops_its_buffered_output() -> None:
    assert command_ends("sys.stdout.write('cut short')", 130) == (130, b"", b"")
