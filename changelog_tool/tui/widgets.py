"""The add screen's widgets. They hold no logic: they show what they are given,
post Messages when the user changes something, and expose ``to_model()``."""

from __future__ import annotations

from rich.segment import Segment
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.content import Content
from textual.message import Message
from textual.strip import Strip
from textual.suggester import Suggester
from textual.widgets import Checkbox, Input, Label, SelectionList, Static, TextArea
from textual.widgets.selection_list import Selection

from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.rows import KeyRow

FLAGS = ("evals-only", "all-evals", "append-only")


class KeySuggester(Suggester):
    """Completes a typed key from the master keys (accept with the right arrow)."""

    def __init__(self) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.keys: list[str] = []

    async def get_suggestion(self, value: str) -> str | None:
        if not value:
            return None
        return next((k for k in self.keys if k.startswith(value) and k != value), None)


class Tick(Checkbox):
    """A checkbox whose state reads without colour: ``✓`` when on, blank when off."""

    def render(self) -> Content:
        self.BUTTON_INNER = "✓" if self.value else " "
        return super().render()


class KeyList(SelectionList[str]):
    """The key list, with the same ``✓``/blank boxes as :class:`Tick`."""

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        index = self.scroll_offset.y + y
        segments = list(strip)
        if index >= self.option_count or len(segments) < 3:
            return strip
        on = self.get_option_at_index(index).value in self.selected
        segments[1] = Segment("✓" if on else " ", segments[1].style)
        return Strip(segments, strip.cell_length)


def row_prompt(row: KeyRow, width: int = 40, match_count: int | None = None) -> Content:
    detail = row.detail(match_count)
    style = "$text-muted" if row.covered or (row.change and not row.change.needs_entry) else ""
    return Content.assemble(
        (f"{row.mark} ", "bold"),
        (row.key.ljust(width), f"bold {style}".strip()),
        " ",
        (detail, "$text-muted" if style else "$text-accent"),
    )


class KeyPicker(Vertical):
    """The changed keys (selectable), and a field to add keys or patterns by hand."""

    class Changed(Message):
        """The chosen keys changed."""

        def __init__(self, keys: list[str]) -> None:
            super().__init__()
            self.keys = keys

    class PatternTyped(Message):
        """Text in the add-a-key field changed (the app answers with a match count)."""

        def __init__(self, pattern: str) -> None:
            super().__init__()
            self.pattern = pattern

    class PatternSubmitted(Message):
        def __init__(self, pattern: str) -> None:
            super().__init__()
            self.pattern = pattern

    def compose(self) -> ComposeResult:
        yield Label("Looking for changed keys...", id="keys-title", classes="section")
        yield KeyList(id="keys")
        with Horizontal(id="pattern-row", classes="row"):
            yield Label("Add key/pattern ", classes="field-label")
            yield Input(
                id="pattern",
                compact=True,
                suggester=KeySuggester(),
                placeholder="a key, or a pattern with * (enter adds it)",
            )
            yield Label("", id="match-count")

    def set_title(self, text: str) -> None:
        self.query_one("#keys-title", Label).update(text)

    def set_completions(self, keys: list[str]) -> None:
        suggester = self.query_one("#pattern", Input).suggester
        assert isinstance(suggester, KeySuggester)
        suggester.keys = keys

    def set_rows(self, rows: list[KeyRow], selected: list[str]) -> None:
        keys = self.query_one("#keys", SelectionList)
        keys.clear_options()
        width = min(max((len(r.key) for r in rows), default=20), 44)
        keys.add_options(
            [Selection(row_prompt(r, width), r.key, r.key in selected, id=r.key) for r in rows]
        )

    def has_key(self, key: str) -> bool:
        keys = self.query_one("#keys", SelectionList)
        return any(keys.get_option_at_index(i).value == key for i in range(keys.option_count))

    def add_key(self, row: KeyRow, match_count: int | None) -> None:
        keys = self.query_one("#keys", SelectionList)
        if self.has_key(row.key):
            keys.select(row.key)
            return
        keys.add_option(Selection(row_prompt(row, 40, match_count), row.key, True, id=row.key))
        keys.highlighted = keys.option_count - 1
        keys.scroll_to_highlight()

    def show_count(self, text: str) -> None:
        self.query_one("#match-count", Label).update(text)

    def to_model(self) -> list[str]:
        keys = self.query_one("#keys", SelectionList)
        chosen = set(keys.selected)
        values = [keys.get_option_at_index(i).value for i in range(keys.option_count)]
        return [v for v in values if v in chosen]

    @on(SelectionList.SelectedChanged, "#keys")
    def _keys_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self.post_message(self.Changed(self.to_model()))

    @on(Input.Changed, "#pattern")
    def _pattern_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.PatternTyped(event.value.strip()))

    @on(Input.Submitted, "#pattern")
    def _pattern_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.PatternSubmitted(event.value.strip()))
            event.input.value = ""


class EntryForm(Vertical):
    """Description, scenario types, pr-link and flags."""

    class Changed(Message):
        """Any answer in the form changed."""

    def __init__(self, scenarios: list[str], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.scenarios = scenarios  # the schema's scenario types, in its order

    def compose(self) -> ComposeResult:
        yield Label("Description: one bullet per line", classes="section")
        yield TextArea(
            id="description",
            compact=True,
            soft_wrap=True,
            tab_behavior="focus",
            placeholder="What changed and why, e.g. Bump vLLM image to v0.11.1 "
            "(one bullet per line)",
        )
        with Horizontal(classes="row"):
            yield Label("Scenario ", classes="field-label")
            for name in self.scenarios:
                yield Tick(name, id=f"scenario-{name}", compact=True)
            yield Label("  pr-link ", classes="field-label")
            yield Input(id="pr-link", compact=True)
        with Horizontal(classes="row"):
            yield Label("Flags    ", classes="field-label")
            for name in FLAGS:
                yield Tick(name, id=f"flag-{name}", compact=True)
            yield Label(" eval-min-prefill-ep ", classes="field-label")
            yield Input(id="eval-min-prefill-ep", compact=True, type="integer")

    def load(self, draft: Draft, placeholder: str) -> None:
        self.query_one("#description", TextArea).load_text("\n".join(draft.description))
        for name in self.scenarios:
            self.query_one(f"#scenario-{name}", Checkbox).value = name in draft.scenario_types
        self.query_one("#pr-link", Input).value = draft.pr_link or placeholder
        for name in FLAGS:
            self.query_one(f"#flag-{name}", Checkbox).value = getattr(draft, name.replace("-", "_"))
        ep = draft.eval_min_prefill_ep
        self.query_one("#eval-min-prefill-ep", Input).value = "" if ep is None else str(ep)

    def set_scenarios(self, names: list[str]) -> None:
        for name in self.scenarios:
            self.query_one(f"#scenario-{name}", Checkbox).value = name in names

    def to_model(self, keys: list[str]) -> Draft:
        ep_text = self.query_one("#eval-min-prefill-ep", Input).value.strip()
        try:
            ep = int(ep_text) if ep_text else None
        except ValueError:
            ep = None
        return Draft(
            keys=keys,
            scenario_types=[
                n for n in self.scenarios if self.query_one(f"#scenario-{n}", Checkbox).value
            ],
            description=self.query_one("#description", TextArea).text.split("\n"),
            pr_link=self.query_one("#pr-link", Input).value.strip(),
            evals_only=self.query_one("#flag-evals-only", Checkbox).value,
            all_evals=self.query_one("#flag-all-evals", Checkbox).value,
            append_only=self.query_one("#flag-append-only", Checkbox).value,
            eval_min_prefill_ep=ep,
        )

    @on(TextArea.Changed)
    @on(Checkbox.Changed)
    @on(Input.Changed)
    def _changed(self, event: Message) -> None:
        event.stop()
        self.post_message(self.Changed())


class Pane(Vertical):
    """The bottom pane: the preview of the bytes to append, or the previous entries."""

    class Toggle(Message):
        pass

    def compose(self) -> ComposeResult:
        yield Label("", id="pane-title", classes="section")
        with ScrollableContainer(id="pane-scroll"):
            yield Static("", id="pane-body")

    def show(self, title: Content | str, body: Content | str) -> None:
        self.query_one("#pane-title", Label).update(title)
        self.query_one("#pane-body", Static).update(body)

    def on_click(self) -> None:
        self.post_message(self.Toggle())
