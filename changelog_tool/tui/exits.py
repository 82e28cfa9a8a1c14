"""How the add screen is left without saving, as app actions: esc, ctrl+q, ctrl+c (with
the leave question) and signals from outside (see :mod:`.leaving` for the rules)."""

from __future__ import annotations

import signal

from textual.app import App
from textual.css.query import NoMatches
from textual.worker import WorkerFailed

from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.editor import Editing
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
    crashed: BaseException | None = None
    """The first exception the app did not handle (see :meth:`_handle_exception`)."""
    editing: Editing | None = None
    """The editor ctrl+e runs, while it runs (a signal ends it too)."""

    def _handle_exception(self, error: Exception) -> None:
        """Textual's handler of an exception the app did not catch (in a handler or a
        worker): it ends the app, prints its own traceback and lets ``run()`` return
        as if the app had simply ended, so the command exited 0 (``demo``) or 1. The
        error is kept instead, for :func:`changelog_tool.tui.run_add` to raise once the
        terminal is restored: the CLI's error boundary then says it in one line and
        exits 2 (the traceback with ``--debug``). Textual's printed traceback is
        dropped; a worker's exception is the one its code raised, not Textual's
        wrapper."""
        if self.crashed is None:
            self.crashed = error.error if isinstance(error, WorkerFailed) else error
        super()._handle_exception(error)
        self._exit_renderables.clear()

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
        if self.editing is not None:  # ended too; the answers are those from before it
            self.editing.stop()
        try:
            draft = self.current_draft()
        except NoMatches:  # the form is not there yet: nothing was typed
            draft = self.baseline
        code, how = signal_code(signum), SIGNALS[signal.Signals(signum)]
        outcome = leave(self.session.path, draft, self.baseline, code, how)  # the draft first
        if not self.is_headless:  # a real terminal: see leaving.py
            backstop(code)
        self.exit(outcome)
