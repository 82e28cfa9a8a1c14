"""The app's modal screens: the help (f1, or ? outside a text field), and the one question the
app asks itself: leave with unsaved answers?"""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Markdown

from changelog_tool.gate.acceptance import BROAD_PATTERN_EXTRA_KEYS
from changelog_tool.ledger.entryschema import FLAG, INTEGER, current
from changelog_tool.tui.keys import FILTER_FROM

HELP = f"""\
# changelog add

| key | does |
|---|---|
| tab / shift+tab | the next / previous field; the panel holding the focus has a heavy border and a highlighted title |
| space | tick or untick the highlighted key (in the key list) |
| enter | in the pattern box: add the key or pattern typed; in the filter: go to the list |
| ctrl+e | write the description in $VISUAL / $EDITOR (vi if neither is set) |
| ctrl+s | append the entry shown in the preview |
| f2 | switch the pane: the preview of the bytes, or the previous entries for the keys (on a screen under 20 rows: the preview, the previous entries, then the entry again) |
| ctrl+t | light or dark theme |
| esc / ctrl+q / ctrl+c | leave without writing (typed answers are kept as a draft) |
| f1 / ? | this help (esc closes it) |
| ctrl+p | the command palette: the actions above, by name |

## How an entry is built

- **Keys.** The master-config keys this branch added or changed, and the keys whose
  recipe files changed, are listed first; those that need an entry and that no
  entry appended on this branch covers yet are ticked. Removed keys, and keys that
  only lost benchmark points, need none. Every other master key follows, unticked;
  with {FILTER_FROM} master keys or more a filter box narrows the list (what is
  ticked stays ticked). A pattern with `*` matches any run of characters, and must
  match at least one key.
- **Scenario types.** Ticked: the scenario types that changed; none ticked means
  every scenario of the keys runs (an image bump affects them all). A key that has
  none of the ticked types would run zero points: that blocks the save.
- **Description.** One bullet per line. In the editor (ctrl+e), blank lines and lines
  starting with `#` are left out, as in a git commit message.
- **What it runs.** The preview counts the keys the entry names (patterns resolved),
  their scenario types and their *benchmark points*. A benchmark point is one
  benchmark run: one concurrency of one search-space entry of one scenario item
  (`conc-list: [1, 2, 4]` is 3 points; `conc-start: 1`, `conc-end: 256` doubles, 9
  points). Naming scenario types runs only those. A pattern that matches more than
  {BROAD_PATTERN_EXTRA_KEYS} keys this branch did not change is warned about: each of
  them would run its whole sweep again.
- **pr-link.** The placeholder `XXX` until the pull request has a number: on the
  protected branch a real link is required, and `changelog finalize --pr-number N`
  fills the placeholder in before merging.
- **ctrl+s** checks the entry as `changelog verify` would, then appends exactly the
  bytes in the preview after one empty line: no existing byte of the file changes.
"""


def fields_help() -> str:
    """The flags and integer fields of the entry schema in use, with its descriptions."""
    schema = current()
    where = schema.source or "schema/perf-changelog.schema.json"
    lines = [f"- **Flags and numbers** (from the entry schema, {where}):"]
    lines += [
        f"  - `{f.name}`" + (f": {f.description}" if f.description else "")
        for f in schema.fields
        if f.kind in (FLAG, INTEGER)
    ]
    return "\n".join(lines) + "\n"


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,f1,q,question_mark", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Markdown(HELP + fields_help())


LEAVE = "leave"
STAY = "stay"
INTERRUPT = "interrupt"  # ctrl+c (the app's binding answers with it)


class ConfirmLeave(ModalScreen[str]):
    """Answers :data:`LEAVE`, :data:`STAY` or :data:`INTERRUPT`."""

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

    def on_mount(self) -> None:
        self.query_one("#stay", Button).focus()
