"""Recipe references inside master-config keys (pure)."""

from __future__ import annotations

import pytest

from changelog_tool.diff.recipes import is_recipe, needle, references, refers_to, same_data
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


@pytest.mark.parametrize(
    ("old", "new", "same"),
    [
        (b'flag: "off"\n', b"flag: off\n", False),  # text to YAML 1.2, false to PyYAML
        (b"flag: yes\n", b'flag: "yes"\n', False),
        (b"n: 010\n", b"n: 10\n", False),  # 10 to YAML 1.2 both times; 8, then 10 to PyYAML
        (b"flag: off\n", b"flag: off  # kept\n", True),
        (b'flag: "off"\n', b"{flag: 'off'}\n", True),
        (b"a: 1\n", b"a: 2\n", False),
        (b"a: 1\n", b"a: 1\nb: [\n", False),  # no longer parses
    ],
)
def test_a_recipe_is_the_same_only_when_both_readings_say_so(
    old: bytes, new: bytes, same: bool
) -> None:
    assert same_data(old, new) is same
    assert same_data(new, old) is same


def test_versions_pyyaml_reads_at_neither_side_are_the_same_to_the_jobs() -> None:
    # a tab before a value: libyaml and YAML 1.2 take it, PyYAML's reader does not
    assert same_data(b"a:\t1\n", b"a:\t1  # note\n")
    assert not same_data(b"a: 1\n", b"a:\t1\n")
