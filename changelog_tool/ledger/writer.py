"""The only code that writes the changelog.

Appends emitted bytes after exactly one empty line, atomically (temp file in
the same directory, fsync, rename, file mode kept), under an exclusive lock
on the changelog itself, then reads the file back and checks that the old
bytes are an exact prefix. Existing bytes are never rewritten.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import stat
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.errors import ChangelogError, ConcurrentChange, UsageError
from changelog_tool.ledger.document import separator_before_append


@dataclass(frozen=True)
class Appended:
    path: Path
    old_size: int
    new_size: int
    first_line: int
    last_line: int
    entry_lines: tuple[int, ...]


def plan_append(old: bytes, blocks: list[bytes]) -> bytes:
    """The bytes that follow ``old``: one empty line before each new entry."""
    if not blocks:
        raise ChangelogError("nothing to append")
    return separator_before_append(old) + b"\n".join(blocks)


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[int]:
    """An exclusive lock on the file that ``path`` names *now* (retried after a rename)."""
    while True:
        fd = os.open(path, os.O_RDONLY)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            if os.fstat(fd).st_ino == os.stat(path).st_ino:
                yield fd
                return
        finally:
            os.close(fd)


def _read_fd(fd: int) -> bytes:
    chunks = []
    os.lseek(fd, 0, os.SEEK_SET)
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _replace(path: Path, data: bytes, mode: int) -> int:
    """Write ``data`` to a temp file, lock it, fsync, rename it over ``path``.

    Returns the new file's descriptor, still locked: a writer that opens the
    path after the rename waits on it until the caller has read it back.
    """
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.fchmod(fd, mode)
        os.replace(tmp, path)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    dir_fd = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)
    return fd


def append(
    path: Path,
    blocks: list[bytes],
    *,
    check: Callable[[bytes], None],
    expected: bytes | None = None,
    create: bool = False,
) -> Appended:
    """Append ``blocks`` (emitted entries) to the changelog at ``path``.

    ``check`` refuses a malformed existing file (it raises). ``expected``, when
    given, is the content the caller previewed against: if the file differs,
    :class:`ConcurrentChange` is raised and nothing is written.
    """
    if not path.exists():
        if not create:
            raise UsageError(
                f"{path} does not exist; pass --init to create it, or --file to name another"
            )
        path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    with _locked(path) as fd:
        old = _read_fd(fd)
        if expected is not None and old != expected:
            raise ConcurrentChange(
                f"{path} changed since it was read ({len(expected)} -> {len(old)} bytes); "
                "nothing was written: re-check and save again"
            )
        check(old)
        new = old + plan_append(old, blocks)
        new_fd = _replace(path, new, stat.S_IMODE(os.fstat(fd).st_mode))
        try:
            written = path.read_bytes()
        finally:
            os.close(new_fd)
        if written != new or not written.startswith(old):
            raise ChangelogError(
                f"read-back of {path} does not match what was written; check the disk and the file"
            )
    entry_lines = []
    line = old.count(b"\n") + separator_before_append(old).count(b"\n") + 1
    for block in blocks:
        entry_lines.append(line)
        line += block.count(b"\n") + 1
    return Appended(path, len(old), len(new), entry_lines[0], new.count(b"\n"), tuple(entry_lines))
