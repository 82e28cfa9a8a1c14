from __future__ import annotations

import stat
import subprocess
import sys
from pathlib import Path

import pytest

from changelog_tool.errors import ChangelogError, ConcurrentChange
from changelog_tool.ledger import writer
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.filecheck import check_appendable, check_file
from changelog_tool.ledger.strictyaml import load_value

OLD = (
    '- config-keys:\n    - a\n  description:\n    - "old"\n'
    "  pr-link: https://github.com/o/r/pull/1\n"
)


def block(n: int) -> bytes:
    return emit({"config-keys": [f"k{n}"], "description": [f"entry {n}"], "pr-link": "XXX"})


def append(path: Path, *blocks: bytes) -> writer.Appended:
    return writer.append(path, list(blocks), check=check_appendable)


@pytest.mark.parametrize(
    ("old", "separator"),
    [
        (OLD, "\n"),
        (OLD + "\n", ""),
        (OLD.rstrip("\n"), "\n\n"),
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
    writer.append(path, [block(1)], check=check_appendable, create=True)
    assert path.read_bytes() == block(1)


def test_a_file_changed_since_the_preview_is_not_written(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    with pytest.raises(ConcurrentChange, match="changed since it was read"):
        writer.append(path, [block(1)], check=check_appendable, expected=b"something else")
    assert path.read_bytes() == OLD.encode()


def test_a_failed_write_leaves_the_file_and_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    # A real disk-full-like failure: the process may not write files past 100 bytes.
    script = (
        "import resource, signal, sys\n"
        "from pathlib import Path\n"
        "from changelog_tool.ledger import writer\n"
        "from changelog_tool.ledger.filecheck import check_appendable\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))\n"
        "try:\n"
        "    writer.append(Path(sys.argv[1]), [b'- config-keys:\\n    - z\\n'],"
        " check=check_appendable)\n"
        "except OSError as exc:\n"
        "    sys.exit(f'failed: {exc}')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script, str(path)], check=False, capture_output=True, text=True
    )
    assert result.returncode == 1 and "failed:" in result.stderr
    assert path.read_bytes() == OLD.encode()
    assert [p.name for p in tmp_path.iterdir()] == ["perf-changelog.yaml"]


def test_a_crash_between_temp_write_and_rename_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_bytes(OLD.encode())
    script = (
        "import os, sys\n"
        "from pathlib import Path\n"
        "from changelog_tool.ledger import writer\n"
        "from changelog_tool.ledger.filecheck import check_appendable\n"
        "os.replace = lambda *a: os._exit(9)  # the process dies right before the rename\n"
        "writer.append(Path(sys.argv[1]), [b'- config-keys:\\n    - z\\n'], check=check_appendable)\n"
    )
    result = subprocess.run([sys.executable, "-c", script, str(path)], check=False)
    assert result.returncode == 9
    assert path.read_bytes() == OLD.encode()


CONCURRENT = """
import sys
from pathlib import Path
from changelog_tool.ledger import writer
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.filecheck import check_appendable
path, worker = Path(sys.argv[1]), sys.argv[2]
for n in range(15):
    entry = {"config-keys": [f"w{worker}-{n}"], "description": [f"{worker} {n}"], "pr-link": "XXX"}
    writer.append(path, [emit(entry)], check=check_appendable)
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
