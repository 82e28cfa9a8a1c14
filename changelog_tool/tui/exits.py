"""How the add screen is left without saving, as app actions: esc, ctrl+q, ctrl+c (with
the leave question) and signals from outside (see :mod:`.leaving` for the rules)."""

from __future__ import annotations

import signal

from textual.app import App
from textual.css.query import NoMatches

from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.session import AddSession
from changelog_tool.errors import INTERRUPTED as INTERRUPTED_CODE
from changelog_tool.tui.dialogs import INTERRUPT, LEAVE, ConfirmLeave
from changelog_tool.tui.leaving import (
    INTERRUPTED,
    LEFT_CODE,
    SIGNALS,
    Outcome,
    backstop,
    leave,
    signal_code,
)
from changelog_tool.tui.selection import take_selection


class LeavingApp(App[Outcome]):
    """The leaving half of the add app: it needs the session, the answers as the
    screen opened with them (``baseline``) and the answers now (``current_draft``)."""

    session: AddSession
    baseline: Draft

    def current_draft(self) -> Draft:
        raise NotImplementedError

    def action_interrupt(self) -> None:
        """ctrl+c: copy a selection if there is one; otherwise leave as esc does (asking
        first when something was typed), and the process exits with 130. In the leave
        question it answers "leave", so ctrl+c twice always gets out, the draft kept."""
        if isinstance(self.screen, ConfirmLeave):
            self.screen.dismiss(INTERRUPT)
            return
        copied = take_selection(self)
        if copied:
            self.copy_to_clipboard(copied)
            self.notify("ctrl+c again leaves", title="Copied the selection", timeout=4)
            return
        self.action_leave(interrupted=True)

    def action_leave(self, interrupted: bool = False) -> None:
        draft = self.current_draft()
        if draft == self.baseline:
            self._leave(draft, interrupted)
            return

        def answered(answer: str | None) -> None:
            if answer in (LEAVE, INTERRUPT):
                self._leave(draft, interrupted or answer == INTERRUPT)

        self.push_screen(ConfirmLeave(keep=draft.has_text()), answered)

    def _leave(self, draft: Draft, interrupted: bool) -> None:
        code, how = (INTERRUPTED_CODE, INTERRUPTED) if interrupted else (LEFT_CODE, "")
        self.exit(leave(self.session.path, draft, self.baseline, code, how))

    def signalled(self, signum: int) -> None:
        """SIGINT, SIGTERM or SIGHUP from outside: leave at once, keeping typed answers
        (see :mod:`changelog_tool.tui.leaving`); nothing once the app has its outcome."""
        if self.return_value is not None:
            return
        try:
            draft = self.current_draft()
        except NoMatches:  # the form is not there yet: nothing was typed
            draft = self.baseline
        code, how = signal_code(signum), SIGNALS[signal.Signals(signum)]
        outcome = leave(self.session.path, draft, self.baseline, code, how)  # the draft first
        if not self.is_headless:  # a real terminal: see leaving.py
            backstop(code)
        self.exit(outcome)
