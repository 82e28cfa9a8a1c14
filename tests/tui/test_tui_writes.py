"""What the add screen writes when writing fails or would leave the checkout: a full disk
at ctrl+s keeps the app open with the answers (a retry saves), and a changelog that
became a link out of the repository is neither shown nor written."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from tui_helpers import SIZE, app_for, build, screen_text, settle, synchronous

from changelog_tool.authoring import drafts
from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.ledger.writer import TEMP_SUFFIX


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


class FullDisk:
    """A disk that is full under ``folder``: ``os.write`` and ``os.copy_file_range``
    into a regular file there fail with ENOSPC, as the kernel fails them. Injected at
    the OS boundary because no real full file system can be had here (mounting a
    small tmpfs needs privileges the test runs without); every other write goes on."""

    def __init__(self, folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.folder = str(folder.resolve())
        self.full = True
        self.refused = 0
        write, copy = os.write, os.copy_file_range
        monkeypatch.setattr(os, "write", self._guard(write))
        monkeypatch.setattr(os, "copy_file_range", self._guard(copy, out=1))

    def _guard(self, real: Callable[..., int], out: int = 0) -> Callable[..., int]:
        def guarded(*args: Any) -> int:
            if self.full and self._inside(args[out]):
                self.refused += 1
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            return real(*args)

        return guarded

    def _inside(self, fd: int) -> bool:
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            return False
        return target.startswith(self.folder + os.sep)


def leftovers(box: Sandbox) -> list[str]:
    return [
        p.name
        for folder in (box.root, box.root / ".git")
        for p in folder.iterdir()
        if p.name.endswith(TEMP_SUFFIX)
    ]


def notifications(app: Any) -> str:
    return " ".join(f"{n.title}: {n.message}" for n in app._notifications)


@pytest.fixture
def full_disk(box: Sandbox, monkeypatch: pytest.MonkeyPatch) -> Iterator[FullDisk]:
    yield FullDisk(box.root, monkeypatch)


@synchronous
async def test_a_full_disk_at_ctrl_s_keeps_the_answers_and_a_retry_after_freeing_saves(
    box: Sandbox, full_disk: FullDisk
) -> None:
    """ENOSPC on the append and on the draft: the app stays open, says "Not saved" and
    what failed, leaves neither a draft file nor a temp file, and once space is free
    the same answers save with the next ctrl+s. Before the fix the draft's own write
    failed inside the error handler and the app crashed out, the answers lost."""
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"Nightly image for GPT-OSS")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.crashed is None and app.return_value is None  # still open
        assert full_disk.refused >= 2  # the append, then the draft
        said = notifications(app)
        assert "Not saved" in said and "No space left on device" in said
        assert "press ctrl+s again" in said and "draft could not be kept" in said
        assert box.changelog.read_bytes() == before
        assert not drafts.location(box.changelog).exists()
        assert leftovers(box) == []
        assert app.current_draft().description == ["Nightly image for GPT-OSS"]
        full_disk.full = False  # space was freed
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 0
    after = box.changelog.read_bytes()
    assert after.startswith(before) and b'"Nightly image for GPT-OSS"' in after[len(before) :]
    assert leftovers(box) == []


def test_a_draft_write_that_fails_leaves_no_file(box: Sandbox, full_disk: FullDisk) -> None:
    """Before the fix, the writer created the missing draft file empty, then failed to
    fill it: an empty draft stayed behind."""
    draft = drafts.Draft(keys=["k"], description=["typed"])
    with pytest.raises(OSError, match="No space left"):
        drafts.save(box.changelog, draft)
    assert not drafts.location(box.changelog).exists()
    assert leftovers(box) == []
    full_disk.full = False
    drafts.save(box.changelog, draft)
    kept = drafts.load(box.changelog)
    assert kept is not None and kept[0] == draft


@synchronous
async def test_a_changelog_made_a_link_out_of_the_repository_is_not_shown_nor_written(
    box: Sandbox, tmp_path: Path
) -> None:
    """The file becomes a link to a file outside the checkout while the screen is
    open: the preview says so instead of showing it, and ctrl+s (twice: the first
    used to refuse as a change and re-read the outside file, the second appended to
    it) writes nothing anywhere. Before the fix the second ctrl+s appended to it."""
    outside = tmp_path / "outside.yaml"
    outside.write_bytes(box.changelog.read_bytes().replace(b"description:", b"description: "))
    secret = outside.read_bytes()
    original = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        box.changelog.unlink()
        box.changelog.symlink_to(outside)
        await pilot.press(*"Nightly image")
        await pilot.pause()
        shown = screen_text(app)
        assert "symbolic link that leads outside the repository" in shown
        assert "+ - config-keys:" not in shown  # no append is previewed
        for _ in range(2):
            await pilot.press("ctrl+s")
            await pilot.pause()
            await app.workers.wait_for_complete()
            assert app.return_value is None
        assert "outside the repository" in notifications(app)
        assert app.session.old == original  # the outside file was never read
    assert outside.read_bytes() == secret
