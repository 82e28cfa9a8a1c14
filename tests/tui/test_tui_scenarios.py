"""The add screen starts from the scenario types that changed, and an entry that runs
zero points for a key blocks the save (the gate's own rule), on real repositories."""

from __future__ import annotations

from importlib import metadata
from pathlib import Path
from typing import Any

import pytest
from conftest import GitRepo
from textual.pilot import Pilot
from textual.widgets import Input, Label, TextArea
from tui_helpers import (
    ONE_ENTRY,
    SNAPSHOT_TEXTUAL,
    app_for,
    build,
    repository,
    settle,
    synchronous,
)

from changelog_tool.tui.app import AddApp

FIXED, AGENTIC = "fixed-seq-len", "agentic-coding"
DEMO_KEYS = [
    "kimik3-fp4-b300-dynamo-vllm-agentic",
    "gptoss-fp4-mi355x-vllm",
    "kimik3-fp4-b200-dynamo-vllm-agentic",
]


def both(key: str, agentic: str = "[1, 2]", image: str = "v1") -> str:
    return (
        f"{key}:\n  image: vllm/vllm-openai:{image}\n  scenarios:\n"
        "    fixed-seq-len:\n    - isl: 1024\n      osl: 1024\n      search-space:\n"
        "      - { tp: 8, conc-list: [4, 8] }\n"
        "    agentic-coding:\n    - duration: 1800\n      search-space:\n"
        f"      - {{ tp: 8, conc-list: {agentic} }}\n"
    )


def status(app: AddApp) -> str:
    return str(app.query_one("#status", Label).content)


@synchronous
async def test_only_the_changed_scenario_type_is_prefilled(repo: GitRepo) -> None:
    repository(repo, both("a-b200-vllm") + both("b-b200-vllm"))
    changed = both("a-b200-vllm", agentic="[1, 2, 4]") + both("b-b200-vllm")
    repo.commit("more agentic points", **{"configs/nvidia-master.yaml": changed})
    app = app_for(repo.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert app.current_draft().keys == ["a-b200-vllm"]
        assert app.current_draft().scenario_types == [AGENTIC]


@synchronous
async def test_every_type_changed_leaves_the_scenario_type_unset(repo: GitRepo) -> None:
    repository(repo, both("a-b200-vllm"))
    repo.commit("image", **{"configs/nvidia-master.yaml": both("a-b200-vllm", image="v2")})
    app = app_for(repo.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert app.current_draft().keys == ["a-b200-vllm"]
        assert app.current_draft().scenario_types == []


@synchronous
async def test_a_new_key_with_one_type_leaves_the_scenario_type_unset(repo: GitRepo) -> None:
    repository(repo, both("a-b200-vllm"))
    agentic_only = (
        "b-b200-vllm:\n  image: i\n  scenarios:\n    agentic-coding:\n    - duration: 1\n"
    )
    repo.commit("new key", **{"configs/nvidia-master.yaml": both("a-b200-vllm") + agentic_only})
    app = app_for(repo.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert app.current_draft().keys == ["b-b200-vllm"]
        assert app.current_draft().scenario_types == []  # every type it has changed


@synchronous
async def test_a_key_half_covered_is_chosen_with_the_types_still_missing(repo: GitRepo) -> None:
    repository(repo, both("a-b200-vllm"))
    selected = (
        "\n- config-keys:\n    - a-b200-vllm\n  scenario-type:\n    - agentic-coding\n"
        '  description:\n    - "New image, agentic"\n  pr-link: XXX\n'
    )
    repo.commit(
        "image, and an entry for one scenario",
        **{
            "configs/nvidia-master.yaml": both("a-b200-vllm", image="v2"),
            "perf-changelog.yaml": ONE_ENTRY + selected,
        },
    )
    app = app_for(repo.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert app.current_draft().keys == ["a-b200-vllm"]
        assert app.current_draft().scenario_types == [FIXED]


def mis_scoped(root: Path) -> AddApp:
    """The demo's three changed keys with fixed-seq-len named: both kimik3 keys have
    only agentic-coding, so the entry runs zero points for them."""
    return app_for(root, keys=DEMO_KEYS, scenario_types=[FIXED], description=["x"])


@synchronous
async def test_a_zero_point_entry_blocks_the_save_in_the_status_line(tmp_path: Path) -> None:
    app = mis_scoped(build(tmp_path).root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert status(app).startswith("✗ 2 problems to fix before ctrl+s: scenario-type")
        assert "ready" not in status(app)
        before = app.session.path.read_bytes()
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.session.path.read_bytes() == before


@pytest.mark.skipif(
    metadata.version("textual") != SNAPSHOT_TEXTUAL,
    reason=f"the snapshots are drawn with Textual {SNAPSHOT_TEXTUAL}",
)
def test_a_zero_point_entry_on_screen(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLORFGBG", raising=False)  # the dark theme, as a terminal would say

    async def run_before(pilot: Pilot[Any]) -> None:
        assert isinstance(pilot.app, AddApp)
        pilot.app.theme = "textual-dark"
        pilot.app.animation_level = "none"
        for field in pilot.app.query("Input, TextArea"):
            assert isinstance(field, Input | TextArea)
            field.cursor_blink = False
        await settle(pilot)

    app = mis_scoped(build(tmp_path).root)
    assert snap_compare(app, terminal_size=(140, 45), run_before=run_before)
