"""Appending entries: the one operation behind ``add``'s flags, ``--json``, ``--dry-run`` and the
TUI's save; only the output differs."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.errors import UsageError, relative
from changelog_tool.findings import Finding
from changelog_tool.ledger import writer
from changelog_tool.ledger.document import read_file, regular_file
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.filecheck import HeldLines


@dataclass(frozen=True)
class Planned:
    """What an append would write: after the file's ``size`` bytes, ``appended``."""

    size: int
    appended: bytes
    warnings: tuple[Finding, ...] = ()


def plan(
    entries: Sequence[Mapping[str, object]],
    path: Path,
    *,
    init: bool,
    bounds: writer.Bounds,
    held: HeldLines | None = None,
) -> Planned:
    """The bytes :func:`append` would write now (nothing is written)."""
    if regular_file(path, missing_ok=True) is None:
        if not init:
            raise UsageError(
                f"{relative(path)} does not exist; pass --init to create it, or --file to name "
                "another"
            )
        data, warnings = b"", []
    else:
        data = read_file(path, limit=bounds.limit)
        warnings = writer.check_appendable(data, str(path), held)
    blocks = [emit(entry) for entry in entries]
    appended = writer.plan_append(data, blocks, path=path)
    return Planned(len(data), appended, tuple(warnings))


def append(
    entries: Sequence[Mapping[str, object]],
    path: Path,
    *,
    init: bool,
    bounds: writer.Bounds,
    held: HeldLines | None = None,
    expected: bytes | None = None,
) -> writer.Appended:
    """Append the entries (:func:`changelog_tool.ledger.writer.append`); ``expected``: the bytes
    the caller previewed."""
    blocks = [emit(entry) for entry in entries]
    return writer.append(path, blocks, held=held, expected=expected, create=init, bounds=bounds)


def appended_message(result: writer.Appended, path: Path, count: int = 1) -> str:
    """What an append of ``count`` entries says when done (``add`` and the TUI's save)."""
    where = ", ".join(str(line) for line in result.entry_lines)
    noun = "entry" if count == 1 else "entries"
    return (
        f"appended {count} {noun} to {relative(path)} at line {where} "
        f"(bytes {result.old_size}..{result.new_size})"
    )
