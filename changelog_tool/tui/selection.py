"""Text selected on the screen, taken for ctrl+c to copy (so a second ctrl+c leaves)."""

from __future__ import annotations

from typing import TypeVar

from textual.app import App
from textual.widgets import Input, TextArea
from textual.widgets.input import Selection as InputSelection
from textual.widgets.text_area import Selection as AreaSelection

Result = TypeVar("Result")


def take_selection(app: App[Result]) -> str:
    """The selected text ("" when nothing is selected), leaving nothing selected."""
    focused = app.focused
    if isinstance(focused, TextArea) and focused.selected_text:
        text = focused.selected_text
        focused.selection = AreaSelection.cursor(focused.selection.end)
        return text
    if isinstance(focused, Input) and focused.selected_text:
        text = focused.selected_text
        focused.selection = InputSelection.cursor(focused.cursor_position)
        return text
    text = app.screen.get_selected_text() or ""
    if text:
        app.screen.clear_selection()
    return text
