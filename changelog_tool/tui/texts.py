"""What the add screen says about the answers, as styled text: the title over the keys,
the status line, the preview pane and the history pane (the app puts them on screen)."""

from __future__ import annotations

from textual.content import Content

from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.rows import preselected
from changelog_tool.authoring.session import AddSession, Loaded, Preview, preview_lines


def keys_title(loaded: Loaded) -> str:
    """The key list's title: what was diffed against which base, and what to cover."""
    if loaded.changes is None:
        return f"Could not diff the master configs ({loaded.problem}); add keys by hand"
    changes = loaded.changes
    base = (changes.base or "?")[:8]
    if not loaded.rows:
        return f"Nothing changed in the master configs since {base}: add keys by hand"
    need = len(preselected(loaded.rows))
    covered = sum(1 for r in loaded.rows if r.covered)
    text = f"Changed keys since {base}: {len(loaded.rows)} ({need} to cover"
    return text + (f", {covered} already covered)" if covered else ")")


def status(preview: Preview) -> Content:
    """The line under the panes: the first problem, or that ctrl+s would save."""
    if preview.problems:
        more = f" (+{len(preview.problems) - 1} more)" if len(preview.problems) > 1 else ""
        return Content.styled(f"✗ {preview.problems[0]}{more}", "$text-error")
    return Content.styled("✓ ready: ctrl+s appends the preview", "$text-success")


def preview_pane(session: AddSession, draft: Draft, preview: Preview) -> tuple[str, Content]:
    """The preview pane's title and body: every problem when there are several, then
    the bytes ctrl+s appends with the file's last lines around them."""
    lines = (
        [Content.styled(f"✗ {problem}", "$text-error") for problem in preview.problems]
        if len(preview.problems) > 1
        else []
    )
    shown = preview.appended if draft.keys else b""  # no entry without config-keys
    for number, text, new in preview_lines(session.old, shown):
        gutter = Content.styled(f"{number:>5} {'+' if new else ' '} ", "$text-muted")
        lines.append(gutter + Content.styled(text, "" if new else "$text-muted"))
    where = session.old.count(b"\n") + 1
    title = (
        f"Preview: the bytes appended at line {where} of {session.path.name} · f2: previous entries"
    )
    return title, Content("\n").join(lines)


def history_pane(session: AddSession, keys: list[str]) -> tuple[str, Content]:
    """The history pane's title and body: the previous entries for the chosen keys."""
    from changelog_tool.ledger.lookup import format_text

    found = session.history_for(keys)
    title = f"Previous entries for the chosen keys: {len(found)}, newest first · f2: preview"
    body = (
        format_text(found[:50], session.path.name, keys)
        if found
        else ("no previous entry applies to the chosen keys" if keys else "no key chosen")
    )
    return title, Content(body)
