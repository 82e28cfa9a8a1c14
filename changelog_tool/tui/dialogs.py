"""The one question the app asks itself: leave with unsaved answers?"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ConfirmLeave(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,l", "answer(True)", "Leave"),
        Binding("n,s,escape", "answer(False)", "Stay"),
    ]

    def __init__(self, *, keep: bool) -> None:
        super().__init__()
        self.keep = keep

    def compose(self) -> ComposeResult:
        kept = ("Your answers are kept as a draft and offered next time." if self.keep
                else "Your changes to the answers are dropped.")
        with Vertical(id="confirm"):
            yield Label("Leave without saving? Nothing is written to the changelog.")
            yield Label(kept)
            with Horizontal(id="confirm-buttons"):
                yield Button("Leave (y)", id="leave", variant="warning")
                yield Button("Stay (n)", id="stay", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "leave")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
