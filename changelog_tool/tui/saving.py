"""How the add screen saves: ctrl+s appends the entry and ends the app; a save that
fails keeps the app open with the answers (see :meth:`SavingApp.action_save`)."""

from __future__ import annotations

import contextlib

from changelog_tool.authoring import drafts
from changelog_tool.authoring.drafts import Draft
from changelog_tool.errors import ChangelogError, ConcurrentChange
from changelog_tool.hints import relative
from changelog_tool.tui import texts
from changelog_tool.tui.exits import LeavingApp
from changelog_tool.tui.leaving import Outcome


class SavingApp(LeavingApp):
    """The saving half of the add app: it needs the answers (``current_draft``) and
    what shows them again (``refresh_preview``, ``reread``)."""

    toasted: set[str]
    """The problems the "Not saved" toast reports."""

    def refresh_preview(self) -> None:
        raise NotImplementedError

    def reread(self) -> None:
        raise NotImplementedError

    def action_save(self) -> None:
        """ctrl+s: append the entry and end. A save that fails (a full disk, a file
        changed or made a link out of the checkout meanwhile) writes nothing, keeps the
        app open with the answers on screen for the next ctrl+s, and keeps them as the
        draft too where that can be written."""
        draft = self.current_draft()
        path = self.session.path
        try:
            result = self.session.save(draft)
        except ConcurrentChange as exc:
            kept = self._keep(draft)
            try:
                self.session.reload()
            except (ChangelogError, OSError) as refused:
                self._not_saved(draft, refused, kept)
                return
            self.reread()
            self.notify(
                f"{exc}. Your answers are kept; the preview now shows the current "
                f"file: check it and press ctrl+s again. {kept}".rstrip(),
                severity="warning",
                timeout=15,
            )
            return
        except (ChangelogError, OSError) as exc:
            self._not_saved(draft, exc, self._keep(draft) if draft.has_text() else "")
            return
        with contextlib.suppress(OSError):  # saved: a draft that stays is only offered again
            drafts.discard(path)
        where = ", ".join(str(line) for line in result.entry_lines)
        self.exit(
            Outcome(
                0,
                f"appended 1 entry to {relative(path)} at line {where} "
                f"(bytes {result.old_size}..{result.new_size})",
            )
        )

    def _keep(self, draft: Draft) -> str:
        """Keep ``draft`` as the draft file; what to tell when it could not be (the
        answers stay in the form either way)."""
        try:
            drafts.save(self.session.path, draft)
        except (ChangelogError, OSError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            return f"The draft could not be kept either ({reason}); the answers stay on screen."
        return ""

    def _not_saved(self, draft: Draft, error: Exception, kept: str) -> None:
        self.refresh_preview()
        message = texts.not_saved(self.session.path, error, kept)
        self.notify(message, title="Not saved", severity="error", timeout=15)
        self.toasted = set(self.session.problems(draft))
