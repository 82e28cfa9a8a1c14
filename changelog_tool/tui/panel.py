"""A panel of the add screen: a bordered box with a title that lights up (the class
``-focus``, styled in app.tcss) while a widget inside it has the focus. A class set on
focus changes restyles that panel alone, where a ``:focus-within`` rule would restyle
far more of the screen on every focus change (and slow down the first paint)."""

from __future__ import annotations

from textual import events
from textual.containers import Vertical


class Panel(Vertical):
    def __init__(self, *, id: str | None = None, focused: bool = False) -> None:
        """``focused``: lit from the start (the panel that gets the focus on mount, so
        the first paint does not restyle it)."""
        super().__init__(id=id, classes="panel -focus" if focused else "panel")

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self._relight()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        self._relight()

    def _relight(self) -> None:
        """Lit while the focus is inside (asked, not assumed: a blur inside the panel
        may arrive after the focus of its neighbour)."""
        focused = self.screen.focused
        self.set_class(focused is not None and self in focused.ancestors, "-focus")
