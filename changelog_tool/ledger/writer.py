"""The one file writer: every file the tool writes goes through :func:`_rewrite`,
or, with the kept bytes copied by the kernel instead of held, through
:func:`replace_with_copy` (the merge driver) and :func:`append` (``add``, the TUI).

Under an exclusive lock on the target, it reads the current bytes, computes the
new ones and writes them through a temp file renamed over the target, then reads
them back (:mod:`.atomic`). :func:`append` only ever adds bytes after exactly one
empty line; :func:`replace` (the merge driver, ``resolve``, ``sync``, drafts,
attributes) writes bytes a caller has verified, and refuses when the file changed
since the caller read it, so a concurrent ``add`` is never silently overwritten.
Every write holds the lock of the file's folder and of the file (:mod:`.locking`);
a command that must keep its read and its write together holds it across both
(:func:`hold`). A symlink is followed and its target written in place of the link;
anything that is not a regular file is refused before it is opened.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.errors import ChangelogError, ConcurrentChange, UsageError, too_large
from changelog_tool.findings import Finding
from changelog_tool.hints import relative
from changelog_tool.ledger import locking
from changelog_tool.ledger.appendable import check_appendable
from changelog_tool.ledger.appending import append_break
from changelog_tool.ledger.atomic import read_fd, remove_stale_temps, write_over
from changelog_tool.ledger.boundaries import last_entry_offset
from changelog_tool.ledger.document import (
    file_source,
    first_appended_line,
    regular_file,
    separator_before_append,
)
from changelog_tool.ledger.filecheck import HeldLines
from changelog_tool.settings import DEFAULT_MAX_BYTES, Settings

LOCK_TIMEOUT = 30.0
"""Seconds to wait for another writer's lock before giving up."""


@dataclass(frozen=True)
class Bounds:
    """What every write obeys: how long it waits for another writer's lock (the
    ``lock-timeout`` setting) and the largest file it reads (``max-bytes``)."""

    timeout: float = LOCK_TIMEOUT
    limit: int = DEFAULT_MAX_BYTES

    @classmethod
    def of(cls, settings: Settings) -> Bounds:
        """The bounds a command's settings set: the one place they are read for a write."""
        return cls(settings.lock_timeout, settings.max_bytes)


@dataclass(frozen=True)
class Appended:
    path: Path
    old_size: int
    new_size: int
    first_line: int
    last_line: int
    entry_lines: tuple[int, ...]
    warnings: tuple[Finding, ...] = ()


def plan_append(
    old: bytes, blocks: list[bytes], *, first_line: int = 1, path: object = "the changelog"
) -> bytes:
    """The bytes that follow ``old``: one empty line before each new entry. ``old`` is
    the file, or its end from its last entry on (beginning on file line
    ``first_line``: all an append reads). Refused (:class:`ChangelogError`, naming
    ``path``) when the append would change or break what is there
    (:func:`~changelog_tool.ledger.appending.append_break`, the one append rule)."""
    if not blocks:
        raise ChangelogError("nothing to append")
    planned = separator_before_append(old) + b"\n".join(blocks)
    start = last_entry_offset(old) or 0
    broken = append_break(old[start:], planned, first_line + old.count(b"\n", 0, start))
    if broken is not None:
        raise ChangelogError(
            f"refusing to append to {path} (nothing was written): {broken.message}"
        )
    return planned


@contextlib.contextmanager
def hold(path: Path, bounds: Bounds = Bounds()) -> Iterator[None]:
    """The lock every write of ``path`` takes (the folder's: see
    :mod:`~changelog_tool.ledger.locking`), held for the block: a command that reads
    the file, computes from those bytes and writes (``sync``, ``finalize``) holds it
    from that read to that write, across whatever runs between (``git merge``); its
    own writes inside go on, every other writer waits (``bounds.timeout``)."""
    with locking.hold(path, bounds.timeout):
        yield


def _create_empty(path: Path) -> Path:
    """Create ``path``'s file, empty (unless another process just did), and its
    folders; its real path."""
    real = Path(os.path.realpath(path))
    real.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        os.close(os.open(real, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    found = regular_file(real)
    assert found is not None  # without missing_ok, a missing file raises
    return found


def _rewrite(
    path: Path,
    make: Callable[[bytes], bytes],
    *,
    create: bool,
    bounds: Bounds = Bounds(),
) -> tuple[bytes, bytes]:
    """Under the lock: ``new = make(old)``, written atomically and read back.
    ``make`` may raise to refuse; then nothing is written. A file over
    ``bounds.limit`` bytes (``max-bytes``) is refused before it is read. Returns
    ``(old, new)``."""
    real = regular_file(path, missing_ok=create)
    if real is None:
        return _create_whole(path, make, bounds)
    remove_stale_temps(real)
    with locking.locked(real, bounds.timeout) as fd:
        refusal = too_large(str(path), os.fstat(fd).st_size, bounds.limit)
        if refusal is not None:
            raise refusal
        old = read_fd(fd)
        new = make(old)
        write_over(path, real, stat.S_IMODE(os.fstat(fd).st_mode), new)
    return old, new


def _create_whole(
    path: Path, make: Callable[[bytes], bytes], bounds: Bounds
) -> tuple[bytes, bytes]:
    """:func:`_rewrite` of a missing file: under the folder's lock, ``make(b"")``
    written to a temp file and renamed into place, never an empty file first (a
    write that fails, on a full disk, leaves no file at all)."""
    real = Path(os.path.realpath(path))
    real.parent.mkdir(parents=True, exist_ok=True)
    with locking.hold(real, bounds.timeout, export=False):
        if os.path.lexists(real):  # another process created it meanwhile
            return _rewrite(path, make, create=True, bounds=bounds)
        remove_stale_temps(real)
        new = make(b"")
        mask = os.umask(0o022)
        os.umask(mask)
        write_over(path, real, 0o644 & ~mask, new)
    return b"", new


def _entry_lines(lines: int, end: bytes, blocks: list[bytes]) -> tuple[int, ...]:
    """The first line of each appended block, after a file of ``lines`` line breaks
    that ends with ``end`` (and the separator the append puts before them)."""
    found = []
    line = first_appended_line(lines, end)
    for block in blocks:
        found.append(line)
        line += block.count(b"\n") + 1
    return tuple(found)


def replace(
    path: Path,
    data: bytes,
    *,
    expected: bytes | None = None,
    bounds: Bounds = Bounds(),
) -> None:
    """Write ``data`` as the whole file (created if missing). ``expected``: the bytes
    the caller read and built ``data`` from; if the file changed since, nothing is
    written and :class:`ConcurrentChange` says to run the command again. ``bounds``:
    the settings' lock timeout and ``max-bytes``, for the file being replaced."""

    def make(old: bytes) -> bytes:
        if expected is not None and old != expected:
            raise ConcurrentChange(
                f"{path} changed while this command ran ({len(expected)} -> {len(old)} bytes, "
                "another process wrote it); nothing was written: run the command again"
            )
        return data

    _rewrite(path, make, create=True, bounds=bounds)


def replace_computed(
    path: Path, make: Callable[[bytes], bytes], *, bounds: Bounds = Bounds()
) -> tuple[bytes, bytes]:
    """Write ``make(old)`` as the whole file, ``old`` being its bytes read under the
    lock, which is held from that read to the write: the result is computed from
    exactly the bytes it replaces, and no other writer (an ``add``) lands between.
    ``make`` may raise to refuse; then nothing is written. Returns ``(old, new)``."""
    return _rewrite(path, make, create=False, bounds=bounds)


@dataclass(frozen=True)
class Stamp:
    """A file as a caller read it: its size, modification time and inode (for a file
    too long to keep its bytes to compare)."""

    size: int
    mtime_ns: int
    inode: int

    @classmethod
    def of(cls, path: Path) -> Stamp:
        return cls.of_stat(os.stat(path))

    @classmethod
    def of_stat(cls, found: os.stat_result) -> Stamp:
        return cls(found.st_size, found.st_mtime_ns, found.st_ino)

    @classmethod
    def missing(cls) -> Stamp:
        """A file read as missing (the TUI's ``--init``)."""
        return cls(0, -1, -1)

    def allows(self, now: Stamp) -> bool:
        """Whether the file found ``now`` is the file as read: the same, or, for a
        file read as missing, an empty one (the append's own creation)."""
        return now == self or (self.inode == -1 and now.size == 0)


def replace_with_copy(
    path: Path,
    source: Path,
    length: int,
    tail: bytes,
    *,
    expected: Stamp,
    bounds: Bounds = Bounds(),
    scratch: bool = False,
) -> None:
    """Write the ``length`` bytes of ``source`` (``path`` itself, or another file),
    then ``tail``, as the whole file ``path``: the merge driver's result, the
    protected side's bytes then the appended entries, at any history length.

    The one writer's steps, with the kept bytes copied by the kernel rather than
    held: under the lock, ``path`` must still be as ``expected`` and ``source``
    still ``length`` bytes long (else :class:`ConcurrentChange`, nothing written);
    temp file, fsync, rename; then the new file's size and the bytes after the
    copy (``tail``, what was appended) are read back.

    ``scratch``: ``path`` is a file git handed the merge driver (``%A``), which git
    reads back as the merge's result as soon as the driver exits, then deletes
    (the driver says so only for a file named as git names them). It is written
    without fsync (git does not sync the work tree it writes from it either), but
    still through a temp file renamed over it, never appended in place: a driver
    killed in the middle of the write leaves ``path`` as git gave it, so the
    installed driver script can fall back to git's own conflict on it
    (:func:`changelog_tool.merge.setup.driver_script`).
    """
    real = regular_file(path)
    assert real is not None  # without missing_ok, a missing file raises
    remove_stale_temps(real)
    with locking.locked(real, bounds.timeout) as fd, open(source, "rb") as src:
        _copy_locked(path, real, fd, src.fileno(), length, tail, expected, scratch=scratch)


def _copy_locked(
    path: Path,
    real: Path,
    fd: int,
    src: int,
    length: int,
    tail: bytes,
    expected: Stamp,
    *,
    scratch: bool = False,
) -> None:
    """:func:`replace_with_copy`'s steps once ``fd`` (``real``, locked) is held:
    ``src`` is the open source of the ``length`` kept bytes."""
    now = Stamp.of_stat(os.fstat(fd))
    kept = os.fstat(src)
    if now != expected or kept.st_size != length:
        raise ConcurrentChange(
            f"{path} changed while this command ran ({expected.size} -> {now.size} "
            "bytes, another process wrote it); nothing was written: run the command again"
        )
    mode = stat.S_IMODE(os.fstat(fd).st_mode)
    write_over(path, real, mode, tail, src=src, length=length, sync=not scratch)


def append(
    path: Path,
    blocks: list[bytes],
    *,
    held: HeldLines | None = None,
    expected: Stamp | None = None,
    create: bool = False,
    bounds: Bounds = Bounds(),
) -> Appended:
    """Append ``blocks`` (emitted entries) to the changelog at ``path``: the one append,
    for ``add``'s flags, ``--json`` and the TUI alike, at any history length.

    Under the lock, the file is checked a piece at a time
    (:func:`~changelog_tool.ledger.appendable.check_appendable`: it refuses a file
    whose end no append can fix; a flaw in an entry the protected branch already
    holds, ``held``, is a warning, returned), the append is planned from its end
    (:func:`plan_append`) and the kept bytes are copied by the kernel from the locked
    file. ``expected``: the file as the caller read it to preview the append (the
    TUI); if it changed since, :class:`ConcurrentChange` and nothing is written.
    Without it, a concurrent ``add`` waits on the lock (up to ``bounds.timeout``),
    then checks and plans against the file as the other left it, so none is refused
    or lost; only a change made meanwhile without the lock (another program writing
    in place) refuses it. ``create``: a missing file is created empty first."""
    real = regular_file(path, missing_ok=True)
    if real is None:
        if not create:
            raise UsageError(
                f"{relative(path)} does not exist; pass --init to create it, or --file to name "
                "another"
            )
        real = _create_empty(path)
    remove_stale_temps(real)
    with locking.locked(real, bounds.timeout) as fd:
        stamp = Stamp.of_stat(os.fstat(fd))
        if expected is not None and not expected.allows(stamp):
            raise ConcurrentChange(
                f"{path} changed since it was read ({expected.size} -> {stamp.size} bytes); "
                "nothing was written: re-check and save again"
            )
        found = check_appendable(file_source(real, bounds.limit), str(path), held)
        now = {Stamp.of(real), Stamp.of_stat(os.fstat(fd))}  # by path and by descriptor
        if found.size != stamp.size or now != {stamp}:
            raise ConcurrentChange(
                f"{path} changed while it was checked (written by a program that does not "
                "take the lock); nothing was written: run the command again"
            )
        planned = plan_append(found.end, blocks, first_line=found.end_line, path=path)
        _copy_locked(path, real, fd, fd, found.size, planned, stamp)
    starts = _entry_lines(found.lines, found.end, blocks)
    last = found.lines + planned.count(b"\n")
    size = found.size
    return Appended(path, size, size + len(planned), starts[0], last, starts, found.warnings)
