"""The changelog at the base and at head, read from git and compared, in time and
memory that follow what the branch appended, not the length of the history.

The common case is proved without holding either version whole: equal blob ids
mean unchanged; otherwise head is streamed once, and its first ``len(base)``
bytes are hashed as a git blob: the same id as the base's blob means head is the
base plus a tail, and only the tail is parsed (the base was checked when it
landed). The duplicate search reads the kept bytes again: the work tree's file
through the descriptor the proof read (no copy: a writer that replaces the file
by rename does not change what that descriptor reads), a blob from a spool (in
memory up to 8 MiB, then a temporary file), as git streams it only once.
Anything else (history edited, a pr-link corrected, CRLF or a BOM added, a file created or deleted) reads both versions
and takes :func:`changelog_tool.ledger.compare.compare`'s general path.
"""

from __future__ import annotations

import hashlib
import io
import os
import tempfile
import threading
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import IO

from changelog_tool.errors import ConcurrentChange, EnvironmentProblem, too_large
from changelog_tool.gitrepo import WORKTREE, Repo
from changelog_tool.gitrepo.objects import CHUNK, blob_hasher
from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.conversions import BOM
from changelog_tool.ledger.revision import APPEND, TAIL, UNCHANGED, History, Kept, check_tail

SPOOL_IN_MEMORY = 8 << 20
HASH_BESIDE = 8 << 20
"""From this size the work tree's file is hashed whole (head's blob id) by a second
thread while the proof streams its prefix: hashlib lets go of the interpreter lock,
so the two hashes run side by side."""


@dataclass
class Revision:
    """The changelog's history between base and head, and how to reach the rest."""

    history: History
    base_tail: Callable[[], bytes]
    """The base's last 64 KiB (read on demand: its newest pr-links name the repository)."""
    base_exists: bool
    head_blob: str | None
    """Head's blob id as git would hash it (the work tree's file included); ``None``
    when head has no changelog."""


def read_revision(repo: Repo, path: str, base_sha: str, head_rev: str, limit: int) -> Revision:
    """The changelog's :class:`Revision` from ``base_sha`` to ``head_rev`` (a commit,
    or ``WORKTREE``); files over ``limit`` bytes are refused before they are read."""
    base = repo.blob_info(base_sha, path, limit)
    head = _open_head(repo, path, head_rev, limit)
    if head is None:
        return _slow(repo, path, base_sha, head_rev, limit)
    if base is not None and base[1] >= len(BOM):
        if head.blob == base[0]:
            head.drop()
            return Revision(History(UNCHANGED), _lazy_tail(repo, base[0]), True, head.blob)
        if head.size >= base[1]:
            proved = _append_proof(head, base[0], base[1])
            if proved is not None:
                kept, tail, blob = proved
                history = History(APPEND, prefix=kept) if tail else History(UNCHANGED)
                check_tail(tail, history, path)
                return Revision(history, lambda: kept.tail, True, blob)
    head.drop()  # (a no-op when the proof read it)
    return _slow(repo, path, base_sha, head_rev, limit)


@dataclass
class _Head:
    size: int
    chunks: Iterator[bytes]
    blob: str | None
    """Known before reading for a commit; ``None`` for the work tree's file."""
    close: Callable[[], None]
    reread: Callable[[int, int], bytes] | None = None
    """Bytes ``[start, stop)`` read again (the work tree's file); ``None`` when the
    chunks cannot be read twice (a blob)."""

    def drop(self) -> None:
        for _ in self.chunks:
            pass
        self.close()


def _open_head(repo: Repo, path: str, head_rev: str, limit: int) -> _Head | None:
    if head_rev == WORKTREE:
        file = repo.inside(path)
        if not file.is_file():
            return None
        if file.is_symlink():  # git would commit the link's target path, not these bytes
            raise EnvironmentProblem(
                f"{path} is a symbolic link: git stores a link as the path it points to, "
                "so the commit would not hold these entries; make it a regular file, or "
                "set `changelog` in the settings to the file it points at"
            )
        handle = file.open("rb")
        size = os.fstat(handle.fileno()).st_size
        refusal = too_large(path, size, limit)
        if refusal is not None:
            handle.close()
            raise refusal
        return _Head(size, _file_chunks(handle, size), None, handle.close, _rereader(path, handle))
    found = repo.blob_header(head_rev, path, limit)
    if found is None:
        return None
    sha, size = found
    return _Head(size, repo.objects.chunks(size), sha, lambda: None)


def _rereader(path: str, handle: IO[bytes]) -> Callable[[int, int], bytes]:
    """Bytes of the open file read again, refused once the file changed in place since
    it was opened (its size or modification time): what the search reads must be
    what was hashed. A writer that replaces the file by rename (as this tool's does)
    changes nothing this descriptor reads."""
    fd = handle.fileno()
    opened = os.fstat(fd)

    def read(start: int, stop: int) -> bytes:
        now = os.fstat(fd)
        if (now.st_size, now.st_mtime_ns) != (opened.st_size, opened.st_mtime_ns):
            raise ConcurrentChange(
                f"{path} changed while it was checked (written in place by another "
                "program); run the check again"
            )
        return os.pread(fd, stop - start, start)

    return read


def _file_chunks(handle: IO[bytes], size: int) -> Iterator[bytes]:
    left = size
    while left > 0:
        piece = handle.read(min(CHUNK, left))
        if not piece:
            break  # the file shrank while it was read: the proof fails on its hash
        left -= len(piece)
        yield piece


def _append_proof(
    head: _Head, base_blob: str, base_size: int
) -> tuple[Kept, bytes, str | None] | None:
    """Stream head: when its first ``base_size`` bytes hash to the base's blob id, the
    kept bytes (read again from the work tree's file, or spooled), the appended
    tail, and head's own blob id; else ``None`` (the caller then closes ``head``)."""
    prefix = blob_hasher(base_size, len(base_blob))
    whole = blob_hasher(head.size, len(base_blob)) if head.blob is None else None
    beside = None
    if whole is not None and head.reread is not None and head.size >= HASH_BESIDE:
        beside, whole = _Beside(head.reread, head.size, whole), None
    spool: IO[bytes] | None = None
    if head.reread is None:  # in memory when small
        spool = (
            io.BytesIO() if base_size <= SPOOL_IN_MEMORY else tempfile.TemporaryFile()  # noqa: SIM115
        )
    left, lines, carriage, end = base_size, 0, False, b""
    tail: list[bytes] = []
    try:
        for chunk in head.chunks:
            if whole is not None:
                whole.update(chunk)
            if left:
                part = chunk[:left]
                prefix.update(part)
                if spool is not None:
                    spool.write(part)
                lines += part.count(b"\n")
                carriage = carriage or b"\r" in part
                end = (end + part[-TAIL:])[-TAIL:]
                left -= len(part)
                chunk = chunk[len(part) :]
            if chunk:
                tail.append(chunk)
        if beside is None:
            blob = head.blob if whole is None else whole.hexdigest()
        else:
            blob = beside.join()
            assert head.reread is not None  # (a thread hashes only a file read again)
            head.reread(0, 0)  # refused if written in place while either pass read it
    except BaseException:
        if beside is not None:
            beside.wait()  # before the descriptor it reads is closed
        head.close()
        raise
    appended = b"".join(tail)
    # CRLF that the base lacks is undone by the slow path, with its own finding
    if left or prefix.hexdigest() != base_blob or (not carriage and b"\r\n" in appended):
        if spool is not None:
            spool.close()
        return None
    if head.reread is not None:
        read, close = head.reread, head.close
    else:
        assert spool is not None  # made above for a head that cannot be read again
        head.close()
        read, close = _spooled(spool), spool.close
    weakref.finalize(read, close)  # open for the search, closed once nothing can read it
    return Kept(base_size, lines, end, read), appended, blob


class _Beside:
    """``hasher`` fed bytes ``[0, size)`` through ``read`` in a thread of its own."""

    def __init__(self, read: Callable[[int, int], bytes], size: int, hasher: hashlib._Hash) -> None:
        self._read, self._size, self._hasher = read, size, hasher
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            done = 0
            while done < self._size:
                piece = self._read(done, min(self._size, done + CHUNK))
                if not piece:
                    break  # the file shrank: the digest differs, as the proof's will
                self._hasher.update(piece)
                done += len(piece)
        except BaseException as exc:  # raised again in the caller's thread
            self._error = exc

    def wait(self) -> None:
        """Until the thread has stopped reading."""
        self._thread.join()

    def join(self) -> str:
        """The hex digest, once every byte is hashed; the thread's error, if any."""
        self.wait()
        if self._error is not None:
            raise self._error
        return self._hasher.hexdigest()


def _spooled(spool: IO[bytes]) -> Callable[[int, int], bytes]:
    def read(start: int, stop: int) -> bytes:
        spool.seek(start)
        return spool.read(stop - start)

    return read


def _lazy_tail(repo: Repo, blob: str) -> Callable[[], bytes]:
    """The last 64 KiB of a blob, read (in chunks) when first asked for."""
    found: list[bytes] = []

    def tail() -> bytes:
        if not found:
            header = repo.objects.header(blob)
            end = b""
            if header is not None:
                for chunk in repo.objects.chunks(header[2]):
                    end = (end + chunk)[-TAIL:]
            found.append(end)
        return found[0]

    return tail


def _slow(repo: Repo, path: str, base_sha: str, head_rev: str, limit: int) -> Revision:
    base = repo.read(base_sha, path, limit)
    head = repo.read(head_rev, path, limit)
    history = compare(base, head, path, base_sha[:12])
    blob = None
    if head is not None:
        hasher = blob_hasher(len(head), len(base_sha))
        hasher.update(head)
        blob = hasher.hexdigest()
    tail = (base or b"")[-TAIL:]
    return Revision(history, lambda: tail, base is not None, blob)
