"""The description in $VISUAL / $EDITOR: the round trip through a real (fake) editor
process, its failures, and ctrl+e in the app."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from textual.widgets import TextArea
from tui_helpers import SIZE, app_for, build, screen_text, settle, synchronous

from changelog_tool.authoring.editor import EditorFailed, edit_description, editor_command

EDITOR = """\
#!{python}
import sys
from pathlib import Path
path = Path(sys.argv[-1])
seen = Path({seen!r})
seen.write_text(path.read_text() + "|args=" + " ".join(sys.argv[1:-1]))
path.write_text(
    "Bump the image to v2\\n\\n   # a comment line\\n# another\\n  Retune the TP8 sweep  \\n\\n"
)
sys.exit({code})
"""


def fake_editor(tmp_path: Path, code: int = 0) -> tuple[Path, Path]:
    """A script that records what it was given and writes two bullets, a blank line and
    comments; it exits with ``code``."""
    script, seen = tmp_path / "fake-editor", tmp_path / "seen.txt"
    script.write_text(EDITOR.format(python=sys.executable, seen=str(seen), code=code))
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return script, seen


def test_the_editor_gets_one_bullet_per_line_and_gives_back_lines_without_comments(
    tmp_path: Path,
) -> None:
    script, seen = fake_editor(tmp_path)
    env = {"EDITOR": str(script), "PATH": os.environ["PATH"]}
    lines = edit_description(["First bullet", "", "Second bullet"], env)
    assert lines == ["Bump the image to v2", "Retune the TP8 sweep"]
    given = seen.read_text()
    assert given.startswith("First bullet\nSecond bullet\n\n# ")
    assert "one bullet per line" in given


def test_visual_wins_over_editor_and_may_carry_arguments(tmp_path: Path) -> None:
    script, seen = fake_editor(tmp_path)
    env = {"VISUAL": f"{script} --wait", "EDITOR": "/nonexistent/editor"}
    assert edit_description([], env) == ["Bump the image to v2", "Retune the TP8 sweep"]
    assert seen.read_text().endswith("|args=--wait")
    assert editor_command({}) == ["vi"]
    assert editor_command({"EDITOR": "nano -w"}) == ["nano", "-w"]


def test_a_missing_or_failing_editor_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(EditorFailed, match="could not run the editor '/nonexistent/ed'"):
        edit_description(["kept"], {"EDITOR": "/nonexistent/ed"})
    script, _ = fake_editor(tmp_path, code=3)
    with pytest.raises(EditorFailed, match="exited with code 3; the description is unchanged"):
        edit_description(["kept"], {"EDITOR": str(script)})
    assert not list(Path(os.environ.get("TMPDIR", "/tmp")).glob("perf-changelog-description-*"))


@synchronous
async def test_ctrl_e_without_a_terminal_says_so_and_keeps_the_description(
    tmp_path: Path,
) -> None:
    box = build(tmp_path)
    app = app_for(box.root)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press(*"Typed here", "ctrl+e")
        await pilot.pause()
        assert app.query_one("#description", TextArea).text == "Typed here"
        assert "this terminal cannot hand over" in screen_text(app)
