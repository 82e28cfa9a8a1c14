"""A repository's objects through one persistent ``git cat-file --batch``: refs resolved, blobs
read whole or in chunks (refused over the limit after the header), trees listed."""

from __future__ import annotations

import contextlib
import fcntl
import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import IO, NamedTuple

from changelog_tool.errors import EnvironmentProblem, check_size
from changelog_tool.gitrepo.process import object_header, spawn
from changelog_tool.gitrepo.worktree import Kind

CHUNK = 1 << 20
TREE, COMMIT = "tree", "commit"
# a tree entry's mode -> its kind (a link's blob is its target, never followed)
KINDS: dict[bytes, Kind] = {
    b"40000": "tree",
    b"100644": "file",
    b"100755": "file",
    b"120000": "link",
}


class TreeEntry(NamedTuple):
    name: str
    kind: Kind  # ``None``: a submodule
    sha: str


class Objects:
    """``git cat-file --batch`` in ``root``, started on the first read."""

    def __init__(self, root: Path) -> None:
        self._root = root
        self._processes: dict[str, subprocess.Popen[bytes]] = {}

    def _pipes(self, mode: str = "--batch") -> tuple[IO[bytes], IO[bytes]]:
        process = self._processes.get(mode)
        if process is None:
            process = self._processes[mode] = spawn(self._root, "cat-file", mode)
            if mode == "--batch":
                _widen(process.stdout)
        assert process.stdin is not None and process.stdout is not None
        return process.stdin, process.stdout

    def info(self, spec: str) -> tuple[str, str, int] | None:
        """The sha, type and size of ``spec`` without its bytes; ``None`` when absent."""
        return self.header(spec, "--batch-check")

    def header(self, spec: str, mode: str = "--batch") -> tuple[str, str, int] | None:
        """Ask for ``spec``: its sha, type and size, its bytes left pending in ``--batch`` (read
        them or :meth:`skip` them); ``None`` when absent or asked with a line break."""
        if "\n" in spec or "\r" in spec or not spec:
            return None
        send, receive = self._pipes(mode)
        try:
            send.write(spec.encode("utf-8", "surrogateescape") + b"\n")
            send.flush()
        except OSError as exc:
            self.close()
            raise EnvironmentProblem(f"git cat-file stopped: {exc}") from None
        line = receive.readline()
        if not line.endswith(b"\n"):
            self.close()
            raise EnvironmentProblem("git cat-file stopped unexpectedly; is the repository intact?")
        return object_header(line[:-1])

    def read(
        self, spec: str, limit: int | None = None, name: str = "", kind: str = "blob"
    ) -> tuple[str, bytes] | None:
        """``(sha, bytes)`` of ``spec`` when it is a ``kind`` object; refused, before they are
        read, over ``limit``."""
        found = self.header(spec)
        if found is None:
            return None
        sha, found_kind, size = found
        if found_kind != kind:
            self.skip(size)
            return None
        try:
            check_size(name or spec, size, limit)
        except EnvironmentProblem:
            self.close()  # the pending bytes are never read
            raise
        data = self._pipes()[1].read(size + 1)
        if len(data) != size + 1:
            self.close()
            raise EnvironmentProblem("git cat-file stopped in the middle of an object")
        return sha, data[:size]

    def skip(self, size: int) -> None:
        """Drop the pending bytes of the object just asked for, :data:`CHUNK` bytes at a time."""
        _, receive = self._pipes()
        left = size
        while left:
            piece = receive.read(min(CHUNK, left))
            if not piece:
                self.close()
                raise EnvironmentProblem("git cat-file stopped in the middle of an object")
            left -= len(piece)
        receive.read(1)

    def object_id(self, spec: str) -> str | None:
        """The sha of the object ``spec`` names, ``None`` when absent (a non-tree over
        :data:`CHUNK` bytes ends the process rather than be read)."""
        found = self.header(spec)
        if found is None:
            return None
        sha, kind, size = found
        if size > CHUNK and kind != TREE:
            self.close()  # the pending bytes are never read
        else:
            self.skip(size)
        return sha

    def tree(self, spec: str) -> list[TreeEntry] | None:
        """The entries of the tree ``spec`` (``rev^{tree}``, ``rev:folder``, a sha)."""
        found = self.read(spec, kind=TREE)
        if found is None:
            return None
        sha, data = found
        width = len(sha) // 2  # 20 bytes (SHA-1) or 32 (SHA-256)
        entries, pos = [], 0
        while pos < len(data):
            space = data.index(b" ", pos)
            nul = data.index(b"\0", space)
            raw = data[nul + 1 : nul + 1 + width]
            name = data[space + 1 : nul].decode("utf-8", "surrogateescape")
            entries.append(TreeEntry(name, KINDS.get(data[pos:space]), raw.hex()))
            pos = nul + 1 + width
        return entries

    def close(self) -> None:
        for process in self._processes.values():
            _stop(process)
        self._processes.clear()


def _widen(pipe: IO[bytes] | None) -> None:
    """Let git run a chunk ahead of the reader: a pipe of :data:`CHUNK` bytes, where allowed."""
    resize = getattr(fcntl, "F_SETPIPE_SZ", None)
    if pipe is not None and resize is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(pipe.fileno(), resize, CHUNK)


def _stop(process: subprocess.Popen[bytes]) -> None:
    """End a ``cat-file`` process now (it only reads, so nothing is lost)."""
    for pipe in (process.stdin, process.stdout):
        if pipe is not None:
            pipe.close()
    process.kill()
    process.wait()


def protected_blob(root: Path, refs: Sequence[str], path: str) -> tuple[str, bytes] | None:
    """The file ``path`` at the first of ``refs`` (protected refs, or a commit) that has it,
    with that ref; ``None`` when none does or git cannot be asked."""
    objects = Objects(root)
    try:
        for ref in refs:
            found = objects.read(f"{ref}:{path}")
            if found is not None:
                return ref, found[1]
        return None
    except EnvironmentProblem:
        return None
    finally:
        objects.close()
