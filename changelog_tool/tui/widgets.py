"""The add screen, its form (``to_model()``), its pane and the selection ctrl+c copies; the key
list is in :mod:`.keys`."""

from __future__ import annotations

import contextlib
import re

from textual import events
from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, ScrollableContainer, Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Checkbox, Footer, Input, Label, Static, TextArea
from textual.widgets.input import Selection as InputSelection
from textual.widgets.text_area import Selection as AreaSelection

from changelog_tool.authoring.drafts import Draft
from changelog_tool.ledger.entryschema import FLAG, INTEGER, current

# the appended entry's lines in the preview's body (see texts.preview_pane)
DESCRIPTION = re.compile(r" *\d+ \+   description:")
PR_LINK = re.compile(r" *\d+ \+   pr-link:")

FLAGS_LABEL = "Flags    "
ROW_PADDING = 1  # a form row's left padding (app.tcss)
TICK_EXTRA = 5  # a compact tick's cells beside its label: its button, a space each side
NUMBER_WIDTH = 4  # an integer box's narrowest (app.tcss)


def columns(widths: list[int], room: int) -> int:
    """How many ticks of ``widths`` fit in ``room`` cells, columns as wide as their widest tick."""
    for count in range(len(widths), 1, -1):
        if sum(max(widths[i::count]) for i in range(count)) <= room:
            return count
    return 1


class Problem(Label):
    """A line shown only while it has text: problems, the filter's no-match, the pane's note."""

    def show(self, text: str | Content) -> None:
        self.update(text)
        self.display = bool(text)


class Tick(Checkbox):
    """A checkbox whose state reads without colour: ``✓`` when on, blank when off."""

    def render(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super().render()


class EntryForm(Vertical):
    """Description, scenario types, pr-link, and the schema's flags and integer fields."""

    DEFAULT_CLASSES = "panel"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        schema = current()  # the session put the repository's in use
        self.scenarios = list(schema.scenario_types)
        self.flags = schema.of_kind(FLAG)
        self.integers = schema.of_kind(INTEGER)
        self.border_title = "Entry: description, one bullet per line (ctrl+e: in $EDITOR)"

    def compose(self) -> ComposeResult:
        yield TextArea(
            id="description",
            compact=True,
            soft_wrap=True,
            tab_behavior="focus",
            placeholder="What changed and why, e.g. Bump vLLM image to v0.11.1 "
            "(one bullet per line)",
        )
        yield Problem("", id="form-problem", classes="problem")
        # each row is two groups, side by side on a wide screen, one under the other
        # on a narrow one (see app.tcss)
        with Horizontal(classes="row"):
            with Horizontal(classes="group"):
                yield Label("Scenario ", classes="field-label")
                for name in self.scenarios:
                    yield Tick(name, id=f"scenario-{name}", compact=True)
            with Horizontal(classes="group field"):
                yield Label("  pr-link ", classes="field-label")
                yield Input(id="pr-link", compact=True)
        with Horizontal(classes="row flags"):
            with Horizontal(classes="group"):
                yield Label(FLAGS_LABEL, classes="field-label")
                with Grid(id="flag-ticks"):
                    for flag in self.flags:
                        yield Tick(flag.name, id=f"flag-{flag.name}", compact=True).with_tooltip(
                            flag.description or None
                        )
            for number in self.integers:
                with Horizontal(classes="group field"):
                    yield Label(f" {number.name} ", classes="field-label")
                    box = Input(
                        id=f"number-{number.name}", classes="number", compact=True, type="integer"
                    )
                    yield box.with_tooltip(number.description or None)

    def on_resize(self, event: events.Resize) -> None:
        """As many flag ticks per line as fit beside the integer boxes, the rest below."""
        room = event.size.width - ROW_PADDING - len(FLAGS_LABEL)
        if not self.screen.has_class("-narrow"):
            room -= sum(len(f" {n.name} ") + NUMBER_WIDTH for n in self.integers)
        widths = [len(f.name) + TICK_EXTRA for f in self.flags]
        self.query_one("#flag-ticks", Grid).styles.grid_size_columns = columns(widths, room)

    def load(self, draft: Draft, placeholder: str) -> None:
        self.set_description(draft.description)
        self.set_scenarios(draft.scenario_types)
        self.query_one("#pr-link", Input).value = draft.pr_link or placeholder
        for flag in self.flags:
            self.query_one(f"#flag-{flag.name}", Checkbox).value = flag.name in draft.flags
        for number in self.integers:
            value = draft.numbers.get(number.name, "")
            self.query_one(f"#number-{number.name}", Input).value = str(value)

    def set_description(self, lines: list[str]) -> None:
        """The description's text, with the cursor after it (typing goes on from there)."""
        area = self.query_one("#description", TextArea)
        area.load_text("\n".join(lines))
        area.move_cursor(area.document.end)

    def set_scenarios(self, names: list[str]) -> None:
        for name in self.scenarios:
            self.query_one(f"#scenario-{name}", Checkbox).value = name in names

    def to_model(self, keys: list[str]) -> Draft:
        numbers = {}
        for number in self.integers:
            text = self.query_one(f"#number-{number.name}", Input).value.strip()
            with contextlib.suppress(ValueError):  # empty, or a lone sign: not given
                numbers[number.name] = int(text)
        return Draft(
            keys=keys,
            scenario_types=[
                n for n in self.scenarios if self.query_one(f"#scenario-{n}", Checkbox).value
            ],
            description=self.query_one("#description", TextArea).text.split("\n"),
            pr_link=self.query_one("#pr-link", Input).value.strip(),
            flags=[f.name for f in self.flags if self.query_one(f"#flag-{f.name}", Checkbox).value],
            numbers=numbers,
        )


class Pane(Vertical):
    """The bottom pane: the preview of the bytes to append, or the previous entries."""

    DEFAULT_CLASSES = "panel"

    def compose(self) -> ComposeResult:
        yield Problem("", id="pane-note")
        with ScrollableContainer(id="pane-scroll"):
            yield Static("", id="pane-body")

    def show(self, title: str, note: Content, body: Content, *, history: bool = False) -> None:
        """The previous entries (``history``) wrap; the preview scrolls sideways."""
        self.query_one("#pane-body", Static).set_class(history, "wrap")
        self.border_title = title
        self.border_subtitle = "f2: preview" if history else "f2: previous entries"
        self.query_one("#pane-note", Problem).show(note)
        self.query_one("#pane-body", Static).update(body)
        if not history:  # the bytes to append: their description in view as it is typed
            lines = str(body).split("\n")
            start = next((n for n, t in enumerate(lines) if DESCRIPTION.match(t)), None)
            if start is not None:
                after = (n for n in range(start + 1, len(lines)) if PR_LINK.match(lines[n]))
                self.call_after_refresh(self._bring_into_view, start, next(after, start + 1) - 1)

    def _bring_into_view(self, start: int, end: int) -> None:
        """Scroll so body lines ``start``..``end`` show, ``start`` first when they do not fit."""
        scroll = self.query_one("#pane-scroll", ScrollableContainer)
        rows = scroll.scrollable_content_region.height
        scroll.scroll_to(y=min(start, max(0, end - rows + 1)), animate=False)

    async def on_click(self) -> None:
        await self.run_action("app.toggle_pane")


SHORT = 20  # rows; a shorter screen shows the pane only on f2, in place of the panels


class AddScreen(Screen[None]):
    """The description has the focus first; below 80 columns a form row takes two lines."""

    AUTO_FOCUS = "#description"
    # (Textual declares it "ClassVar[...] | None", which mypy reads as an instance variable)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (SHORT, "-tall")]  # noqa: RUF012

    def on_resize(self, event: events.Resize) -> None:
        self.query_one("#keys").styles.height = key_rows(event.size.height)
        self.query_one(Footer).compact = event.size.width < 80  # the bindings fit 60 columns


KEY_ROWS = 3  # the key list's rows at 80x24, where the preview then has six rows


def key_rows(height: int) -> int:
    """The key list's rows on a screen ``height`` rows high: :data:`KEY_ROWS` at 24, plus 3 of
    every 7 rows beyond; one fewer on a short screen."""
    if height < SHORT:  # with the description's two rows, the panels fit 15 rows
        return KEY_ROWS - 1
    return max(KEY_ROWS, KEY_ROWS + (height - 24) * 3 // 7)


def take_selection(focused: Widget | None, screen: Screen[object]) -> str:
    """The selected text for ctrl+c to copy ("" when nothing is selected), leaving nothing
    selected (so a second ctrl+c leaves)."""
    if isinstance(focused, TextArea) and focused.selected_text:
        text = focused.selected_text
        focused.selection = AreaSelection.cursor(focused.selection.end)
        return text
    if isinstance(focused, Input) and focused.selected_text:
        text = focused.selected_text
        focused.selection = InputSelection.cursor(focused.cursor_position)
        return text
    text = screen.get_selected_text() or ""
    if text:
        screen.clear_selection()
    return text
