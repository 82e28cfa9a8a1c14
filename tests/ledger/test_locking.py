"""The writer's folder lock (`writer.hold`): held across a command's read and write, its
own writes go on, another process waits, and a process it starts (git's merge driver)
writes in that folder without waiting on its ancestor."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from changelog_tool.ledger import writer
from changelog_tool.ledger.writer import HELD_VARIABLE

QUICK = writer.Bounds(timeout=2.0)


def child(file: Path, data: str, env: dict[str, str]) -> subprocess.Popen[str]:
    code = (
        "import sys; from pathlib import Path; from changelog_tool.ledger import writer; "
        f"writer.replace(Path({str(file)!r}), {data!r}.encode(), bounds=writer.Bounds(timeout=30))"
    )
    return subprocess.Popen(
        [sys.executable, "-c", code], stderr=subprocess.PIPE, text=True, env=env
    )


def test_writes_inside_a_hold_go_on_and_the_hold_ends_with_the_block(tmp_path: Path) -> None:
    file = tmp_path / "log.yaml"
    file.write_bytes(b"old\n")
    with writer.hold(file, QUICK):
        writer.replace(file, b"new\n", expected=b"old\n", bounds=QUICK)
        assert os.environ[HELD_VARIABLE]
    assert file.read_bytes() == b"new\n"
    assert HELD_VARIABLE not in os.environ


def test_another_process_waits_for_the_hold_then_writes(tmp_path: Path) -> None:
    file = tmp_path / "log.yaml"
    file.write_bytes(b"old\n")
    outside = {k: v for k, v in os.environ.items() if k != HELD_VARIABLE}
    with writer.hold(file, QUICK):
        other = child(file, "theirs\n", outside)
        assert other.stderr is not None
        assert "waiting for another process writing" in other.stderr.readline()
        writer.replace(file, b"ours\n", expected=b"old\n", bounds=QUICK)
    assert other.wait(timeout=60) == 0
    assert file.read_bytes() == b"theirs\n"  # after ours: it waited for the hold


def test_a_process_started_inside_the_hold_writes_in_its_folder_at_once(tmp_path: Path) -> None:
    file = tmp_path / "log.yaml"
    file.write_bytes(b"old\n")
    scratch = tmp_path / ".merge_file_abc"
    scratch.write_bytes(b"")
    with writer.hold(file, QUICK):
        inside = child(scratch, "merged\n", dict(os.environ))
        assert inside.wait(timeout=60) == 0, inside.stderr.read() if inside.stderr else ""
        assert scratch.read_bytes() == b"merged\n"  # while the hold is still held
