"""The one question the app asks itself: leave with unsaved answers?"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label

LEAVE = "leave"
STAY = "stay"
INTERRUPT = "interrupt"  # ctrl+c (the app's binding answers with it)


class ConfirmLeave(ModalScreen[str]):
    """Answers :data:`LEAVE`, :data:`STAY` or :data:`INTERRUPT`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,l", f"answer('{LEAVE}')", "Leave"),
        Binding("n,s,escape", f"answer('{STAY}')", "Stay"),
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
                yield Button("Leave (y/^c)", id="leave", variant="warning")
                yield Button("Stay (n)", id="stay", variant="primary")

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(LEAVE if event.button.id == "leave" else STAY)

    def action_answer(self, answer: str) -> None:
        self.dismiss(answer)
