"""``add``'s append of entries (flags, ``--json``, ``--dry-run``) through the one append
(:func:`changelog_tool.ledger.writer.append`), and what an append says when done."""

from __future__ import annotations

import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from changelog_tool.errors import relative
from changelog_tool.findings import dump_json, format_text
from changelog_tool.ledger import writer
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.filecheck import HeldLines


def append_entries(
    entries: Sequence[Mapping[str, object]],
    *,
    path: Path,
    dry_run: bool,
    init: bool,
    as_json: bool,
    bounds: writer.Bounds | None = None,
    held: HeldLines | None = None,
) -> int:
    """``add``'s append (or, ``dry_run``, the bytes it would append), said as text or JSON."""
    blocks = [emit(entry) for entry in entries]
    result = writer.append(
        path, blocks, held=held, create=init, bounds=bounds or writer.Bounds(), dry_run=dry_run
    )
    sizes = [result.old_size, result.new_size]
    done: dict[str, object] = (
        {"appended": result.appended.decode("utf-8"), "bytes": sizes}
        if dry_run
        else {"lines": list(result.entry_lines), "bytes": sizes}
    )
    if as_json:
        document = {"ok": True, "dry_run": dry_run, "path": str(path), **done}
        print(dump_json({**document, "warnings": [f.to_json() for f in result.warnings]}))
        return 0
    for line in format_text(list(result.warnings)).splitlines():
        print(f"changelog: warning: {line}", file=sys.stderr)
    if dry_run:
        sys.stdout.buffer.write(result.appended)
        sys.stdout.flush()
    else:
        print(appended_message(result, path, len(entries)))
    return 0


def appended_message(result: writer.Appended, path: Path, count: int = 1) -> str:
    """What an append of ``count`` entries says when done (``add`` and the TUI's save)."""
    where = ", ".join(str(line) for line in result.entry_lines)
    noun = "entry" if count == 1 else "entries"
    return (
        f"appended {count} {noun} to {relative(path)} at line {where} "
        f"(bytes {result.old_size}..{result.new_size})"
    )
