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
from changelog_tool.gitrepo.process import spawn
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
        self._process: subprocess.Popen[bytes] | None = None

    def _pipes(self) -> tuple[IO[bytes], IO[bytes]]:
        if self._process is None:
            self._process = spawn(self._root, "cat-file", "--batch")
            resize = getattr(fcntl, "F_SETPIPE_SZ", None)
            if self._process.stdout is not None and resize is not None:
                # let git run a chunk ahead of the reader, where the system allows
                with contextlib.suppress(OSError):
                    fcntl.fcntl(self._process.stdout.fileno(), resize, CHUNK)
        assert self._process.stdin is not None and self._process.stdout is not None
        return self._process.stdin, self._process.stdout

    def header(self, spec: str) -> tuple[str, str, int] | None:
        """Ask for ``spec``: its sha, type and size, its bytes left pending (read them or
        :meth:`skip` them); ``None`` when absent or asked with a line break."""
        if "\n" in spec or "\r" in spec or not spec:
            return None
        send, receive = self._pipes()
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
        words = line.decode("ascii", "replace").split()
        if len(words) != 3 or not words[2].isdigit() or words[1] in ("missing", "ambiguous"):
            return None
        return words[0], words[1], int(words[2])

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

    def info(self, spec: str) -> tuple[str, str, int] | None:
        """The sha, type and size of ``spec`` without its bytes; ``None`` when absent (a
        non-tree over :data:`CHUNK` bytes ends the process rather than be read)."""
        found = self.header(spec)
        if found is not None and found[2] > CHUNK and found[1] != TREE:
            self.close()  # the pending bytes are never read
        elif found is not None:
            self.skip(found[2])
        return found

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
        """End the ``cat-file`` processes now (they only read, so nothing is lost)."""
        if self._process is not None:
            for pipe in (self._process.stdin, self._process.stdout):
                if pipe is not None:
                    pipe.close()
            self._process.kill()
            self._process.wait()
            self._process = None


def protected_blob(root: Path, refs: Sequence[str], path: str) -> tuple[str, bytes] | None:
    """The file ``path`` at the first of ``refs`` (protected refs, or a commit) that has it,
    with that ref; ``None`` when none does or git cannot be asked."""
    with contextlib.closing(Objects(root)) as objects, contextlib.suppress(EnvironmentProblem):
        for ref in refs:
            found = objects.read(f"{ref}:{path}")
            if found is not None:
                return ref, found[1]
    return None
