"""A ``changelog`` process runs without the cyclic garbage collector
(:func:`changelog_tool.batch_process`), which is safe only while no command makes
cyclic garbage that grows with its input: memory would then grow with the history.
Each command runs in-process on a history of 40 entries and of 400, with the
collector off; what a collection then finds unreachable must not grow with it."""

from __future__ import annotations

import gc
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from projects import AMD, AMD_TEXT, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block

import changelog_tool
from changelog_tool.cli import main

SMALL, LARGE = 40, 400
SLACK = 60
"""Unreachable objects allowed beyond the small history's count: a few first-use
caches may differ; a cycle per entry would add hundreds."""


def history(entries: int) -> str:
    return "\n".join(
        entry(f"a-vllm-{n}", f"Change number {n}", f"https://github.com/acme/bench/pull/{n + 1}")
        for n in range(entries)
    )


def batch_project(root: Path, entries: int) -> Path:
    """main: the masters and ``entries`` entries; branch feature: one changed key and
    its entry appended, committed, and one more entry in the work tree."""
    from conftest import GitRepo

    root.mkdir()
    repo = GitRepo(root)
    repo.git("init", "-q", "-b", "main")
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, AMD: AMD_TEXT, LOG: history(entries)})
    repo.git("checkout", "-q", "-b", "feature")
    changed = NVIDIA_TEXT.replace(key_block("a-vllm"), key_block("a-vllm", image="vllm/v2"))
    repo.commit(
        "bump a-vllm",
        **{NVIDIA: changed, LOG: history(entries) + "\n" + entry("a-vllm", "Bump a-vllm")},
    )
    repo.write(LOG, repo.read(LOG).decode() + "\n" + entry("b-vllm", "Note b-vllm"))
    return root


COMMANDS = {
    "verify --base, work tree": ["verify", "--base", "main", "--format", "json"],
    "verify --base --head": ["verify", "--base", "main", "--head", "HEAD", "--format", "json"],
    "verify --file": ["verify", "--file", LOG, "--format", "json"],
    "keys --base": ["keys", "--base", "main"],
    "lint": ["lint", "--base", "main"],
    "log": ["log", "a-vllm-3"],
    "add --dry-run": [
        "add",
        "--key",
        "a-vllm",
        "--description",
        "Another change",
        "--dry-run",
        "--base",
        "main",
    ],
}


def unreachable_after(run: Callable[[], object]) -> int:
    """What a collection finds unreachable after ``run`` with the collector off."""
    gc.collect()
    gc.disable()
    try:
        run()
        return gc.collect()
    finally:
        gc.enable()


@pytest.mark.parametrize("name", list(COMMANDS))
def test_no_cyclic_garbage_grows_with_the_history(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    found = []
    for entries in (SMALL, LARGE):
        root = batch_project(tmp_path / f"h{entries}", entries)
        monkeypatch.chdir(root)
        main(COMMANDS[name])  # first use: imports and caches
        found.append(unreachable_after(lambda: main(COMMANDS[name])))
        capsys.readouterr()
    assert found[1] <= found[0] + SLACK, found


def test_the_merge_driver_makes_no_cyclic_garbage_per_entry(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = []
    for entries in (SMALL, LARGE):
        folder = tmp_path / f"m{entries}"
        folder.mkdir()
        old = history(entries)
        (folder / "O").write_text(old)
        (folder / "A").write_text(old + "\n" + entry("a-vllm", "Ours"))
        (folder / "B").write_text(old + "\n" + entry("b-vllm", "Theirs"))
        monkeypatch.chdir(folder)
        shutil.copy(folder / "A", folder / "A0")

        def merge(folder: Path = folder) -> None:
            shutil.copy(folder / "A0", folder / "A")
            assert main(["merge-driver", "O", "A", "B", LOG]) in (0, 1)

        merge()
        found.append(unreachable_after(merge))
    assert found[1] <= found[0] + SLACK, found


def test_a_changelog_process_turns_the_collector_off() -> None:
    was = gc.isenabled()
    try:
        gc.enable()
        changelog_tool.batch_process()
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_the_tui_runs_with_the_collector_on_and_what_it_started_with_frozen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An event loop makes cyclic garbage as it goes, so the app runs with the
    collector on; the objects that live as long as the app (Textual's modules, the
    session) are frozen first, so that no full collection scans them again."""
    from changelog_tool import settings as settings_module
    from changelog_tool.tui import run_add
    from changelog_tool.tui.app import AddApp

    root = batch_project(tmp_path / "tui", SMALL)
    seen: dict[str, object] = {}

    def run(self: AddApp) -> None:
        seen.update(enabled=gc.isenabled(), frozen=gc.get_freeze_count())

    monkeypatch.setattr(AddApp, "run", run)
    was = gc.isenabled()
    gc.disable()
    try:
        settings = settings_module.load(root)
        code = run_add(
            settings=settings, path=settings.changelog_path, base=None, prefill={}, init=False
        )
    finally:
        gc.unfreeze()
        if was:
            gc.enable()
    assert code == 1  # (the stand-in app gives no answer)
    assert seen["enabled"] is True
    assert isinstance(seen["frozen"], int) and seen["frozen"] > 0
