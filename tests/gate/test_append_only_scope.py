"""The benchmark CI's scope rules for ``append-only: true`` entries, on real repositories.

The first five cases restate, as inputs to this gate, the ``test_append_only_scope_*``
cases of InferenceX's ``utils/test_process_changelog.py`` (the verdict each expects
from ``validate_append_only_scope``); the others take the rest of the CI's rules one
by one (``build_plan``: entries mixed, a selected config missing from the base)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
import yaml
from projects import verify

MASTER = "configs/nvidia-master.yaml"
LOG = "perf-changelog.yaml"
FIXED = "fixed-seq-len"
AGENTIC = "agentic-coding"
HISTORY = (
    '- config-keys:\n    - test-config\n  description:\n    - "Add test-config"\n'
    "  pr-link: https://github.com/acme/bench/pull/1\n"
)


def entry(keys: list[str], kinds: list[str] | None = None, append_only: bool = True) -> str:
    text = "- config-keys:\n" + "".join(f"    - {k}\n" for k in keys)
    if kinds:
        text += "  scenario-type:\n" + "".join(f"    - {k}\n" for k in kinds)
    text += '  description:\n    - "Add points"\n  pr-link: XXX\n'
    return text + ("  append-only: true\n" if append_only else "")


def dump(master: dict[str, Any]) -> str:
    return yaml.safe_dump(master, sort_keys=False, default_flow_style=False)


def judged(repo, base: dict[str, Any], head: dict[str, Any], *entries: str) -> list[dict]:
    """The findings of ``verify --base main`` for a branch that turns ``base`` into
    ``head`` and appends ``entries``."""
    repo.commit(
        "base",
        **{MASTER: dump(base), LOG: HISTORY, ".perf-changelog.toml": 'repository = "acme/bench"\n'},
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("change", **{MASTER: dump(head), LOG: "\n".join([HISTORY, *entries])})
    code, document = verify(repo)
    assert code == (1 if any(f["severity"] == "error" for f in document["findings"]) else 0)
    return list(document["findings"])


def scope(findings: list[dict]) -> list[str]:
    return [f["message"] for f in findings if f["code"] == "append-only-scope"]


def two_scenarios(router: str = "0.8.1") -> dict[str, Any]:
    space = {"search-space": [{"tp": 4, "conc-list": [1]}]}
    return {
        "test-config": {
            "router": {"name": "dynamo-router", "version": router},
            "scenarios": {FIXED: copy.deepcopy(space), AGENTIC: copy.deepcopy(space)},
        }
    }


# --- InferenceX's own cases -----------------------------------------------------------
def test_changes_inside_a_selected_scenario_are_left_to_the_matrix_comparison(repo) -> None:
    """``..._defers_selected_scenario_changes_to_matrix_comparison``: allowed."""

    def config(duration: int, conc: list[int]) -> dict[str, Any]:
        scenario = {"duration": duration, "search-space": [{"tp": 8, "conc-list": conc}]}
        return {
            "test-config": {"image": "vllm/vllm-openai:v0.16.0", "scenarios": {AGENTIC: scenario}}
        }

    base, head = config(3600, [1, 4]), config(1800, [1, 4, 8])
    assert judged(repo, base, head, entry(["test-config"], [AGENTIC])) == []


def test_additive_top_level_restructuring_is_allowed(repo) -> None:
    """``..._allows_additive_top_level_restructuring``: a top-level field moved into the
    search space, and a new search-space entry, with the only scenario selected."""
    router_a, router_b = {"name": "router-a", "version": "1"}, {"name": "router-b", "version": "2"}
    base = {
        "test-config": {
            "image": "img",
            "model": "m",
            "model-prefix": "m",
            "precision": "fp4",
            "framework": "vllm",
            "runner": "b200",
            "multinode": False,
            "router": router_a,
            "scenarios": {
                FIXED: [
                    {"isl": 8192, "osl": 1024, "search-space": [{"tp": 4, "conc-list": [1, 4, 8]}]}
                ]
            },
        }
    }
    head = copy.deepcopy(base)
    del head["test-config"]["router"]
    space = head["test-config"]["scenarios"][FIXED][0]["search-space"]
    space[0]["router"] = router_a
    space.append({"tp": 8, "conc-list": [12, 16], "router": router_b})
    assert judged(repo, base, head, entry(["test-config"], [FIXED])) == []


def test_a_config_wide_change_with_an_unselected_scenario_is_refused(repo) -> None:
    """``..._rejects_global_change_with_unselected_scenario``."""
    found = judged(
        repo, two_scenarios("0.8.1"), two_scenarios("0.8.2"), entry(["test-config"], [FIXED])
    )
    (message,) = scope(found)
    assert "test-config: config-wide field(s) router changed" in message
    assert f"scenario(s) {AGENTIC} are not selected" in message
    assert "drop append-only" in message


def test_a_change_to_an_unselected_scenario_is_refused(repo) -> None:
    """``..._rejects_changes_to_unselected_scenario``."""
    head = two_scenarios()
    head["test-config"]["scenarios"][AGENTIC]["search-space"][0]["conc-list"] = [1, 4]
    found = judged(repo, two_scenarios(), head, entry(["test-config"], [FIXED]))
    (message,) = scope(found)
    assert f"test-config: scenario {AGENTIC} changed but the append-only entries do not" in message
    # the gate's own coverage rule says the same pair is not selected
    assert [f["key"] for f in found if f["code"] == "uncovered-key"] == ["test-config"]


def test_a_range_turned_into_a_list_is_allowed(repo) -> None:
    """``..._allows_range_to_list_expansion``."""

    def config(space: dict[str, Any]) -> dict[str, Any]:
        return {
            "test-config": {
                "image": "vllm/vllm-openai:v0.16.0",
                "scenarios": {FIXED: {"search-space": [{"tp": 8, **space}]}},
            }
        }

    base = config({"conc-start": 4, "conc-end": 64})
    head = config({"conc-list": [4, 16, 32, 64]})
    assert judged(repo, base, head, entry(["test-config"], [FIXED])) == []


# --- the rest of the CI's rules -------------------------------------------------------
def test_append_only_and_regular_entries_cannot_share_a_sweep(repo) -> None:
    head = two_scenarios()
    head["test-config"]["scenarios"][FIXED]["search-space"][0]["conc-list"] = [1, 2]
    found = judged(
        repo,
        two_scenarios(),
        head,
        entry(["test-config"], [FIXED]),
        entry(["test-config"], [AGENTIC], append_only=False),
    )
    (message,) = scope(found)
    assert "append-only entries (line 7: test-config) cannot share a sweep" in message
    assert "with regular entries (line 16: test-config)" in message


def test_a_selected_config_missing_from_the_base_is_refused(repo) -> None:
    head = {**two_scenarios(), "new-config": two_scenarios()["test-config"]}
    found = judged(repo, two_scenarios(), head, entry(["new-config"]))
    (message,) = scope(found)
    assert message.startswith("new-config is selected by an append-only entry but does not exist")


def test_a_changed_config_outside_the_selection_is_refused(repo) -> None:
    base = {**two_scenarios(), "other-config": two_scenarios()["test-config"]}
    head = copy.deepcopy(base)
    head["test-config"]["scenarios"][FIXED]["search-space"][0]["conc-list"] = [1, 2]
    head["other-config"]["router"]["version"] = "0.9"
    found = judged(repo, base, head, entry(["test-config"], [FIXED]))
    (message,) = scope(found)
    assert message.startswith("other-config changed (modified) but no append-only entry selects")


@pytest.mark.parametrize("added", [True, False])
def test_a_selected_config_may_not_gain_or_lose_a_scenario(repo, added: bool) -> None:
    one = {
        "test-config": {"scenarios": {FIXED: two_scenarios()["test-config"]["scenarios"][FIXED]}}
    }
    both = {"test-config": {"scenarios": two_scenarios()["test-config"]["scenarios"]}}
    base, head = (one, both) if added else (both, one)
    found = judged(repo, base, head, entry(["test-config"]))
    (message,) = scope(found)
    verb = "adds" if added else "removes"
    assert f"test-config: the branch {verb} scenario {AGENTIC}" in message


def test_without_append_only_entries_no_scope_rule_applies(repo) -> None:
    found = judged(
        repo,
        two_scenarios("0.8.1"),
        two_scenarios("0.8.2"),
        entry(["test-config"], append_only=False),
    )
    assert found == []
