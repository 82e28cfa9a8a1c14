"""Every command finishes within bounded CPU time on each 1 MB hostile input of
``hostile_inputs.py``, committed on a branch of a real repository: the command runs
as the installed tool does, in a child the kernel ends past :data:`LIMIT` seconds of
CPU (a hard limit, interpreter start included). ``benchmarks/bench_hostile.py`` times the same runs and
reports the slowest."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest
from conftest import HOSTILE_CPU_SECONDS, cpu_limit, run_within_cpu
from hostile_inputs import COMMANDS, INPUTS
from projects import make_project

LIMIT = HOSTILE_CPU_SECONDS
BACKSTOP = 30.0
"""Seconds of wall clock after which a child that waits on something is killed."""


def cases() -> list[object]:
    return [
        pytest.param(name, command, id=f"{name}: {command}")
        for name in INPUTS
        for command in COMMANDS
    ]


@pytest.mark.parametrize(("name", "command"), cases())
def test_every_command_on_a_1_mb_hostile_input_finishes_in_2_seconds(
    repo, name: str, command: str
) -> None:
    make_project(repo)
    repo.commit(name, **INPUTS[name])
    done = run_within_cpu(repo.root, *COMMANDS[command], seconds=LIMIT, timeout=BACKSTOP)
    assert done.returncode in (0, 1), done.stderr.decode("utf-8", "replace")[-2000:]
    assert b"Traceback" not in done.stderr and b"internal error" not in done.stderr


def test_the_limit_ends_a_child_that_spends_more() -> None:
    """The check can fail: a child that spins is ended by the kernel at the limit."""
    done = subprocess.run(
        [sys.executable, "-c", "while True: pass"],
        timeout=BACKSTOP,
        preexec_fn=cpu_limit(1),
        check=False,
    )
    assert done.returncode == -signal.SIGXCPU
