"""A bug inside the TUI is an internal error: the installed `changelog add` and `changelog
demo`, in a real terminal (tmux), with a bug planted in the app (a ``sitecustomize`` on
PYTHONPATH replaces one of its methods), exit 2 with one line that says so, never 0 or 1
after a traceback; ``--debug`` shows the traceback."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from terminal import Terminal, exit_code, launch, needs_tmux, open_terminal

from changelog_tool.demo import sandbox

pytestmark = needs_tmux

MESSAGE = "a bug planted by the test"
PLANTS = {
    # on the screen's loop, once the changed keys are on screen
    "loop": "from changelog_tool.tui.app import AddApp as owner\nname = '_keys_shown'\n",
    # in the worker thread that looks for the changed keys
    "worker": "from changelog_tool.authoring.session import AddSession as owner\nname = 'load'\n",
}


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    yield from open_terminal(tmp_path)


def plant(tmp_path: Path, where: str) -> dict[str, str]:
    """The environment that makes the app raise ``RuntimeError(MESSAGE)`` at ``where``."""
    folder = tmp_path / "plant"
    folder.mkdir()
    (folder / "sitecustomize.py").write_text(
        PLANTS[where] + "def planted(*args, **kwargs):\n"
        f"    raise RuntimeError({MESSAGE!r})\n"
        "setattr(owner, name, planted)\n"
    )
    return {"PYTHONPATH": str(folder)}


def ended(terminal: Terminal, done: Path) -> tuple[str, str]:
    """The exit code, and what the terminal shows after the app left it."""
    code = exit_code(terminal, done)
    return code, terminal.screen(joined=True)


@pytest.mark.parametrize("where", sorted(PLANTS))
def test_a_bug_in_add_exits_2_with_one_line(terminal: Terminal, tmp_path: Path, where: str) -> None:
    box = sandbox.build(tmp_path / "demo")
    before = box.changelog.read_bytes()
    done = tmp_path / "exit-code"
    launch(terminal, "add", box.root, done, env=plant(tmp_path, where))
    code, screen = ended(terminal, done)
    assert code == "2", screen
    lines = [line for line in screen.splitlines() if line.strip()]
    assert lines == [
        f"changelog: internal error: RuntimeError: {MESSAGE} (run with --debug for the traceback)"
    ], screen
    assert box.changelog.read_bytes() == before


def test_a_bug_in_the_demo_exits_2_and_debug_shows_the_traceback(
    terminal: Terminal, tmp_path: Path
) -> None:
    done = tmp_path / "exit-code"
    env = {**plant(tmp_path, "loop"), "TMPDIR": str(tmp_path), "CHANGELOG_DEBUG": "1"}
    launch(terminal, "demo", tmp_path, done, env=env)
    code, screen = ended(terminal, done)
    assert code == "2", screen
    assert f"in planted\n    raise RuntimeError({MESSAGE!r})" in screen  # the traceback's end
    assert screen.rstrip().endswith(
        f"changelog: internal error: RuntimeError: {MESSAGE} (run with --debug for the traceback)"
    )
    assert "That was the demo repository" not in screen
    assert not list(tmp_path.glob("changelog-demo-*"))  # the throwaway repository is gone
