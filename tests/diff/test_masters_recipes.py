"""Recipe references inside master-config keys (pure)."""

from __future__ import annotations

from changelog_tool.diff.recipes import is_recipe, needle, references, refers_to
from changelog_tool.settings import DEFAULT_RECIPE_DIRS, DEFAULT_RECIPE_PREFIXES

PREFIXES = DEFAULT_RECIPE_PREFIXES


def test_references_are_found_anywhere_inside_a_key() -> None:
    value = {
        "scenarios": {
            "fixed-seq-len": [
                {
                    "search-space": [
                        {
                            "prefill": {
                                "additional-settings": [
                                    "CONFIG_FILE=recipes/vllm/kimi/agg-b200.yaml",
                                    "OTHER=1",
                                ]
                            }
                        },
                        {"decode": {"env": "RECIPE=disagg-mi355x.yml"}},
                    ]
                }
            ]
        },
        "image": "x=notarecipe",
    }
    assert references(value) == ["disagg-mi355x.yml", "recipes/vllm/kimi/agg-b200.yaml"]


def test_a_prefixed_reference_names_the_file_under_its_directory() -> None:
    path = "benchmarks/multi_node/srt-slurm-recipes/vllm/kimi/agg-b200.yaml"
    assert refers_to("recipes/vllm/kimi/agg-b200.yaml", path, PREFIXES)
    assert not refers_to("recipes/vllm/kimi/agg-b300.yaml", path, PREFIXES)
    assert refers_to(path, path, PREFIXES)


def test_a_bare_name_means_any_recipe_with_that_file_name() -> None:
    path = "benchmarks/multi_node/llm-d-recipes/disagg-mi355x.yaml"
    assert refers_to("disagg-mi355x.yaml", path, PREFIXES)
    assert not refers_to("disagg-mi300x.yaml", path, PREFIXES)
    assert needle(path) == "disagg-mi355x.yaml"


def test_only_yaml_under_recipe_directories_are_recipes() -> None:
    assert is_recipe(
        "benchmarks/multi_node/srt-slurm-recipes/a.yaml", PREFIXES, DEFAULT_RECIPE_DIRS
    )
    assert is_recipe("benchmarks/multi_node/llm-d-recipes/b.yml", PREFIXES, DEFAULT_RECIPE_DIRS)
    assert not is_recipe("benchmarks/multi_node/run.sh", PREFIXES, DEFAULT_RECIPE_DIRS)
    assert not is_recipe("configs/nvidia-master.yaml", PREFIXES, DEFAULT_RECIPE_DIRS)
