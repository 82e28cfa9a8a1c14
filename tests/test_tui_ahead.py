"""The changed keys found by a forked child while the TUI imports Textual: the same
answer as the diff run in the app, nothing on the terminal, and nothing left behind
(a crashed child falls back to the diff run here; an app that ends first stops it)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, key_block, make_project
from test_tui_helpers import SIZE, build, screen_text, settle, synchronous

from changelog_tool import settings as settings_module
from changelog_tool.authoring import ahead as ahead_module
from changelog_tool.authoring.ahead import STOPPED, Ahead, diff_answer
from changelog_tool.authoring.session import AddSession
from changelog_tool.diff.keychange import ChangeSet
from changelog_tool.settings import Settings
from changelog_tool.tui.app import make_app
from changelog_tool.tui.keys import KeyPicker

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="the child is forked")


def reaped(pid: int) -> bool:
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def project(repo: GitRepo) -> Settings:
    make_project(repo)
    repo.write(NVIDIA, NVIDIA_TEXT + "\n" + key_block("c-new"))
    return settings_module.load(repo.root)


def test_the_childs_answer_is_the_diff_run_here(repo: GitRepo) -> None:
    settings = project(repo)
    child = Ahead.start(settings, None)
    assert child is not None
    answer = child.take()
    assert isinstance(answer, ChangeSet)
    assert answer == diff_answer(settings, None)
    assert "c-new" in [k.key for k in answer.keys]
    assert reaped(child.pid)
    assert child.take() is None  # once


def test_an_error_is_answered_in_the_same_words(repo: GitRepo) -> None:
    settings = project(repo)
    child = Ahead.start(settings, "no-such-ref")
    assert child is not None
    answer = child.take()
    assert isinstance(answer, str) and "no-such-ref" in answer
    assert answer == diff_answer(settings, "no-such-ref")


def test_the_child_writes_nothing_to_the_terminal(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    def noisy(settings: Settings, base: str | None) -> str:
        print("out")
        os.write(1, b"raw out\n")
        os.write(2, b"raw err\n")
        return "quiet"

    settings = project(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", noisy)
    child = Ahead.start(settings, None)
    assert child is not None
    assert child.take() == "quiet"
    assert capfd.readouterr() == ("", "")


def test_a_crashed_child_leaves_the_diff_to_the_session(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(settings: Settings, base: str | None) -> str:
        raise RuntimeError("boom")

    settings = project(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", crash)
    child = Ahead.start(settings, None)
    monkeypatch.undo()
    assert child is not None
    session = AddSession(settings, settings.changelog_path, ahead=child)
    loaded = session.load()  # the child gave nothing: the session ran the diff
    assert loaded.problem is None and loaded.changes == diff_answer(settings, None)
    assert reaped(child.pid)


def test_the_session_takes_the_childs_answer_first_and_runs_the_diff_after(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = project(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", lambda settings, base: "from the child")
    child = Ahead.start(settings, None)
    monkeypatch.undo()
    session = AddSession(settings, settings.changelog_path, ahead=child)
    assert session.load().problem == "from the child"
    again = session.load()  # a second load (none is asked for today) runs the diff here
    assert again.problem is None and again.changes == diff_answer(settings, None)


def test_an_app_that_ends_first_stops_the_child(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = project(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", lambda settings, base: time.sleep(60))
    child = Ahead.start(settings, None)
    assert child is not None
    started = time.monotonic()
    child.close()
    assert reaped(child.pid) and time.monotonic() - started < 10
    assert child.take() == STOPPED
    child.close()  # twice is harmless


def test_a_close_while_a_worker_waits_ends_the_wait(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = project(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", lambda settings, base: time.sleep(60))
    child = Ahead.start(settings, None)
    assert child is not None
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.append(child.take()))
    worker.start()
    time.sleep(0.2)  # the worker is reading the pipe
    child.close()
    worker.join(10)
    assert not worker.is_alive() and answers == [STOPPED]
    assert reaped(child.pid)


def test_no_child_while_another_thread_runs(repo: GitRepo) -> None:
    settings = project(repo)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert Ahead.start(settings, None) is None
    finally:
        release.set()
        other.join()


@synchronous
async def test_the_app_lists_the_keys_the_child_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real app, given the child as `changelog add` gives it: the changed keys on
    screen are the child's (the diff run in the app would fail the test), and the
    child is reaped once they are."""
    box = build(tmp_path)
    settings = settings_module.load(box.root)
    child = Ahead.start(settings, None)
    assert child is not None

    def not_here(settings: Settings, base: str | None) -> str:
        raise AssertionError("the diff ran in the app, not in the child")

    monkeypatch.setattr(ahead_module, "diff_answer", not_here)
    app = make_app(settings, settings.changelog_path, ahead=child)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.loaded is not None and app.loaded.problem is None
        assert sorted(app.query_one(KeyPicker).to_model()) == sorted(
            r.key for r in app.loaded.rows if r.needs_entry and not r.covered
        )
        assert "Changed keys since" in screen_text(app)
    assert reaped(child.pid)
