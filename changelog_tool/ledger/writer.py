"""The one file writer: every write goes through :func:`replace`: the folder's lock, then the
file's (a held folder is told to child processes, :data:`HELD_VARIABLE`), a temp file renamed over
it, read back. See docs/design.md, "One writer" and "A read and its write under one lock"."""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import os
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.errors import (
    ChangelogError,
    ConcurrentChange,
    UsageError,
    check_size,
    relative,
)
from changelog_tool.findings import Finding, format_text, has_errors
from changelog_tool.ledger.document import (
    ENTRY_HEAD,
    Ledger,
    first_appended_line,
    read_file,
    regular_file,
    separator_before_append,
)
from changelog_tool.ledger.filecheck import HeldLines, as_history, entry_count, schema_findings
from changelog_tool.ledger.revision import append_break
from changelog_tool.settings import DEFAULT_MAX_BYTES, Settings
from changelog_tool.yaml.items import YamlProblem

LOCK_TIMEOUT = 30.0  # seconds to wait for another writer's lock
CHANGED = (
    "{path} changed while this command ran ({was} -> {now} bytes, another process wrote it); "
    "nothing was written: run the command again"
)
CHANGED_SINCE_READ = (
    "{path} changed since it was read ({was} -> {now} bytes); nothing was written: re-check "
    "and save again"
)
"""What a write refuses when the file is not the ``expected`` bytes (a command's, the TUI's)."""


@dataclass(frozen=True)
class Bounds:
    """What every write obeys: the lock wait and the largest file read."""

    timeout: float = LOCK_TIMEOUT
    limit: int = DEFAULT_MAX_BYTES

    @classmethod
    def of(cls, settings: Settings) -> Bounds:
        return cls(settings.lock_timeout, settings.max_bytes)


HELD_VARIABLE = "PERF_CHANGELOG_HELD_FOLDER"
"""``<device>:<inode>`` of the folder a parent process holds locked."""

_held = threading.local()


def _wait_for(fd: int, what: Path, started: float, timeout: float, told: list[bool]) -> None:
    """``flock(fd)`` exclusively, waiting up to ``timeout`` seconds from ``started``."""
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            waited = time.monotonic() - started
            if waited > timeout:
                raise ConcurrentChange(
                    f"{what} is locked by another process writing it (waited "
                    f"{waited:.0f} s); nothing was written: try again when it is done"
                ) from None
            if waited > 1 and not told[0]:
                print(f"changelog: waiting for another process writing {what} ...", file=sys.stderr)
                told[0] = True
            time.sleep(0.05)


@contextlib.contextmanager
def hold(path: Path, bounds: Bounds = Bounds(), *, export: bool = True) -> Iterator[None]:
    """The lock every write of ``path`` takes first, its folder's, held for the block: this
    thread's writes go on, other writers wait (``bounds.timeout`` each); ``export`` tells child
    processes."""
    folder = Path(os.path.realpath(path)).parent
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        found = os.fstat(fd)
        identity = f"{found.st_dev}:{found.st_ino}"
        held: dict[str, int] = getattr(_held, "folders", None) or {}
        _held.folders = held
        # held already by this thread or by a parent process: only counted
        taking = not held.get(identity) and os.environ.get(HELD_VARIABLE) != identity
        if taking:
            _wait_for(fd, path, time.monotonic(), bounds.timeout, [False])
        held[identity] = held.get(identity, 0) + 1
        told = os.environ.get(HELD_VARIABLE)
        if taking and export:
            os.environ[HELD_VARIABLE] = identity
        try:
            yield
        finally:
            held[identity] -= 1
            if taking and export and told is None:
                os.environ.pop(HELD_VARIABLE, None)
            elif taking and export and told is not None:
                os.environ[HELD_VARIABLE] = told
    finally:
        os.close(fd)


@contextlib.contextmanager
def locked(path: Path, bounds: Bounds) -> Iterator[int]:
    """The folder's lock, then an exclusive lock on the file ``path`` names now: its descriptor."""
    started, told = time.monotonic(), [False]
    with hold(path, bounds, export=False):
        while True:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
            try:
                _wait_for(fd, path, started, bounds.timeout, told)
                if os.fstat(fd).st_ino == os.stat(path).st_ino:
                    yield fd
                    return
            finally:
                os.close(fd)


TEMP_SUFFIX = ".perf-changelog.tmp"


def remove_stale_temps(path: Path) -> None:
    """Temp files a crashed writer left beside ``path`` (their process is gone)."""
    prefix = f".{path.name}."
    with contextlib.suppress(OSError):
        for leftover in path.parent.iterdir():
            name = leftover.name
            if not (name.startswith(prefix) and name.endswith(TEMP_SUFFIX)):
                continue
            pid = name[len(prefix) : -len(TEMP_SUFFIX)].split(".")[0]
            if not pid.isdigit():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:  # its writer is gone
                with contextlib.suppress(OSError):
                    leftover.unlink()
            except PermissionError:  # another user's writer, alive
                pass


def write_over(path: Path, real: Path, mode: int, data: bytes) -> None:
    """Make ``real`` hold ``data`` through a locked, fsynced temp file renamed over it (with
    ``mode``), kept locked until read back; a differing read-back refuses."""
    tmp = real.parent / f".{real.name}.{os.getpid()}.{time.monotonic_ns()}{TEMP_SUFFIX}"
    fd = os.open(tmp, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        _write_all(fd, data)
        os.fsync(fd)
        os.fchmod(fd, mode)
        os.replace(tmp, real)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    try:
        with contextlib.suppress(OSError):  # the rename made durable
            dir_fd = os.open(real.parent, os.O_RDONLY)
            try:
                os.fsync(dir_fd)
            finally:
                os.close(dir_fd)
        written = os.pread(fd, len(data) + 1, 0)
    finally:
        os.close(fd)
    if written != data:
        raise ChangelogError(
            f"read-back of {path} does not match what was written; check the disk and the file"
        )


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


@dataclass(frozen=True)
class Appended:
    old_size: int
    new_size: int
    entry_lines: tuple[int, ...]
    warnings: tuple[Finding, ...]
    appended: bytes


def plan_append(old: bytes, blocks: list[bytes], *, path: object = "the changelog") -> bytes:
    """The bytes that follow ``old``, one empty line before each entry; refused by the append rule."""
    if not blocks:
        raise ChangelogError("nothing to append")
    planned = separator_before_append(old) + b"\n".join(blocks)
    broken = append_break(old, planned)
    if broken is not None:
        raise ChangelogError(
            f"refusing to append to {path} (nothing was written): {broken.message}"
        )
    return planned


_NO_FINAL_NEWLINE = (
    "the file does not end with a newline, so no appended entry can follow exactly one "
    "empty line; add the final newline on its own first (that keeps every old byte)"
)


def check_appendable(
    data: bytes, path: str = "perf-changelog.yaml", held: HeldLines | None = None
) -> list[Finding]:
    """Refuse a file no append can make pass CI (bad bytes, no final newline, a broken last
    entry), unless ``held`` holds that entry: then a warning, returned. Parses only the last
    entry."""
    ledger = Ledger(data)
    problems = [
        dataclasses.replace(p, message=_NO_FINAL_NEWLINE) if p.code == "final-newline" else p
        for p in ledger.byte_problems(path)
    ]
    last = ledger.last_block() if not problems and data.strip() else None
    if not problems and data.strip() and last is None:
        problems.append(Finding("not-a-list", "no entry found (no line begins with '- ')", path, 1))
    elif last is not None:
        item = last.item
        if isinstance(item, YamlProblem):
            problems.append(Finding(item.code, item.message, path, item.line))
        else:
            problems.extend(schema_findings("the last entry", last.line, item, path))
        if not data[last.start :].startswith(ENTRY_HEAD):
            problems.append(entry_count("the last entry", last.line, path))
    problems = as_history(problems, held)
    if has_errors(problems):
        raise ChangelogError(
            f"refusing to append to {path}; fix these first (nothing was written):\n"
            + format_text(problems)
        )
    return problems


def replace(
    path: Path,
    data: bytes | Callable[[bytes], bytes],
    *,
    expected: bytes | None = None,
    create: bool = True,
    bounds: Bounds = Bounds(),
    changed: str = CHANGED,
) -> tuple[bytes, bytes]:
    """The one write: under the lock, ``data`` or ``data(old)`` (which may raise to refuse) written
    atomically and read back; a missing file is created when ``create`` (never empty first), one
    over ``bounds.limit`` refused unread. If the file differs from ``expected``, nothing is
    written and :class:`ConcurrentChange` says ``changed``. Returns ``(old, new)``."""

    def make(old: bytes) -> bytes:
        if expected is not None and old != expected:
            raise ConcurrentChange(changed.format(path=path, was=len(expected), now=len(old)))
        return data(old) if callable(data) else data

    real = regular_file(path, missing_ok=create)
    if real is None:
        real = Path(os.path.realpath(path))
        real.parent.mkdir(parents=True, exist_ok=True)
        with hold(real, bounds, export=False):
            if os.path.lexists(real):  # another process created it meanwhile
                return replace(path, make, bounds=bounds)
            remove_stale_temps(real)
            new = make(b"")
            mask = os.umask(0o022)
            os.umask(mask)
            write_over(path, real, 0o644 & ~mask, new)
        return b"", new
    remove_stale_temps(real)
    with locked(real, bounds) as fd:
        check_size(str(path), os.fstat(fd).st_size, bounds.limit)
        with open(fd, "rb", closefd=False) as handle:  # just opened: read from its start
            old = handle.read()
        new = make(old)
        write_over(path, real, stat.S_IMODE(os.fstat(fd).st_mode), new)
    return old, new


def append(
    path: Path,
    blocks: list[bytes],
    *,
    held: HeldLines | None = None,
    expected: bytes | None = None,
    create: bool = False,
    bounds: Bounds = Bounds(),
    dry_run: bool = False,
) -> Appended:
    """The one append: under the lock, the file checked (:func:`check_appendable`, its warnings
    returned) and the append planned; ``expected`` and ``create`` as :func:`replace`; ``dry_run``
    plans the same append on the file as read, unlocked, and writes nothing."""
    exists = regular_file(path, missing_ok=True) is not None
    if not exists and not create:
        raise UsageError(
            f"{relative(path)} does not exist; pass --init to create it, or --file to name another"
        )
    warnings: list[Finding] = []

    def make(old: bytes) -> bytes:
        warnings.extend(check_appendable(old, str(path), held))
        return old + plan_append(old, blocks, path=path)

    if dry_run:
        old = read_file(path, limit=bounds.limit) if exists else b""
        new = make(old)
    else:
        old, new = replace(
            path, make, expected=expected, create=create, bounds=bounds, changed=CHANGED_SINCE_READ
        )
    starts, line = [], first_appended_line(old.count(b"\n"), old)
    for block in blocks:
        starts.append(line)
        line += block.count(b"\n") + 1
    return Appended(len(old), len(new), tuple(starts), tuple(warnings), new[len(old) :])
