"""The one file writer: every write goes through :func:`replace` (lock, temp file, rename,
read-back). See docs/design.md, "One writer" and "A read and its write under one lock"."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import stat
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.errors import ChangelogError, ConcurrentChange, UsageError, relative, too_large
from changelog_tool.findings import Finding, format_text, has_errors
from changelog_tool.ledger import locking
from changelog_tool.ledger.appending import append_break
from changelog_tool.ledger.atomic import read_fd, remove_stale_temps, write_over
from changelog_tool.ledger.boundaries import ENTRY_HEAD
from changelog_tool.ledger.document import (
    Ledger,
    first_appended_line,
    regular_file,
    separator_before_append,
)
from changelog_tool.ledger.filecheck import HeldLines, as_history, entry_count, schema_findings
from changelog_tool.settings import DEFAULT_MAX_BYTES, Settings
from changelog_tool.yaml.items import YamlProblem

LOCK_TIMEOUT = 30.0
"""Seconds to wait for another writer's lock before giving up."""


@dataclass(frozen=True)
class Bounds:
    """What every write obeys: the lock wait (``lock-timeout``) and the largest file read
    (``max-bytes``)."""

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


def plan_append(old: bytes, blocks: list[bytes], *, path: object = "the changelog") -> bytes:
    """The bytes that follow ``old``: one empty line before each new entry; refused when the
    append rule breaks (:func:`append_break`)."""
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
        try:
            item = ledger.parse_block(last)
        except YamlProblem as problem:
            problems.append(Finding(problem.code, problem.message, path, problem.line))
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


@contextlib.contextmanager
def hold(path: Path, bounds: Bounds = Bounds()) -> Iterator[None]:
    """The lock every write of ``path`` takes, held for the block (see :mod:`.locking`)."""
    with locking.hold(path, bounds.timeout):
        yield


def _create_whole(
    path: Path, make: Callable[[bytes], bytes], bounds: Bounds
) -> tuple[bytes, bytes]:
    """:func:`replace` of a missing file: ``make(b"")`` renamed into place, never an empty file
    first."""
    real = Path(os.path.realpath(path))
    real.parent.mkdir(parents=True, exist_ok=True)
    with locking.hold(real, bounds.timeout, export=False):
        if os.path.lexists(real):  # another process created it meanwhile
            return replace(path, make, bounds=bounds)
        remove_stale_temps(real)
        new = make(b"")
        mask = os.umask(0o022)
        os.umask(mask)
        write_over(path, real, 0o644 & ~mask, new)
    return b"", new


def replace(
    path: Path,
    data: bytes | Callable[[bytes], bytes],
    *,
    expected: bytes | None = None,
    create: bool = True,
    bounds: Bounds = Bounds(),
) -> tuple[bytes, bytes]:
    """The one write: under the lock, ``data`` or ``data(old)`` (which may raise to refuse) written
    atomically and read back; a missing file is created when ``create``, one over
    ``bounds.limit`` refused unread. If the file differs from ``expected``, nothing is written
    and :class:`ConcurrentChange` is raised. Returns ``(old, new)``."""

    def make(old: bytes) -> bytes:
        if expected is not None and old != expected:
            raise ConcurrentChange(
                f"{path} changed while this command ran ({len(expected)} -> {len(old)} bytes, "
                "another process wrote it); nothing was written: run the command again"
            )
        return data(old) if callable(data) else data

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


def append(
    path: Path,
    blocks: list[bytes],
    *,
    held: HeldLines | None = None,
    expected: bytes | None = None,
    create: bool = False,
    bounds: Bounds = Bounds(),
) -> Appended:
    """Append ``blocks`` to the changelog at ``path``: the one append. Under the lock, the file
    is checked (:func:`check_appendable`; warnings returned) and the append planned. With
    ``expected``, a changed file raises :class:`ConcurrentChange`; ``create`` creates a
    missing one."""
    if regular_file(path, missing_ok=True) is None and not create:
        raise UsageError(
            f"{relative(path)} does not exist; pass --init to create it, or --file to name another"
        )
    warnings: list[Finding] = []

    def make(old: bytes) -> bytes:
        if expected is not None and old != expected:
            raise ConcurrentChange(
                f"{path} changed since it was read ({len(expected)} -> {len(old)} bytes); "
                "nothing was written: re-check and save again"
            )
        warnings.extend(check_appendable(old, str(path), held))
        return old + plan_append(old, blocks, path=path)

    old, new = replace(path, make, create=create, bounds=bounds)
    starts, line = [], first_appended_line(old.count(b"\n"), old)
    for block in blocks:
        starts.append(line)
        line += block.count(b"\n") + 1
    last = new.count(b"\n")
    return Appended(path, len(old), len(new), starts[0], last, tuple(starts), tuple(warnings))
