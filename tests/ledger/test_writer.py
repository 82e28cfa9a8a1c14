from __future__ import annotations

import fcntl
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from projects import with_file_size_limit

from changelog_tool.errors import ChangelogError, ConcurrentChange, UsageError
from changelog_tool.ledger import writer
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.ledger.writer import TEMP_SUFFIX
from changelog_tool.yaml.strict import load_value

OLD = (
    '- config-keys:\n    - a\n  description:\n    - "old"\n'
    "  pr-link: https://github.com/o/r/pull/1\n"
)


def block(n: int) -> bytes:
    return emit({"config-keys": [f"k{n}"], "description": [f"entry {n}"], "pr-link": "XXX"})


def append(path: Path, *blocks: bytes) -> writer.Appended:
    return writer.append(path, list(blocks))


@pytest.mark.parametrize(
    ("old", "separator"),
    [
        (OLD, "\n"),
        (OLD + "\n", ""),
        (OLD + "  \n", "\n"),
    ],
)
def test_appending_keeps_old_bytes_and_adds_exactly_one_empty_line(
    tmp_path: Path, old: str, separator: str
) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(old.encode())
    result = append(path, block(1), block(2))
    data = path.read_bytes()
    assert data == old.encode() + separator.encode() + block(1) + b"\n" + block(2)
    assert not data.endswith(b"\n\n")
    assert result.entry_lines == (
        data[: data.index(b"- config-keys:\n    - k1")].count(b"\n") + 1,
        data[: data.index(b"- config-keys:\n    - k2")].count(b"\n") + 1,
    )
    assert check_file(data, "p").findings == []


def test_the_file_mode_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    path.chmod(0o640)
    append(path, block(1))
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["perf-changelog.yaml"]


@pytest.mark.parametrize(
    ("old", "says"),
    [
        (OLD.rstrip("\n"), "does not end with a newline"),
        (OLD.replace("  pr-link: https://github.com/o/r/pull/1\n", ""), "'pr-link' is a required"),
        (OLD + "  flavour: spicy\n", "the last entry (line 1), (entry): Additional properties"),
        (OLD.replace('- "old"', "- 1"), "description/0"),
    ],
)
def test_a_file_whose_end_would_fail_ci_whatever_is_appended_is_refused(
    tmp_path: Path, old: str, says: str
) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(old.encode())
    with pytest.raises(ChangelogError, match="refusing to append") as caught:
        append(path, block(1))
    assert says in str(caught.value)
    assert path.read_bytes() == old.encode()


def test_a_malformed_file_is_refused_and_left_untouched(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    bad = OLD.encode() + b"\n- config-keys:\n    - b\n  description: [\n"
    path.write_bytes(bad)
    with pytest.raises(ChangelogError, match="refusing to append") as caught:
        append(path, block(1))
    assert "yaml-syntax" in str(caught.value)
    assert path.read_bytes() == bad


@pytest.mark.parametrize(
    "bad",
    [
        b"\xef\xbb\xbf" + OLD.encode(),
        OLD.replace("\n", "\r\n").encode(),
        OLD.replace("    - a", "\t- a").encode(),
        b"- \xff\xfe\n",
    ],
)
def test_bom_crlf_tabs_and_non_utf8_are_refused_untouched(tmp_path: Path, bad: bytes) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(bad)
    with pytest.raises(ChangelogError, match="encoding"):
        append(path, block(1))
    assert path.read_bytes() == bad


def test_a_missing_file_is_created_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    with pytest.raises(ChangelogError, match="--init"):
        append(path, block(1))
    assert not path.exists()
    writer.append(path, [block(1)], create=True)
    assert path.read_bytes() == block(1)


def test_a_file_changed_since_the_preview_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    with pytest.raises(ConcurrentChange, match="changed since it was read"):
        writer.append(path, [block(1)], expected=b"other\n")
    assert path.read_bytes() == OLD.encode()


def test_a_failed_write_leaves_the_file_and_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    result = with_file_size_limit(
        100,
        "try:\n"
        "    writer.append(Path(sys.argv[1]), [b'- config-keys:\\n    - z\\n'],"
        ")\n"
        "except OSError as exc:\n"
        "    sys.exit(f'failed: {exc}')\n",
        str(path),
    )
    assert result.returncode == 1 and "failed:" in result.stderr
    assert path.read_bytes() == OLD.encode()
    assert [p.name for p in tmp_path.iterdir()] == ["perf-changelog.yaml"]


CRASH = (  # a writer killed between its temp write and the rename
    "import os, sys\n"
    "from pathlib import Path\n"
    "from changelog_tool.ledger import writer\n"
    "os.replace = lambda *a: os._exit(9)\n"
    "writer.append(Path(sys.argv[1]), [b'- config-keys:\\n    - z\\n'])\n"
)


def test_a_crash_between_temp_write_and_rename_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    result = subprocess.run([sys.executable, "-c", CRASH, str(path)], check=False)
    assert result.returncode == 9
    assert path.read_bytes() == OLD.encode()


CONCURRENT = """
import sys
from pathlib import Path
from changelog_tool.ledger import writer
from changelog_tool.ledger.emitter import emit
path, worker = Path(sys.argv[1]), sys.argv[2]
for n in range(15):
    entry = {"config-keys": [f"w{worker}-{n}"], "description": [f"{worker} {n}"], "pr-link": "XXX"}
    writer.append(path, [emit(entry)])
"""


def test_concurrent_writers_in_real_processes_lose_no_entry(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    procs = [
        subprocess.Popen([sys.executable, "-c", CONCURRENT, str(path), str(w)]) for w in range(4)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0, 0, 0, 0]
    data = path.read_bytes()
    assert data.startswith(OLD.encode())
    keys = [e["config-keys"][0] for e in load_value(data)[1:]]
    assert sorted(keys) == sorted(f"w{w}-{n}" for w in range(4) for n in range(15))
    for w in range(4):  # each writer's own entries stay in order
        mine = [k for k in keys if k.startswith(f"w{w}-")]
        assert mine == [f"w{w}-{n}" for n in range(15)]
    assert check_file(data, "p").findings == []


def test_a_crash_leftover_is_removed_by_the_next_write_once_its_writer_is_gone(
    tmp_path: Path,
) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    assert subprocess.run([sys.executable, "-c", CRASH, str(path)], check=False).returncode == 9
    leftovers = [p.name for p in tmp_path.iterdir() if p.name != "perf-changelog.yaml"]
    assert len(leftovers) == 1 and leftovers[0].endswith(TEMP_SUFFIX)
    alive = tmp_path / f".perf-changelog.yaml.{os.getpid()}.1{TEMP_SUFFIX}"
    alive.write_bytes(b"a write in progress")  # its process (this one) is alive: kept
    append(path, block(1))
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["perf-changelog.yaml", alive.name])


def test_a_symlinked_changelog_gets_the_entry_in_its_target_and_stays_a_link(
    tmp_path: Path,
) -> None:
    target = tmp_path / "real" / "perf-changelog.yaml"
    target.parent.mkdir()
    target.write_bytes(OLD.encode())
    link = tmp_path / "perf-changelog.yaml"
    link.symlink_to(target)
    append(link, block(1))
    assert link.is_symlink() and Path(os.readlink(link)) == target
    assert target.read_bytes() == OLD.encode() + b"\n" + block(1)
    writer.replace(link, OLD.encode())
    assert link.is_symlink() and target.read_bytes() == OLD.encode()


def test_a_fifo_or_device_is_refused_at_once_and_left_alone(tmp_path: Path) -> None:
    fifo = tmp_path / "perf-changelog.yaml"
    os.mkfifo(fifo)
    for attempt in (lambda: append(fifo, block(1)), lambda: writer.replace(fifo, b"x")):
        with pytest.raises(UsageError, match="not a regular file"):
            attempt()
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    for command in (
        ["verify", "--file", str(fifo)],
        ["log", "k", "--file", str(fifo)],
        ["add", "--file", str(fifo), "--key", "k", "--description", "d"],
    ):
        done = subprocess.run(
            [sys.executable, "-m", "changelog_tool", *command],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=20,
            check=False,
        )
        assert done.returncode == 2 and "not a regular file" in done.stderr, (command, done)
    device = tmp_path / "null"
    try:
        os.mknod(device, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs privileges")
    with pytest.raises(UsageError, match="not a regular file"):
        append(device, block(1))
    assert stat.S_ISCHR(device.stat().st_mode)


def test_a_writer_waiting_on_a_lock_says_so_and_gives_up_after_the_timeout(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    holder = os.open(path, os.O_RDONLY)
    fcntl.flock(holder, fcntl.LOCK_EX)
    try:
        with pytest.raises(ConcurrentChange, match="locked by another process"):
            writer.append(path, [block(1)], bounds=writer.Bounds(timeout=1.5))
    finally:
        os.close(holder)
    assert "waiting for another process writing" in capsys.readouterr().err
    assert path.read_bytes() == OLD.encode()


def test_every_write_takes_its_bounds_from_the_settings(tmp_path: Path) -> None:
    """``lock-timeout`` and ``max-bytes``, read in one place for every command's writes."""
    from changelog_tool import settings as settings_module

    (tmp_path / ".perf-changelog.toml").write_text("lock-timeout = 2.5\nmax-bytes = 4096\n")
    bounds = writer.Bounds.of(settings_module.load(tmp_path))
    assert bounds == writer.Bounds(timeout=2.5, limit=4096)
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(b"x" * 5000)
    with pytest.raises(ChangelogError, match="max-bytes"):
        writer.replace(path, b"y\n", bounds=bounds)
    assert path.read_bytes() == b"x" * 5000
