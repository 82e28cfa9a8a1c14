"""The key list: changed keys on top, hand-added keys and patterns, then every other master key,
with a filter and an add field that counts the keys a pattern names."""

from __future__ import annotations

from collections.abc import Callable

from rich.segment import Segment
from textual import events, on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.strip import Strip
from textual.suggester import Suggester
from textual.widgets import Input, Label, SelectionList
from textual.widgets.selection_list import Selection

from changelog_tool.authoring.rows import KeyRow
from changelog_tool.tui.widgets import Problem

FILTER_FROM = 150  # with this many master keys or more, a filter box narrows the key list


class KeySuggester(Suggester):
    """Completes a typed key from the master keys (accept with the right arrow)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.keys: list[str] = []  # set once the changed keys show

    async def get_suggestion(self, value: str) -> str | None:
        return next((k for k in self.keys if k.startswith(value) and k != value), None)


class KeyList(SelectionList[str]):
    """The key list, ticked with ``✓``/blank; taking the focus highlights a row."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        index = self.scroll_offset.y + y
        segments = list(strip)
        if index >= self.option_count or len(segments) < 3:
            return strip
        on = self.get_option_at_index(index).value in self.selected
        segments[1] = Segment("✓" if on else " ", segments[1].style)
        return Strip(segments, strip.cell_length)

    def on_focus(self, event: events.Focus) -> None:
        if self.highlighted is None and self.option_count:
            self.highlighted = 0


def row_prompt(row: KeyRow, width: int = 40, match_count: int | None = None) -> Content:
    if row.other:
        return Content.assemble("  ", (row.key, "$text-muted"))
    detail = row.detail(match_count)
    style = "$text-muted" if row.covered or (row.change and not row.change.needs_entry) else ""
    return Content.assemble(
        (f"{row.mark} ", "bold"),
        (row.key.ljust(width), f"bold {style}".strip()),
        " ",
        (detail, "$text-muted" if style else "$text-accent"),
    )


class KeyPicker(Vertical):
    """The key panel: ``rows`` every row in order, ``chosen`` what is ticked (filtered or not)."""

    DEFAULT_CLASSES = "panel"

    class Changed(Message):
        """The chosen keys changed."""

    def __init__(self, matches: Callable[[str], list[str]], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.matches = matches  # the master keys a typed key or pattern names
        self.border_title = "Keys: looking for changed keys..."
        self.rows: list[KeyRow] = []
        self.chosen: set[str] = set()
        self.prompts: dict[str, Content] = {}
        self.suggester = KeySuggester()

    def compose(self) -> ComposeResult:
        yield Input(id="filter", compact=True, placeholder="filter: type part of a key name")
        yield Problem("", id="no-match")
        yield KeyList(id="keys")
        with Horizontal(id="pattern-row", classes="row"):
            yield Label("Add key/pattern ", classes="field-label")
            yield Input(
                id="pattern",
                compact=True,
                suggester=self.suggester,
                placeholder="a key, or a pattern with * (enter adds it)",
            )
            yield Label("", id="match-count")
        yield Problem("", id="keys-problem", classes="problem")

    def set_completions(self, keys: list[str]) -> None:
        self.suggester.keys = keys
        self.query_one("#filter").display = len(keys) >= FILTER_FROM

    def set_rows(self, rows: list[KeyRow], chosen: list[str]) -> None:
        """The changed keys' ``rows``, then the ``chosen`` keys and patterns not among them."""
        known = {r.key for r in rows}
        self.rows = [*rows, *(KeyRow(k) for k in chosen if k not in known)]
        self.chosen = set(chosen)
        width = min(max((len(r.key) for r in self.rows), default=20), 44)
        self.prompts = {r.key: row_prompt(r, width) for r in self.rows}
        self._show()

    def add_others(self, keys: list[str]) -> None:  # once the changed keys show
        known = {r.key for r in self.rows}
        rows = [KeyRow(k, other=True) for k in keys if k not in known]
        self.rows += rows
        self.prompts.update((r.key, row_prompt(r)) for r in rows)
        self._show()

    def _show(self, highlight: str | None = None) -> None:
        """The rows the filter lets through, ticked as chosen."""
        keys = self.query_one(KeyList)
        typed = self.query_one("#filter", Input).value.strip()
        text = typed.lower()
        shown = [r for r in self.rows if text in r.key.lower()]
        if highlight is None and keys.highlighted is not None and keys.option_count:
            highlight = keys.get_option_at_index(keys.highlighted).value
        keys.clear_options()
        keys.add_options(
            [Selection(self.prompts[r.key], r.key, r.key in self.chosen, id=r.key) for r in shown]
        )
        where = next((i for i, r in enumerate(shown) if r.key == highlight), None)
        if where is not None:
            keys.highlighted = where
            keys.scroll_to_highlight()
        hint = f'No key name contains "{typed}": change or shorten the filter'
        self.query_one("#no-match", Problem).show(hint if text and not shown else "")

    def to_model(self) -> list[str]:
        return [r.key for r in self.rows if r.key in self.chosen]

    @on(SelectionList.SelectedChanged, "#keys")
    def _keys_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        keys = event.selection_list
        shown = {keys.get_option_at_index(i).value for i in range(keys.option_count)}
        chosen = (self.chosen - shown) | set(keys.selected)
        if chosen != self.chosen:
            self.chosen = chosen
            self.post_message(self.Changed())

    @on(Input.Changed, "#filter")
    def _filter_changed(self) -> None:
        self._show()

    @on(Input.Submitted, "#filter")
    def _filter_submitted(self) -> None:
        self.query_one(KeyList).focus()

    @on(Input.Changed, "#pattern")
    def _pattern_changed(self, event: Input.Changed) -> None:
        pattern = event.value.strip()
        count = len(self.matches(pattern))
        noun = "key matches" if count == 1 else "keys match"
        self.query_one("#match-count", Label).update(f" {count} {noun}" if pattern else "")

    @on(Input.Submitted, "#pattern")
    def _pattern_submitted(self, event: Input.Submitted) -> None:
        """Tick the key typed, adding it after the changed and hand-added rows when missing."""
        key = event.value.strip()
        if not key:
            return
        if not any(r.key == key for r in self.rows):
            at = next((i for i, r in enumerate(self.rows) if r.other), len(self.rows))
            self.rows.insert(at, KeyRow(key))
            self.prompts[key] = row_prompt(KeyRow(key), 40, len(self.matches(key)))
        self.chosen.add(key)
        self.query_one("#filter", Input).value = ""
        self._show(highlight=key)
        self.post_message(self.Changed())
        event.input.value = ""
