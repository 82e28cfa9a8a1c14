"""The changed keys found by a forked child while the TUI imports Textual: the same
answer as the diff run in the app, nothing read from or written to the terminal, and
nothing left behind (a crashed child leaves the diff to the app; an app that ends
first stops the child, and does not wait for it)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

import pytest
from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, key_block, make_project
from tui_helpers import SIZE, build, screen_text, settle, synchronous

from changelog_tool import settings as settings_module
from changelog_tool.authoring import ahead as ahead_module
from changelog_tool.authoring.ahead import STOPPED, Ahead, diff_answer
from changelog_tool.authoring.session import AddSession
from changelog_tool.diff.keychange import ChangeSet
from changelog_tool.errors import ChangelogError
from changelog_tool.settings import Settings
from changelog_tool.tui import run_add
from changelog_tool.tui.app import AddApp, make_app
from changelog_tool.tui.keys import KeyPicker

pytestmark = pytest.mark.skipif(
    not ahead_module.can_fork(), reason="the child is forked, beside this process"
)


def reaped(pid: int | None) -> bool:
    assert pid is not None
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


def tui_settings(repo: GitRepo) -> Settings:
    make_project(repo)
    repo.write(NVIDIA, NVIDIA_TEXT + "\n" + key_block("c-new"))
    return settings_module.load(repo.root)


def started(settings: Settings, base: str | None = None) -> Ahead:
    child = Ahead(settings, base)
    assert child.start()
    return child


def slow(settings: Settings, base: str | None) -> str:
    time.sleep(60)
    return "too late"


def test_the_childs_answer_is_the_diff_run_here(repo: GitRepo) -> None:
    settings = tui_settings(repo)
    child = started(settings)
    answer = child.take()
    assert isinstance(answer, ChangeSet)
    assert answer == diff_answer(settings, None)
    assert "c-new" in [k.key for k in answer.keys]
    assert reaped(child.pid) and child.status == 0
    assert child.take() is None  # once
    assert not child.start()  # one child per object


def test_an_error_is_answered_in_the_same_words(repo: GitRepo) -> None:
    settings = tui_settings(repo)
    answer = started(settings, "no-such-ref").take()
    assert isinstance(answer, str) and "no-such-ref" in answer
    assert answer == diff_answer(settings, "no-such-ref")


def test_the_child_reads_nothing_from_and_writes_nothing_to_the_terminal(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]
) -> None:
    def noisy(settings: Settings, base: str | None) -> str:
        print("out")
        os.write(1, b"raw out\n")
        os.write(2, b"raw err\n")
        return f"stdin gave {os.read(0, 10)!r}"

    settings = tui_settings(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", noisy)
    assert started(settings).take() == "stdin gave b''"
    assert capfd.readouterr() == ("", "")


def test_a_crashed_child_leaves_the_diff_to_the_session(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    def crash(settings: Settings, base: str | None) -> str:
        raise RuntimeError("boom")

    settings = tui_settings(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", crash)
    child = started(settings)
    monkeypatch.undo()
    session = AddSession(settings, settings.changelog_path, ahead=child)
    loaded = session.load()  # the child gave nothing: the session ran the diff
    assert loaded.problem is None and loaded.changes == diff_answer(settings, None)
    assert reaped(child.pid) and child.status != 0


def test_the_session_takes_the_childs_answer_first_and_runs_the_diff_after(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = tui_settings(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", lambda settings, base: "from the child")
    child = started(settings)
    monkeypatch.undo()
    session = AddSession(settings, settings.changelog_path, ahead=child)
    assert session.load().problem == "from the child"
    again = session.load()  # a second load (none is asked for today) runs the diff here
    assert again.problem is None and again.changes == diff_answer(settings, None)


def test_without_a_child_the_session_runs_the_diff(repo: GitRepo) -> None:
    settings = tui_settings(repo)
    child = Ahead(settings, None)  # never started
    session = AddSession(settings, settings.changelog_path, ahead=child)
    assert session.load().changes == diff_answer(settings, None)
    child.close()  # nothing to stop


def test_a_close_stops_a_child_nobody_waits_for(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = tui_settings(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", slow)
    child = started(settings)
    begun = time.monotonic()
    child.close()
    assert reaped(child.pid) and time.monotonic() - begun < 10
    assert child.status is not None and os.WTERMSIG(child.status) == signal.SIGKILL
    assert child.take() == STOPPED
    child.close()  # twice is harmless


def test_a_close_ends_the_wait_of_a_worker(repo: GitRepo, monkeypatch: pytest.MonkeyPatch) -> None:
    settings = tui_settings(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", slow)
    child = started(settings)
    answers: list[object] = []
    worker = threading.Thread(target=lambda: answers.append(child.take()))
    worker.start()
    for _ in range(500):  # until the worker holds the pipe
        if child._pipe is None:
            break
        time.sleep(0.01)
    assert child._pipe is None
    child.close()
    worker.join(10)
    assert not worker.is_alive() and answers == [STOPPED]
    assert reaped(child.pid)


def test_ctrl_c_ends_the_child_without_running_this_processs_handlers(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGINT's default action in the child: it dies of the signal, where Python's
    handler would have raised KeyboardInterrupt into the code the fork returned to."""
    settings = tui_settings(repo)
    monkeypatch.setattr(ahead_module, "diff_answer", slow)
    child = started(settings)
    assert child.pid is not None
    time.sleep(0.2)
    os.kill(child.pid, signal.SIGINT)
    assert child.take() is None
    assert child.status is not None and os.WIFSIGNALED(child.status)
    assert os.WTERMSIG(child.status) == signal.SIGINT


def test_no_child_while_another_thread_runs(repo: GitRepo) -> None:
    settings = tui_settings(repo)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not Ahead(settings, None).start()
    finally:
        release.set()
        other.join()


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="Linux's CPU affinity")
def test_no_child_on_a_single_core() -> None:
    cores = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {min(cores)})
    try:
        assert not ahead_module.can_fork()
    finally:
        os.sched_setaffinity(0, cores)
    assert ahead_module.can_fork()


def test_no_child_when_children_cannot_be_waited_for(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With SIGCHLD ignored (a launcher can leave it so), the system reaps children
    itself: a child could be neither waited for nor safely killed."""
    settings = tui_settings(repo)
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        assert not Ahead(settings, None).start()
    finally:
        signal.signal(signal.SIGCHLD, previous)


def test_run_add_stops_the_child_when_the_app_cannot_start(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = tui_settings(repo)
    children: list[Ahead] = []
    start = Ahead.start

    def recorded(self: Ahead) -> bool:
        children.append(self)
        monkeypatch.setattr(ahead_module, "diff_answer", slow)
        return start(self)

    monkeypatch.setattr(Ahead, "start", recorded)
    with pytest.raises(ChangelogError, match="does not exist"):
        run_add(
            settings=settings,
            path=repo.root / "missing.yaml",
            base=None,
            prefill={},
            init=False,
        )
    [child] = children
    assert child.pid is not None and reaped(child.pid)
    assert child.status is not None and os.WTERMSIG(child.status) == signal.SIGKILL


@synchronous
async def test_the_app_lists_the_keys_the_child_found(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The real app, given the child as `changelog add` gives it: the changed keys on
    screen are the child's (the diff run in the app would fail the test), and the
    child is reaped once they are."""
    box = build(tmp_path)
    settings = settings_module.load(box.root)
    expected = diff_answer(settings, None)
    assert isinstance(expected, ChangeSet) and expected.keys
    child = started(settings)

    def not_here(settings: Settings, base: str | None) -> str:
        raise AssertionError("the diff ran in the app, not in the child")

    monkeypatch.setattr(ahead_module, "diff_answer", not_here)
    app = make_app(settings, settings.changelog_path, ahead=child)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.loaded is not None and app.loaded.changes == expected
        assert "Changed keys since" in screen_text(app)
        assert set(app.query_one(KeyPicker).to_model()) <= {k.key for k in expected.keys}
    assert reaped(child.pid)


def test_leaving_the_app_does_not_wait_for_the_child(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Textual waits for its workers' threads as it ends: the worker waiting for a
    slow child would hold the exit until the child's diff was done, had the app not
    stopped the child as it ends."""
    box = build(tmp_path)
    settings = settings_module.load(box.root)
    monkeypatch.setattr(ahead_module, "diff_answer", slow)
    child = started(settings)
    monkeypatch.undo()

    original = AddApp.on_ready

    def leave_soon(self: AddApp) -> None:
        original(self)
        self.set_timer(0.3, lambda: self.exit(None))

    monkeypatch.setattr(AddApp, "on_ready", leave_soon)
    app = make_app(settings, settings.changelog_path, ahead=child)
    begun = time.monotonic()
    app.run(headless=True, size=SIZE)
    assert time.monotonic() - begun < 20
    assert reaped(child.pid) and child.status is not None
    assert os.WTERMSIG(child.status) == signal.SIGKILL
