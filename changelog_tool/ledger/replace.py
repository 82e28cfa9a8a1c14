"""Replace a whole file with bytes a merge has verified, atomically.

``writer.py`` only ever appends to the changelog. A merge result is not an
append to the file on disk (git's ``%A`` temp file holds "ours", the work tree
holds a conflicted file), so it is written here instead: into a temp file in
the same directory, fsync'd, renamed over the target (keeping its mode), then
read back. The caller passes only bytes that :func:`changelog_tool.merge.threeway.merge`
returned: the protected side's bytes, unchanged, plus appended entries.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from changelog_tool.errors import ChangelogError


def replace_file(path: Path, data: bytes) -> None:
    try:
        mode = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
        os.fchmod(fd, mode)
        os.close(fd)
        fd = -1
        os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    if path.read_bytes() != data:
        raise ChangelogError(f"read-back of {path} does not match what was written; check the disk")
