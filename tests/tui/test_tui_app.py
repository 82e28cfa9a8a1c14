"""The add screen's behaviour, driven with Textual's Pilot on real demo repositories."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from projects import run
from textual.widgets import Checkbox, Input, Label, TextArea
from tui_helpers import SIZE, app_for, build, screen_text, settle, synchronous

from changelog_tool.authoring import drafts
from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.findings import has_errors
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.tui.keys import KeyPicker
from changelog_tool.tui.screens import ConfirmLeave

CHANGED = [
    "kimik3-fp4-b300-dynamo-vllm-agentic",
    "gptoss-fp4-mi355x-vllm",
    "kimik3-fp4-b200-dynamo-vllm-agentic",
]


@pytest.fixture
def box(tmp_path: Path) -> Sandbox:
    return build(tmp_path)


def changelog_add(root: Path, *args: str) -> None:
    done = run(root, "add", "--no-input", *args)
    assert done.returncode == 0, done.stderr


def status(app: object) -> str:
    """The status line and the problems under the fields."""
    labels = [
        app.query_one(f"#{name}", Label) for name in ("status", "form-problem", "keys-problem")
    ]  # type: ignore[attr-defined]
    return "\n".join(str(label.content) for label in labels if label.display)


@synchronous
async def test_the_uncovered_changed_keys_are_preselected_and_the_description_has_focus(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert sorted(app.query_one(KeyPicker).to_model()) == sorted(CHANGED)
        assert app.focused is app.query_one("#description", TextArea)
        # gptoss-fp4-mi355x-vllm's image changed, so every scenario must run: none is ticked
        assert not app.query_one("#scenario-agentic-coding", Checkbox).value
        assert not app.query_one("#scenario-fixed-seq-len", Checkbox).value
        assert app.query_one("#pr-link", Input).value == "XXX"
        text = screen_text(app)
        assert "Changed keys since" in text and "image, scenarios.agentic-coding" in text


@synchronous
async def test_a_key_an_appended_entry_already_covers_is_shown_but_not_preselected(
    box: Sandbox,
) -> None:
    changelog_add(box.root, "--key", "gptoss-fp4-mi355x-*", "--description", "Nightly image")
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        chosen = app.query_one(KeyPicker).to_model()
        assert "gptoss-fp4-mi355x-vllm" not in chosen
        assert sorted(chosen) == sorted(k for k in CHANGED if k != "gptoss-fp4-mi355x-vllm")
        text = screen_text(app)
        assert "covered; image, scenarios" in text
        assert "3 (2 to cover, 1 already covered)" in text


@synchronous
async def test_typing_a_pattern_shows_how_many_keys_it_matches_and_enter_adds_it(
    box: Sandbox,
) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"dsr1-fp4-*")
        await pilot.pause()
        expected = len(app.session.pattern_matches("dsr1-fp4-*"))
        assert expected == 6
        assert str(app.query_one("#match-count", Label).content).strip() == "6 keys match"
        await pilot.press("enter")
        await pilot.pause()
        assert app.query_one(KeyPicker).to_model()[-1] == "dsr1-fp4-*"
        assert "pattern: 6 keys" in screen_text(app)
        assert "    - dsr1-fp4-*" in app.session.preview(app.current_draft()).appended.decode()


@synchronous
async def test_a_typed_key_is_completed_from_the_master_keys(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"qwen3.5-fp8-mi")
        await pilot.pause()
        await pilot.press("right")
        assert app.query_one("#pattern", Input).value == "qwen3.5-fp8-mi355x-atom"
        assert str(app.query_one("#match-count", Label).content).strip() == "1 key matches"


@synchronous
async def test_validation_problems_show_inline_and_saving_is_refused(box: Sandbox) -> None:
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "description: write at least one line" in status(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.is_running and box.changelog.read_bytes() == before
        await pilot.press(*"Bump the image")
        app.query_one("#pr-link", Input).value = "http://example.com/pr/1"
        await pilot.pause()
        assert "pr-link" in status(app) and "not a pull-request link" in screen_text(app)
        app.query_one("#pr-link", Input).value = "https://github.com/other/repo/pull/9"
        await pilot.pause()
        assert "not this repository (example/inferencex-demo)" in status(app)
        app.query_one("#pr-link", Input).value = "XXX"
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"no-such-key-*", "enter")
        await pilot.pause()
        assert "'no-such-key-*' matches no key in" in status(app)
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert box.changelog.read_bytes() == before


@synchronous
async def test_saving_appends_exactly_the_bytes_the_preview_showed(box: Sandbox) -> None:
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"Add Kimi-K3 B300 agentic", "enter", *"Nightly image for GPT-OSS")
        await pilot.pause()
        preview = app.session.preview(app.current_draft())
        assert preview.appended and not preview.problems and "✓ ready" in status(app)
        shown = screen_text(app)
        assert '+     - "Nightly image for GPT-OSS"' in shown  # the description, in view
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 0
    after = box.changelog.read_bytes()
    assert after == before + preview.appended
    assert b'    - "Nightly image for GPT-OSS"\n  pr-link: XXX\n' in after
    assert not has_errors(check_file(after, "perf-changelog.yaml").findings)
    assert drafts.load(box.changelog) is None


@synchronous
async def test_a_file_changed_before_saving_is_reread_and_the_answers_kept(box: Sandbox) -> None:
    """Another program appends while the screen is open: saving refuses (the preview
    showed other bytes), keeps the answers, reads the file again (its history too),
    and the next ctrl+s appends after the other program's entry."""
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"Add Kimi-K3 B300 agentic")
        await pilot.pause()
        app.session.history()  # parsed once, from the file as it was
        changelog_add(box.root, "--key", CHANGED[1], "--description", "Meanwhile elsewhere")
        other = box.changelog.read_bytes()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert app.return_value is None and box.changelog.read_bytes() == other
        assert "Your answers are kept" in " ".join(str(n.message) for n in app._notifications)
        assert app.session.old == other
        assert any("Meanwhile elsewhere" in str(e) for _, e in app.session.history())
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 0
    after = box.changelog.read_bytes()
    assert after.startswith(other) and b'"Add Kimi-K3 B300 agentic"' in after[len(other) :]


@synchronous
async def test_leaving_untouched_writes_nothing_and_asks_nothing(box: Sandbox) -> None:
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 1
    assert box.changelog.read_bytes() == before and drafts.load(box.changelog) is None


@synchronous
async def test_leaving_with_typed_text_asks_first_and_stay_keeps_editing(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"half a thought", "ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmLeave)
        assert "Leave without saving?" in screen_text(app)
        await pilot.press("n")
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmLeave) and app.is_running
        assert app.query_one("#description", TextArea).text == "half a thought"


@synchronous
async def test_unsaved_answers_are_kept_and_offered_prefilled_next_time(box: Sandbox) -> None:
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"Keep me", "escape")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 1
    assert "kept" in app.return_value.message
    assert box.changelog.read_bytes() == before
    again = app_for(box.root)
    async with again.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        assert again.query_one("#description", TextArea).text == "Keep me"
        assert sorted(again.query_one(KeyPicker).to_model()) == sorted(CHANGED)
        assert "Restored your unsaved answers" in screen_text(again)


@synchronous
async def test_a_file_changed_underneath_is_not_overwritten_and_a_retry_saves(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press(*"My entry")
        await pilot.pause()
        changelog_add(box.root, "--key", "llama70b-fp8-h100-vllm", "--description", "Theirs")
        theirs = box.changelog.read_bytes()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.is_running and box.changelog.read_bytes() == theirs
        kept = drafts.load(box.changelog)
        assert kept is not None and kept[0].description == ["My entry"]
        assert app.session.old == theirs
        preview = app.session.preview(app.current_draft())
        await pilot.press("ctrl+s")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 0
    assert box.changelog.read_bytes() == theirs + preview.appended
    assert drafts.load(box.changelog) is None


@synchronous
async def test_when_nothing_changed_the_screen_says_so_and_a_hand_written_entry_saves(
    box: Sandbox,
) -> None:
    subprocess.run(["git", "checkout", "-q", "-b", "fresh", box.base], cwd=box.root, check=True)
    before = box.changelog.read_bytes()
    app = app_for(box.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "Keys: nothing changed since" in screen_text(app)
        assert app.focused is app.query_one("#pattern", Input)
        await pilot.press(*"llama70b-fp8-h100-vllm", "enter")
        app.query_one("#description", TextArea).focus()
        await pilot.press(*"Re-run the sweep", "ctrl+s")
        await pilot.pause()
    assert app.return_value is not None and app.return_value.code == 0
    assert box.changelog.read_bytes().startswith(before)
    assert box.changelog.read_bytes().endswith(
        b"- config-keys:\n    - llama70b-fp8-h100-vllm\n  description:\n"
        b'    - "Re-run the sweep"\n  pr-link: XXX\n'
    )


@synchronous
async def test_flags_prefill_every_answer(box: Sandbox) -> None:
    app = app_for(
        box.root,
        keys=["gptoss-fp4-mi355x-vllm"],
        scenario_types=["fixed-seq-len"],
        description=["From a flag"],
        pr_link="https://github.com/example/inferencex-demo/pull/7",
        flags=["evals-only"],
        numbers={"eval-min-prefill-ep": 2},
    )
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        draft = app.current_draft()
        assert draft.keys == ["gptoss-fp4-mi355x-vllm"]
        assert draft.scenario_types == ["fixed-seq-len"]
        assert draft.description == ["From a flag"]
        assert draft.pr_link.endswith("/pull/7") and draft.flags == ["evals-only"]
        assert draft.numbers == {"eval-min-prefill-ep": 2}


@synchronous
async def test_f2_shows_the_previous_entries_for_the_chosen_keys(box: Sandbox) -> None:
    app = app_for(box.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        await pilot.press("f2")
        await pilot.pause()
        text = screen_text(app)
        assert "Previous entries for the chosen keys: 3, newest first" in text
        assert text.index("pull/105") < text.index("pull/103")
        await pilot.press("f2")
        await pilot.pause()
        # the line the entry lands on (after the blank line before it), as saving says
        assert "Preview: appended at line 41 of perf-changelog.yaml" in screen_text(app)
