"""The `changelog add` app: wiring between the widgets and :class:`AddSession`."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import App, ComposeResult, SuspendNotSupported, SystemCommand
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Checkbox, Footer, Input, Label, TextArea
from textual.worker import WorkerFailed

from changelog_tool.authoring import drafts
from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.editor import Editing, EditorFailed, edit_description
from changelog_tool.authoring.rows import Reach, preselected, suggested_scenarios
from changelog_tool.authoring.session import AddSession, Preview, appended_message
from changelog_tool.errors import ChangelogError, ConcurrentChange
from changelog_tool.settings import Settings
from changelog_tool.tui import texts
from changelog_tool.tui.keys import KeyList, KeyPicker
from changelog_tool.tui.leaving import Outcome, backstop, keep, leave, route_signals
from changelog_tool.tui.screens import INTERRUPT, LEAVE, ConfirmLeave, HelpScreen
from changelog_tool.tui.widgets import AddScreen, EntryForm, Pane, Problem, take_selection

POINTS_SLICE = 0.02  # seconds of counting benchmark points between two turns of the loop


def _stamp(event: str) -> None:
    """Append ``event time cpu`` to the file named by $PERF_CHANGELOG_TIMING (benchmarks)."""
    target = os.environ.get("PERF_CHANGELOG_TIMING")
    if target:
        with open(target, "a", encoding="utf-8") as handle:
            handle.write(f"{event} {time.time():.6f} {time.process_time():.6f}\n")


class AddApp(App[Outcome]):
    CSS_PATH = "app.tcss"
    TITLE = "changelog add"
    BINDINGS: ClassVar[list[BindingType]] = [
        # a binding with a tooltip is a command of the palette too (get_system_commands)
        Binding("ctrl+s", "save", "Save", priority=True, tooltip="Save: append the entry"),
        Binding(
            "escape",
            "leave",
            "Leave",
            key_display="esc/^c",
            tooltip="Leave without writing (typed answers are kept as a draft)",
        ),
        Binding("ctrl+q", "leave", "Leave", show=False, priority=True),
        # Textual's own ctrl+c copies a selection, else only hints at a "quit" binding
        # this app does not have (so it did nothing); people press it to get out.
        Binding("ctrl+c", "interrupt", "Leave", show=False, priority=True),
        Binding(
            "f2",
            "toggle_pane",
            "Preview",
            tooltip="Show the preview or the previous entries for the keys",
        ),
        Binding(
            "ctrl+e",
            "edit_description",
            "$EDITOR",
            priority=True,  # over the text area's line end
            tooltip="Write the description in $VISUAL / $EDITOR",
        ),
        Binding("ctrl+t", "toggle_dark", "Theme", tooltip="Switch the light or dark theme"),
        Binding("f1", "help", "Help", tooltip="Help: every key, and how an entry is built"),
        # a text field takes ? as a character: it is help only outside one
        Binding("question_mark", "help", "Help", show=False),
    ]

    def __init__(
        self,
        settings: Settings,
        path: Path,
        *,
        base: str | None = None,
        prefill: Draft | None = None,
        init: bool = False,
    ) -> None:
        """The app for one `changelog add` run: flags prefill the answers, over a kept draft."""
        session = AddSession(settings, path, base=base, init=init)  # may refuse: before Textual
        super().__init__()
        self.session = session
        self.initial, self.note = prefill or Draft(), ""
        kept = drafts.load(path)
        if kept is not None:
            self.initial = kept[0].overlay(self.initial)
            self.note = f"Restored your unsaved answers ({kept[1]})."
        self.baseline = self.initial
        self.showing_history = False
        self.before_pane: Widget | None = None  # the focus before f2 showed the pane
        self.live = False  # the preview follows the answers once the keys are on screen
        self.unroute_signals: Callable[[], None] | None = None
        self.toasted: set[str] = set()  # the problems the "Not saved" toast reports
        self.crashed: BaseException | None = None  # the first exception not handled
        self.editing: Editing | None = None  # the editor ctrl+e runs, while it runs

    # --- building ---------------------------------------------------------------------
    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        """A command per binding with a tooltip, not Textual's (whose Quit skips the draft)."""
        for binding in self.BINDINGS:
            if isinstance(binding, Binding) and binding.tooltip:
                yield SystemCommand(
                    binding.tooltip,
                    f"key: {binding.key_display or binding.key}",
                    partial(self.run_action, binding.action),
                )

    def get_default_screen(self) -> Screen[None]:
        return AddScreen(id="_default")

    def compose(self) -> ComposeResult:
        with Vertical(id="panels"):  # scrolls when the screen is too small for them
            yield KeyPicker(self.session.pattern_matches, id="picker")
            yield EntryForm(id="form")
            yield Pane(id="pane")
        yield Label("", id="status")
        yield Footer(show_command_palette=False)  # f1 Help would not fit in 80 columns

    def on_load(self) -> None:
        # before the terminal enters application mode, so a signal always restores it
        self.unroute_signals = route_signals(self.signalled)

    def on_unmount(self) -> None:  # the app's: after Textual has restored the terminal
        if self.unroute_signals is not None:
            self.unroute_signals()

    def on_mount(self) -> None:
        if os.environ.get("COLORFGBG", "").split(";")[-1] in ("7", "15"):  # fg;bg: bg is light
            self.theme = "textual-light"
        form = self.query_one(EntryForm)
        form.load(self.initial, self.session.settings.placeholder_link())
        picker = self.query_one(KeyPicker)
        picker.set_rows([], self.initial.keys)
        picker.query_one(KeyList).loading = True
        self.baseline = self.current_draft()

    def on_ready(self) -> None:
        """The first frame is on the terminal: the diff starts; the pane shows the file's tail."""
        _stamp("first-paint")
        self.load_changes()
        self.query_one(Pane).show(
            *texts.preview_pane(self.session, Draft(), Preview(Reach([], [])))
        )
        # a note stands in the status line (not a toast, which would cover the form)
        looking = self.note or "Looking for the keys this branch changed..."
        self.query_one("#status", Label).update(Content(looking))

    @work(exclusive=True)
    async def load_changes(self) -> None:
        loaded = await asyncio.to_thread(self.session.load)  # not shown once cancelled
        picker = self.query_one(KeyPicker)
        picker.query_one(KeyList).loading = False
        picker.set_completions(self.session.master_keys)
        chosen = list(self.initial.keys) or preselected(loaded.rows)
        picker.set_rows(loaded.rows, chosen)
        picker.border_title = texts.keys_title(loaded)
        if not self.initial.scenario_types:
            self.query_one(EntryForm).set_scenarios(suggested_scenarios(loaded.rows, chosen))
        if not loaded.rows:
            self.query_one("#pattern", Input).focus()
        self.baseline = self.current_draft()
        self.call_after_refresh(self._keys_shown)

    def _keys_shown(self) -> None:  # then the preview, the other master keys, the history
        _stamp("keys")
        self.live = True
        self.refresh_preview()
        self.call_after_refresh(self.query_one(KeyPicker).add_others, self.session.master_keys)
        self.parse_history()

    @work(thread=True, group="history")
    def parse_history(self) -> None:
        self.session.history()

    # --- the model ------------------------------------------------------------------------
    def current_draft(self) -> Draft:
        keys = self.query_one(KeyPicker).to_model()
        return self.query_one(EntryForm).to_model(keys)

    def refresh_preview(self) -> None:
        draft = self.current_draft()
        preview = self.session.preview(draft)
        # the restored-draft note stays in the status line until the answers change
        note = self.note if draft == self.baseline else ""
        self.query_one("#status", Label).update(Content(note) if note else texts.status(preview))
        keys_problems, form_problems = texts.problems(preview, self.session.loaded)
        self.query_one("#keys-problem", Problem).show(keys_problems)
        self.query_one("#form-problem", Problem).show(form_problems)
        if self.toasted and not self.toasted <= set(preview.problems):
            self.toasted = set()  # a problem the toast reports is fixed: the toast goes
            self.clear_notifications()
        if self.showing_history:
            self.query_one(Pane).show(*texts.history_pane(self.session, draft.keys), history=True)
        else:
            self.query_one(Pane).show(*texts.preview_pane(self.session, draft, preview))
        if preview.reach.pending:
            self.count_points(preview.reach.pending)

    @work(exclusive=True, group="points")
    async def count_points(self, keys: list[str]) -> None:
        """The points the preview left, a slice per turn of the screen's loop, then preview."""
        left = list(reversed(keys))
        while left:
            until = time.monotonic() + POINTS_SLICE
            while left and time.monotonic() < until:
                self.session.points(left.pop())
            await asyncio.sleep(0)  # the keys typed meanwhile are handled here
        self.refresh_preview()

    # --- ending: saved, left, interrupted, crashed -------------------------------------
    def _handle_exception(self, error: Exception) -> None:
        """An uncaught exception ends the app without Textual's traceback, for run_add to raise."""
        if self.crashed is None:
            self.crashed = error.error if isinstance(error, WorkerFailed) else error
        super()._handle_exception(error)
        self._exit_renderables.clear()

    def action_interrupt(self) -> None:
        """ctrl+c: copy a selection if any, else leave as esc does (exit 130); in the leave
        question it answers "leave"."""
        if isinstance(self.screen, ConfirmLeave):
            self.screen.dismiss(INTERRUPT)
            return
        copied = take_selection(self.focused, self.screen)
        if copied:
            self.copy_to_clipboard(copied)
            self.notify("ctrl+c again leaves", title="Copied the selection", timeout=4)
            return
        self.action_leave(interrupted=True)

    def action_leave(self, interrupted: bool = False) -> None:
        draft = self.current_draft()

        def answered(answer: str | None) -> None:
            if answer in (LEAVE, INTERRUPT):
                signum = signal.SIGINT if interrupted or answer == INTERRUPT else None
                self.exit(leave(self.session.path, draft, self.baseline, signum))

        if draft == self.baseline:
            answered(LEAVE)
        else:
            self.push_screen(ConfirmLeave(keep=draft.has_text()), answered)

    def signalled(self, signum: int) -> None:
        """SIGINT, SIGTERM or SIGHUP: leave at once, keeping typed answers (see :mod:`.leaving`)."""
        if self.return_value is not None:
            return
        if self.editing is not None:  # ended too; the answers are those from before it
            self.editing.stop()
        try:
            draft = self.current_draft()
        except NoMatches:  # the form is not there yet: nothing was typed
            draft = self.baseline
        outcome = leave(self.session.path, draft, self.baseline, signum)  # the draft first
        if not self.is_headless:  # a real terminal: see leaving.py
            backstop(outcome.code)
        self.exit(outcome)

    def action_save(self) -> None:
        """ctrl+s: append and end; a failed save writes nothing and keeps the answers (a draft)."""
        draft = self.current_draft()
        path = self.session.path
        try:
            result = self.session.save(draft)
        except ConcurrentChange as exc:
            kept = keep(path, draft)
            try:
                self.session.reload()
            except (ChangelogError, OSError) as refused:
                self._not_saved(draft, refused, kept)
                return
            self.parse_history()  # the file was read again: its entries, off the screen's thread
            self.refresh_preview()
            self.notify(
                f"{exc}. Your answers are kept; the preview now shows the current "
                f"file: check it and press ctrl+s again. {kept}".rstrip(),
                severity="warning",
                timeout=15,
            )
            return
        except (ChangelogError, OSError) as exc:
            self._not_saved(draft, exc, keep(path, draft) if draft.has_text() else "")
            return
        with contextlib.suppress(OSError):  # saved: a draft that stays is only offered again
            drafts.discard(path)
        self.exit(Outcome(0, appended_message(result, path)))

    def _not_saved(self, draft: Draft, error: Exception, kept: str) -> None:
        self.refresh_preview()
        message = texts.not_saved(self.session.path, error, kept)
        self.notify(message, title="Not saved", severity="error", timeout=15)
        self.toasted = set(self.session.problems(draft))

    # --- events ---------------------------------------------------------------------------
    @on(KeyPicker.Changed)
    @on(TextArea.Changed)
    @on(Checkbox.Changed)
    @on(Input.Changed, "#form Input")  # not the key picker's filter and add field
    def _answers_changed(self) -> None:
        if self.live:  # before, the form is being filled in: _keys_shown builds it once
            self.refresh_preview()

    def action_toggle_pane(self) -> None:
        """The preview or the previous entries; on a short screen f2 also cycles the panels."""
        screen = self.screen
        if not screen.has_class("-short"):
            self.showing_history = not self.showing_history
        elif not screen.has_class("-pane-shown"):
            self.showing_history = False
            self.before_pane = self.focused
            screen.add_class("-pane-shown")
            self.query_one("#pane-scroll").focus()
        elif not self.showing_history:
            self.showing_history = True
        else:
            self.showing_history = False
            screen.remove_class("-pane-shown")
            (self.before_pane or self.query_one("#description")).focus()
        self.refresh_preview()

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    async def action_edit_description(self) -> None:
        """ctrl+e: the description in $VISUAL / $EDITOR, the screen suspended (see editor.py)."""
        form = self.query_one(EntryForm)
        before = form.to_model([]).description
        self.editing = Editing()
        failed: EditorFailed | None = None
        lines = before
        try:
            with self.suspend():
                try:
                    lines = await asyncio.to_thread(edit_description, before, editing=self.editing)
                except EditorFailed as exc:  # inside: the screen must come back first
                    failed = exc
        except SuspendNotSupported:
            self.notify("this terminal cannot hand over to an editor", severity="error")
            return
        finally:
            self.editing = None
        if self.return_value is not None:  # a signal ended the app meanwhile
            return
        if failed is not None:
            self.notify(str(failed), title="Editor", severity="error", timeout=15)
            return
        form.set_description(lines)
        self.query_one("#description", TextArea).focus()
