"""The installed `changelog add` in a real terminal (tmux): type an entry, save with ctrl+s,
and check the file with `changelog verify --file`; ctrl+c leaves with exit code 130."""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from terminal import (
    CHANGELOG,
    Terminal,
    assert_messages_whole,
    exit_code,
    launch,
    needs_tmux,
    open_terminal,
)

from changelog_tool.authoring import drafts
from changelog_tool.demo import sandbox

pytestmark = needs_tmux


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Terminal]:
    yield from open_terminal(tmp_path)


def test_typing_an_entry_and_ctrl_s_appends_a_valid_entry(
    terminal: Terminal, tmp_path: Path
) -> None:
    box = sandbox.build(tmp_path / "demo")
    before = box.changelog.read_bytes()
    done = tmp_path / "exit-code"
    launch(terminal, "add", box.root, done)
    terminal.wait_for("Changed keys since")
    screen = terminal.wait_for("1 problem to fix")
    assert_messages_whole(
        screen,
        "✗ description: write at least one line (one bullet per line)",
        "✗ 1 problem to fix before ctrl+s: description",
        "Runs: 3 keys, 2 scenario types, 34 benchmark points",
    )
    terminal.tmux("send-keys", "-t", "t", "-l", "Add Kimi-K3 B300 agentic recipe")
    terminal.tmux("send-keys", "-t", "t", "Enter")
    terminal.tmux("send-keys", "-t", "t", "-l", "GPT-OSS MI355X nightly image")
    screen = terminal.wait_for("✓ ready")
    assert_messages_whole(screen, "✓ ready: ctrl+s appends the preview")
    assert "✗" not in screen
    terminal.tmux("send-keys", "-t", "t", "C-s")
    assert exit_code(terminal, done) == "0"
    assert "appended 1 entry" in terminal.screen()
    after = box.changelog.read_bytes()
    assert after.startswith(before)
    assert after[len(before) :] == (
        b"\n- config-keys:\n"
        b"    - kimik3-fp4-b300-dynamo-vllm-agentic\n"
        b"    - gptoss-fp4-mi355x-vllm\n"
        b"    - kimik3-fp4-b200-dynamo-vllm-agentic\n"
        b"  description:\n"
        b'    - "Add Kimi-K3 B300 agentic recipe"\n'
        b'    - "GPT-OSS MI355X nightly image"\n'
        b"  pr-link: XXX\n"
    )
    verify = subprocess.run(
        [str(CHANGELOG), "verify", "--file", str(box.changelog)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_ctrl_c_in_a_fresh_add_screen_exits_130_and_writes_nothing(
    terminal: Terminal, tmp_path: Path
) -> None:
    box = sandbox.build(tmp_path / "demo")
    before = box.changelog.read_bytes()
    done = tmp_path / "exit-code"
    launch(terminal, "add", box.root, done)
    terminal.wait_for("Changed keys since")
    terminal.tmux("send-keys", "-t", "t", "C-c")
    assert exit_code(terminal, done) == "130"
    assert "interrupted: nothing was written" in terminal.screen()
    assert box.changelog.read_bytes() == before
    assert drafts.load(box.changelog) is None


def test_ctrl_c_twice_in_the_demo_after_typing_exits_130(
    terminal: Terminal, tmp_path: Path
) -> None:
    done = tmp_path / "exit-code"
    # the demo keeps its repository for the draft: in this test's folder, not /tmp
    launch(terminal, "demo", tmp_path, done, env={"TMPDIR": str(tmp_path)})
    terminal.wait_for("Changed keys since")
    terminal.wait_for("agentic-coding")  # the keys are loaded and the description has focus
    terminal.tmux("send-keys", "-t", "t", "-l", "half a thought")
    terminal.wait_for("half a thought")
    terminal.tmux("send-keys", "-t", "t", "C-c")
    terminal.wait_for("Leave without saving?")
    terminal.tmux("send-keys", "-t", "t", "C-c")
    assert exit_code(terminal, done) == "130"
    assert "That was the demo repository" in terminal.screen()
    assert len(list(tmp_path.glob("changelog-demo-*"))) == 1  # kept, with the draft


def test_ctrl_e_writes_the_description_in_the_editor(terminal: Terminal, tmp_path: Path) -> None:
    box = sandbox.build(tmp_path / "demo")
    editor = tmp_path / "editor.sh"
    editor.write_text(
        "#!/bin/sh\n"
        'grep -q "^Typed first$" "$1" || exit 9\n'
        "printf 'Written in the editor\\n# a comment\\n\\nSecond bullet\\n' > \"$1\"\n"
    )
    editor.chmod(0o755)
    done = tmp_path / "exit-code"
    launch(terminal, "add", box.root, done, env={"VISUAL": str(editor)})
    terminal.wait_for("1 problem to fix")
    terminal.tmux("send-keys", "-t", "t", "-l", "Typed first")
    terminal.wait_for("✓ ready")
    terminal.tmux("send-keys", "-t", "t", "C-e")
    screen = terminal.wait_for("Second bullet")
    assert "Written in the editor" in screen and "# a comment" not in screen
    terminal.tmux("send-keys", "-t", "t", "C-s")
    assert exit_code(terminal, done) == "0"
    assert box.changelog.read_bytes().endswith(
        b'  description:\n    - "Written in the editor"\n    - "Second bullet"\n  pr-link: XXX\n'
    )


def test_a_kept_demo_says_where_it_stays(terminal: Terminal, tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    done = tmp_path / "exit-code"
    launch(terminal, f"demo --keep {kept}", tmp_path, done)
    terminal.wait_for("agentic-coding")
    terminal.tmux("send-keys", "-t", "t", "C-q")
    assert exit_code(terminal, done) == "0"
    screen = terminal.screen().replace("\n", "")
    assert f"it stays in {kept}" in screen and "--keep DIR" not in screen
    assert (kept / "perf-changelog.yaml").is_file()
