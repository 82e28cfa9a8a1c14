"""Large repositories: with FILTER_FROM master keys or more, a filter box narrows the key
list; the changed keys stay on top and what is ticked stays ticked while filtered out."""

from __future__ import annotations

from conftest import GitRepo
from projects import key_block
from textual.widgets import Input
from tui_helpers import SIZE, app_for, repository, screen_text, settle, synchronous

from changelog_tool.tui.keys import FILTER_FROM, KeyList, KeyPicker


def many_keys(count: int) -> str:
    return "\n".join(key_block(f"k-{n:03d}-vllm") for n in range(count))


@synchronous
async def test_a_large_repository_gets_a_filter_that_keeps_changed_keys_and_selections(
    repo: GitRepo,
) -> None:
    count = FILTER_FROM + 15
    repository(repo, many_keys(count))
    bumped = many_keys(count)
    for key in ("k-012-vllm", "k-150-vllm"):
        bumped = bumped.replace(f"{key}:\n  image: vllm/vllm-openai:v1", f"{key}:\n  image: v2")
    repo.commit("bump two", **{"configs/nvidia-master.yaml": bumped})
    app = app_for(repo.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        picker, keys = app.query_one(KeyPicker), app.query_one(KeyList)
        filter_box = app.query_one("#filter", Input)
        assert filter_box.display and keys.option_count == count
        assert picker.to_model() == ["k-012-vllm", "k-150-vllm"]
        filter_box.focus()
        await pilot.press(*"k-15")
        await pilot.pause()
        shown = [keys.get_option_at_index(i).value for i in range(keys.option_count)]
        assert shown == ["k-150-vllm", *(f"k-15{n}-vllm" for n in range(1, 10))]
        await pilot.press("enter")  # to the list
        await pilot.pause()
        assert app.focused is keys
        await pilot.press("down", "space")
        await pilot.pause()
        assert picker.to_model() == ["k-012-vllm", "k-150-vllm", "k-151-vllm"]
        filter_box.value = ""
        await pilot.pause()
        assert keys.option_count == count
        assert set(keys.selected) == {"k-012-vllm", "k-150-vllm", "k-151-vllm"}
        assert "    - k-151-vllm" in app.session.preview(app.current_draft()).appended.decode()


@synchronous
async def test_a_small_repository_has_no_filter(repo: GitRepo) -> None:
    repository(repo, many_keys(FILTER_FROM - 1))
    app = app_for(repo.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.query_one("#filter", Input).display
        assert app.query_one(KeyList).option_count == FILTER_FROM - 1


@synchronous
async def test_a_filter_that_hides_every_key_says_so_instead_of_a_blank_list(
    repo: GitRepo,
) -> None:
    repository(repo, many_keys(FILTER_FROM))
    app = app_for(repo.root)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        keys = app.query_one(KeyList)
        filter_box = app.query_one("#filter", Input)
        filter_box.focus()
        await pilot.press(*"K-1-Sglang")
        await pilot.pause()
        assert keys.option_count == 0
        assert 'No key name contains "K-1-Sglang": change or shorten the filter' in screen_text(app)
        await pilot.press(*["backspace"] * len("-Sglang"))
        await pilot.pause()
        assert keys.option_count > 0
        assert "No key name contains" not in screen_text(app)
