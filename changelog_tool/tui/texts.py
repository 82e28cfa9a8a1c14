"""What the add screen says, as styled text: the keys' title, the status line, the preview and
history panes."""

from __future__ import annotations

import errno
from pathlib import Path

from textual.content import Content

from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.rows import plural, preselected
from changelog_tool.authoring.session import AddSession, Loaded, Preview, preview_lines
from changelog_tool.ledger.document import first_appended_line
from changelog_tool.ledger.filecheck import format_text


def keys_title(loaded: Loaded) -> str:
    """The key panel's title: what was diffed against which base, and what to cover."""
    if loaded.changes is None:
        return "Keys: could not diff the master configs; add keys by hand"
    base = (loaded.changes.base or "?")[:8]
    if not loaded.rows:
        return f"Keys: nothing changed since {base}; add keys by hand"
    need = len(preselected(loaded.rows))
    covered = sum(1 for r in loaded.rows if r.covered)
    text = f"Changed keys since {base}: {len(loaded.rows)} ({need} to cover"
    return text + (f", {covered} already covered)" if covered else ")")


def status(preview: Preview) -> Content:
    """The line under the panes: the problems and their fields, or that ctrl+s would save."""
    if preview.problems:
        count = len(preview.problems)
        fields = ", ".join(preview.by_field)
        text = f"✗ {count} {plural(count, 'problem')} to fix before ctrl+s: {fields}"
        return Content.styled(text, "$text-error")
    return Content.styled("✓ ready: ctrl+s appends the preview", "$text-success")


def problems(preview: Preview, loaded: Loaded | None) -> tuple[str, str]:
    """The problems under the key list (once the keys load; with why none changed shows when
    the diff failed) and under the form (every other field's)."""

    def lines(*fields: str) -> list[str]:
        return [f"✗ {name}: {text}" for name in fields for text in preview.by_field.get(name, [])]

    keys = []
    if loaded is not None:
        keys = [f"✗ {loaded.problem}"] if loaded.changes is None and loaded.problem else []
        keys += lines("config-keys")
    others = [name for name in preview.by_field if name != "config-keys"]
    return "\n".join(keys), "\n".join(lines(*others))


SHOWN_KEYS = 50
"""Keys listed one per line under the preview; the rest are counted on one line (a
pattern can reach thousands, and the pane renders every line it holds)."""


def runs(preview: Preview) -> tuple[Content, list[Content]]:
    """What the entry runs: the total with warnings, and a line per key (the first
    :data:`SHOWN_KEYS`, then one for the rest)."""
    reach = preview.reach
    if not reach.keys:
        return Content(""), []
    note = Content.styled(f"Runs: {reach.summary()}", "bold")
    for warning in reach.warnings:
        note += Content("\n") + Content.styled(f"⚠ {warning}", "$text-warning")
    shown, rest = reach.keys[:SHOWN_KEYS], reach.keys[SHOWN_KEYS:]
    width = min(max(len(k.key) for k in shown), 44)
    lines = []
    for key in shown:
        each = ", ".join(f"{kind} {count}" for kind, count in key.points.items())
        if not key.counted:
            each = "counting..."
        elif not key.known:
            each = "points unknown (the key does not parse)"
        elif not key.points:
            each = "no scenario of the named types"
        lines.append(
            Content.styled(f"  {key.key.ljust(width)} ", "$text-muted")
            + Content(f"{each}" + (f" = {key.total}" if len(key.points) > 1 else ""))
        )
    if rest:
        points = sum(key.total for key in rest)
        unknown = sum(not key.known for key in rest)
        counting = sum(not key.counted for key in rest)
        more = (
            f"  ... and {len(rest):,} more {plural(len(rest), 'key')}: "
            f"{points:,} {plural(points, 'benchmark point')}"
        )
        asides = [f"{unknown:,} of them with points unknown"] if unknown else []
        if counting:
            more += " so far"
            asides.append(f"{counting:,} of them still being counted")
        if asides:
            more += f" ({'; '.join(asides)})"
        lines.append(Content.styled(more, "$text-muted"))
    return note, lines


Pane = tuple[str, Content, Content]
"""A pane's title, note (wraps) and body."""


def preview_pane(session: AddSession, draft: Draft, preview: Preview) -> Pane:
    """The bytes to append, numbered and marked ``+``, after the file's last lines, and what
    they run."""
    where = first_appended_line(session.old.count(b"\n"), session.old[-2:])
    title = f"Preview: appended at line {where} of {session.path.name}"
    if preview.refused:  # the file is not shown: where it leads now is not the checkout's
        return title, Content(""), Content.styled(f"✗ {preview.refused}", "$text-error")
    note, per_key = runs(preview)
    lines = []
    appended = preview.appended if draft.keys else b""  # none without keys
    for number, text, new in preview_lines(session.old, appended):
        gutter = Content.styled(f"{number:>5} {'+' if new else ' '} ", "$text-muted")
        lines.append(gutter + Content.styled(text, "" if new else "$text-muted"))
    if per_key:
        lines.append(Content(""))
        per_type = preview.reach.per_type
        if len(per_type) > 1:
            each = ", ".join(f"{kind} {count:,}" for kind, count in per_type.items())
            lines.append(Content.styled("Benchmark points per type: ", "bold") + Content(each))
        lines += [Content.styled("Benchmark points per key:", "bold"), *per_key]
    return title, note, Content("\n").join(lines)


def not_saved(path: Path, error: Exception, kept: str) -> str:
    """The "Not saved" message: what failed, that nothing was written, then ``kept``."""
    if isinstance(error, OSError):
        fix = "Free some space" if error.errno in (errno.ENOSPC, errno.EDQUOT) else "Fix that"
        text = (
            f"could not write {path}: {error.strerror or error}; nothing was written. {fix}, "
            "then press ctrl+s again: your answers are still here"
        )
    else:
        text = str(error)
    return f"{text}. {kept}" if kept else text


def history_pane(session: AddSession, keys: list[str]) -> Pane:
    found = session.history_for(keys)
    title = f"Previous entries for the chosen keys: {len(found)}, newest first"
    body = (
        format_text(found[:50], session.path.name, keys)
        if found
        else ("no previous entry applies to the chosen keys" if keys else "no key chosen")
    )
    return title, Content(""), Content(body)
