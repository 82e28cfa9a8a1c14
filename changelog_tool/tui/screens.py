"""The app's modal screens: the help (f1, or ? outside a text field), and the one question the
app asks itself: leave with unsaved answers?"""

from __future__ import annotations

from importlib.resources import files
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Markdown

from changelog_tool.gate.acceptance import BROAD_PATTERN_EXTRA_KEYS
from changelog_tool.ledger.entryschema import FLAG, INTEGER, current
from changelog_tool.tui.keys import FILTER_FROM


class HelpScreen(ModalScreen[None]):
    """``help.md``, then the flags and integer fields of the entry schema in use."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,q,question_mark", "dismiss")]

    def compose(self) -> ComposeResult:
        schema = current()
        where = schema.source or "schema/perf-changelog.schema.json"
        lines = [f"- **Flags and numbers** (from the entry schema, {where}):"]
        lines += [
            f"  - `{f.name}`" + (f": {f.description}" if f.description else "")
            for f in schema.fields
            if f.kind in (FLAG, INTEGER)
        ]
        help_md = (files("changelog_tool.tui") / "help.md").read_text(encoding="utf-8")
        text = help_md.format(
            FILTER_FROM=FILTER_FROM, BROAD_PATTERN_EXTRA_KEYS=BROAD_PATTERN_EXTRA_KEYS
        )
        with VerticalScroll(id="help"):
            yield Markdown(text + "\n".join(lines) + "\n")


LEAVE = "leave"
STAY = "stay"
INTERRUPT = "interrupt"  # ctrl+c (the app's binding answers with it)


class ConfirmLeave(ModalScreen[str]):
    """Answers :data:`LEAVE`, :data:`STAY` or :data:`INTERRUPT`."""

    AUTO_FOCUS = "#stay"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,l", f"dismiss('{LEAVE}')", "Leave"),
        Binding("n,s,escape", f"dismiss('{STAY}')", "Stay"),
    ]

    def __init__(self, *, keep: bool) -> None:
        super().__init__()
        self.keep = keep

    def compose(self) -> ComposeResult:
        kept = (
            "Your answers are kept as a draft and offered next time."
            if self.keep
            else "Your changes to the answers are dropped."
        )
        with Vertical(id="confirm"):
            yield Label("Leave without saving? Nothing is written to the changelog.")
            yield Label(kept)
            with Horizontal(id="confirm-buttons"):
                yield Button("Leave (y/^c)", variant="warning", action=f"screen.dismiss('{LEAVE}')")
                yield Button(
                    "Stay (n)", id="stay", variant="primary", action=f"screen.dismiss('{STAY}')"
                )
