"""What an entry will run, in the preview: benchmark points per key against a hand-counted
master config, the total, and a warning for a pattern far broader than the change."""

from __future__ import annotations

from conftest import GitRepo
from projects import key_block
from textual.widgets import Checkbox, Input, Static
from tui_helpers import app_for, repository, screen_text, settle, synchronous

from changelog_tool import settings as settings_module
from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.rows import KeyReach, Reach
from changelog_tool.authoring.session import AddSession, Preview
from changelog_tool.gate.acceptance import BROAD_PATTERN_EXTRA_KEYS, broad
from changelog_tool.tui.keys import KeyPicker
from changelog_tool.tui.texts import SHOWN_KEYS, runs

# Hand-counted: a point is one concurrency of one search-space entry of one scenario item.
MASTER = """\
a-b200-vllm:
  image: vllm/vllm-openai:v1
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - { tp: 8, conc-list: [1, 2, 4] }
      - { tp: 4, conc-start: 4, conc-end: 64 }
    - isl: 8192
      osl: 1024
      search-space:
      - { tp: 8, conc-list: [8] }
    agentic-coding:
    - duration: 300
      search-space:
      - { tp: 8, conc-list: [1, 2, 4, 8] }
b-b200-vllm:
  image: vllm/vllm-openai:v1
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - { tp: 8, conc-start: 1, conc-end: 256 }
c-mi355x-vllm:
  image: rocm/vllm:v1
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - { tp: 8, conc-start: 1, conc-end: 512 }
      - { tp: 4, conc-list: [1, 2, 3, 4, 5, 6, 7, 8, 9] }
"""
# a: fixed-seq-len 3 + 5 (4..64) + 1 = 9, agentic-coding 4: 13
# b: fixed-seq-len 9 (1..256)
# c: fixed-seq-len 10 (1..512) + 9 = 19
# a + b + c = 41 points in 2 scenario types
DSR1 = "".join(key_block(f"dsr1-fp{4 + n % 2}-h{n:03d}-sglang") for n in range(15))


def note(app: object) -> str:
    return str(app.query_one("#pane-note", Static).content)  # type: ignore[attr-defined]


@synchronous
async def test_the_preview_counts_keys_scenario_types_and_points_as_by_hand(repo: GitRepo) -> None:
    repository(repo, MASTER + DSR1)
    changed = MASTER.replace("vllm/vllm-openai:v1", "vllm/vllm-openai:v2")
    repo.commit("bump a and b", **{"configs/nvidia-master.yaml": changed + DSR1})
    app = app_for(repo.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        assert app.query_one(KeyPicker).to_model() == ["a-b200-vllm", "b-b200-vllm"]
        assert note(app) == "Runs: 2 keys, 2 scenario types, 22 benchmark points"
        assert "Benchmark points per type: fixed-seq-len 18, agentic-coding 4" in screen_text(app)
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"c-mi355x-vllm", "enter")
        await pilot.pause()
        assert note(app) == "Runs: 3 keys, 2 scenario types, 41 benchmark points"
        text = screen_text(app)
        assert "a-b200-vllm   fixed-seq-len 9, agentic-coding 4 = 13" in text
        assert "b-b200-vllm   fixed-seq-len 9" in text
        assert "c-mi355x-vllm fixed-seq-len 19" in text
        # naming a scenario type runs only that type; keys without it run nothing
        app.query_one("#scenario-agentic-coding", Checkbox).value = True
        await pilot.pause()
        assert note(app) == (
            "Runs: 3 keys, 1 scenario type, 4 benchmark points\n"
            "⚠ agentic-coding selects nothing for 2 keys (b-b200-vllm, c-mi355x-vllm)"
        )
        app.query_one("#scenario-agentic-coding", Checkbox).value = False
        # a narrow pattern is fine; one that reaches 15 unchanged keys is warned about
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"dsr1-fp4-h00*", "enter")
        await pilot.pause()
        assert "⚠" not in note(app)
        await pilot.press(*"dsr1*", "enter")
        await pilot.pause()
        # each dsr1 key (tests/projects.py key_block): one item, conc-list [4, 8]: 2 points
        assert note(app).startswith("Runs: 18 keys, 2 scenario types, 71 benchmark points")
        assert "⚠ 'dsr1*' matches 15 keys; 15 of them did not change on this branch" in note(app)
        assert "'dsr1*' matches 15 keys" in screen_text(app)


def test_a_pattern_is_broad_past_the_threshold_of_unchanged_keys() -> None:
    limit = BROAD_PATTERN_EXTRA_KEYS
    keys = [f"k{n}" for n in range(limit + 3)]
    changed = keys[:2]
    assert broad("k*", keys[: limit + 2], changed) is None  # exactly `limit` unchanged
    assert broad("k*", keys[: limit + 3], changed) is not None
    assert broad("k1", keys[: limit + 3], changed) is None  # a key is never broad


def body(app: object) -> str:
    return str(app.query_one("#pane-body", Static).content)  # type: ignore[attr-defined]


@synchronous
async def test_a_pattern_reaching_many_keys_lists_the_first_and_counts_the_rest(
    repo: GitRepo,
) -> None:
    """The pane renders every line it holds: thousands of key lines made each keystroke
    take seconds. The first SHOWN_KEYS are listed, the others counted on one line, and
    typing a description (same keys) reuses the reach instead of recomputing it."""
    many = "".join(key_block(f"dsr1-fp4-h{n:03d}-sglang") for n in range(SHOWN_KEYS + 30))
    repository(repo, MASTER + many)
    changed = MASTER.replace("vllm/vllm-openai:v1", "vllm/vllm-openai:v2")
    repo.commit("bump a and b", **{"configs/nvidia-master.yaml": changed + many})
    app = app_for(repo.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"dsr1*", "enter")
        await pilot.pause()
        text = body(app)
        # a and b, then SHOWN_KEYS - 2 dsr1 keys; 32 dsr1 keys left, 2 points each
        assert text.count("dsr1-fp4-h") == SHOWN_KEYS - 2
        assert "dsr1-fp4-h047-sglang" in text and "dsr1-fp4-h048-sglang" not in text
        assert text.rstrip().endswith("... and 32 more keys: 64 benchmark points")
        assert note(app).startswith(
            f"Runs: {SHOWN_KEYS + 32} keys, 2 scenario types, {22 + 2 * (SHOWN_KEYS + 30)}"
        )
        session = app.session  # type: ignore[attr-defined]
        before = session.reach(app.current_draft())  # type: ignore[attr-defined]
        app.query_one("#description").focus()
        await pilot.press(*"abc")
        await pilot.pause()
        assert session.reach(app.current_draft()) is before  # type: ignore[attr-defined]
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"c-mi355x-vllm", "enter")
        await pilot.pause()
        assert session.reach(app.current_draft()) is not before  # type: ignore[attr-defined]
        assert "... and 33 more keys" in body(app)


def test_points_past_the_budget_are_pending_then_counted(repo: GitRepo) -> None:
    """A preview counts points for at most its budget; the keys left are pending (said
    in the total, never cached as the reach), and once counted the reach is the one a
    preview with time enough gives."""
    repository(repo, MASTER + DSR1)
    settings = settings_module.load(repo.root)
    session = AddSession(settings, settings.changelog_path)
    session.load()
    draft = Draft(keys=["*"])
    session.points_budget = 0
    partial = session.reach(draft)
    keys = [k.key for k in partial.keys]
    assert len(keys) == 18 and partial.pending == keys
    assert partial.summary() == (
        "18 keys, at least 0 scenario types, at least 0 benchmark points "
        "(the points of 18 keys still being counted)"
    )
    _, lines = runs(Preview(reach=partial))
    assert "counting..." in str(lines[0])
    assert session.reach(draft) is not partial  # a pending reach is not kept
    for key in partial.pending[:5]:
        session.points(key)
    assert len(session.reach(draft).pending) == 13  # what was counted is kept
    session.points_budget = 60
    for key in keys[:17]:
        session.points(key)
    session.points_budget = 0
    one_left = session.reach(draft)
    assert one_left.summary().endswith("(the points of 1 key still being counted)")
    for key in keys:
        session.points(key)
    complete = session.reach(draft)
    assert not complete.pending and session.reach(draft) is complete
    fresh = AddSession(settings, settings.changelog_path)
    fresh.load()
    fresh.points_budget = 60
    assert fresh.reach(draft) == complete
    assert complete.summary() == "18 keys, 2 scenario types, 71 benchmark points"


@synchronous
async def test_the_screen_counts_what_the_preview_left_and_shows_the_total(repo: GitRepo) -> None:
    """With no time to count in the preview itself, the screen counts the points in
    slices between keystrokes, then shows the complete total."""
    repository(repo, MASTER + DSR1)
    app = app_for(repo.root)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        app.session.points_budget = 0  # type: ignore[attr-defined]
        app.query_one("#pattern", Input).focus()
        await pilot.press(*"dsr1*", "enter")
        for _ in range(200):
            if "counting" not in note(app):
                break
            await pilot.pause(0.02)
        assert note(app).startswith("Runs: 15 keys, 1 scenario type, 30 benchmark points")
        assert "counting" not in body(app)


def test_the_line_for_the_keys_not_listed_says_what_is_unknown_and_still_counted() -> None:
    shown = [KeyReach(f"k{n:03d}", {"fixed-seq-len": 2}) for n in range(SHOWN_KEYS)]
    rest = [
        KeyReach("one", {"fixed-seq-len": 1}),
        KeyReach("broken", {}, known=False),
        KeyReach("later", {}, counted=False),
    ]
    _, lines = runs(Preview(reach=Reach([*shown, *rest], [])))
    assert str(lines[-1]) == (
        "  ... and 3 more keys: 1 benchmark point so far "
        "(1 of them with points unknown; 1 of them still being counted)"
    )
    _, lines = runs(Preview(reach=Reach([*shown, *rest[:1]], [])))
    assert str(lines[-1]) == "  ... and 1 more key: 1 benchmark point"
