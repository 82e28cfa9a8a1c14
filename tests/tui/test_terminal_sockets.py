"""The tmux tests leave nothing behind: each test's tmux server keeps its socket in the
test's own folder (``TMUX_TMPDIR``), never in tmux's default socket folder, and the
socket is gone once the test ends."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import ROOT
from terminal import needs_tmux, open_terminal


@needs_tmux
def test_a_terminal_s_socket_lives_in_the_test_s_folder_and_goes_with_it(tmp_path: Path) -> None:
    fixture = open_terminal(tmp_path)
    terminal = next(fixture)
    terminal.tmux("new-session", "-d", "-s", "t", "-x", "80", "-y", "24", "sleep 60")
    served = Path(terminal.tmux("display", "-p", "-t", "t", "#{socket_path}").strip())
    assert served == terminal.socket_path
    assert served.is_relative_to(tmp_path) and served.is_socket()
    for _ in fixture:  # the fixture's teardown
        pass
    assert not served.exists()
    assert list(served.parent.iterdir()) == []


def test_no_test_starts_tmux_but_through_the_terminal_helper() -> None:
    """Only ``tests/terminal.py`` runs the ``tmux`` program, and it always sets
    ``TMUX_TMPDIR``: a new tmux test cannot put a socket in the default folder."""
    runs_tmux = re.compile(r"""\[\s*["']tmux["']""")
    callers = [
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "tests").rglob("*.py")
        if runs_tmux.search(path.read_text(encoding="utf-8"))
    ]
    assert callers == ["tests/terminal.py"]
    helper = (ROOT / "tests" / "terminal.py").read_text(encoding="utf-8")
    assert helper.count('"tmux", "-L"') == 1 and '"TMUX_TMPDIR": str(self.folder)' in helper
