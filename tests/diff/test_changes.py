"""The diff engine on real git repositories: refs, the work tree, moves, recipes."""

from __future__ import annotations

import pytest

from changelog_tool import settings as settings_module
from changelog_tool.diff.engine import collect, gather
from changelog_tool.diff.keychange import ADDED, MODIFIED, RECIPE, REMOVED
from changelog_tool.errors import EnvironmentProblem

RECIPES = "benchmarks/multi_node/srt-slurm-recipes"


def key_block(key: str, image: str = "vllm/vllm-openai:v1", recipe: str | None = None) -> str:
    settings = f'\n        additional-settings:\n        - "CONFIG_FILE={recipe}"' if recipe else ""
    return (
        f"{key}:\n  image: {image}\n  model: some/model\n  runner: b200\n  precision: fp4\n"
        f"  framework: vllm\n  multinode: false\n  scenarios:\n    fixed-seq-len:\n"
        f"    - isl: 1024\n      osl: 1024\n      search-space:\n"
        f"      - tp: 8\n        conc-list: [4, 8, 16]{settings}\n"
    )


def master(*blocks: str) -> str:
    return "# NVIDIA configs\n" + "\n".join(blocks)


def entry(key: str, link: str = "XXX") -> str:
    return f'- config-keys:\n    - {key}\n  description:\n    - "Change {key}"\n  pr-link: {link}\n'


@pytest.fixture
def changes_project(repo):
    repo.commit(
        "base",
        **{
            "configs/nvidia-master.yaml": master(
                key_block("a-vllm"),
                key_block("b-vllm"),
                key_block("c-vllm", recipe="recipes/vllm/c.yaml"),
            ),
            "perf-changelog.yaml": entry("a-vllm", "https://github.com/o/r/pull/1"),
            f"{RECIPES}/vllm/c.yaml": "name: c\n",
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def load(repo):
    return settings_module.load(repo.root)


def by_key(changes):
    return {k.key: k for k in changes.keys}


def test_defaults_compare_the_merge_base_with_the_work_tree(changes_project) -> None:
    changes_project.commit(
        "feature: bump a",
        **{
            "configs/nvidia-master.yaml": master(
                key_block("a-vllm", image="vllm/vllm-openai:v2"),
                key_block("b-vllm"),
                key_block("c-vllm", recipe="recipes/vllm/c.yaml"),
            )
        },
    )
    changes_project.git("checkout", "-q", "main")
    changes_project.commit(
        "main moves on",
        **{
            "configs/nvidia-master.yaml": master(
                key_block("a-vllm"),
                key_block("b-vllm"),
                key_block("c-vllm", recipe="recipes/vllm/c.yaml"),
                key_block("z-main-only"),
            )
        },
    )
    changes_project.git("checkout", "-q", "feature")
    text = master(
        key_block("a-vllm", image="vllm/vllm-openai:v2"),
        key_block("b-vllm", image="other"),
        key_block("c-vllm", recipe="recipes/vllm/c.yaml"),
        key_block("d-new"),
    )
    changes_project.write("configs/nvidia-master.yaml", text)
    found_at_head = gather(load(changes_project))
    changes = found_at_head.changes
    assert changes.head == "WORKTREE"
    assert changes.base == changes_project.git("merge-base", "main", "HEAD")
    found = by_key(changes)
    assert sorted(found) == ["a-vllm", "b-vllm", "d-new"]  # z-main-only is not "removed"
    assert found["a-vllm"].fields == ("image",) and found["d-new"].kind == ADDED
    assert found["d-new"].scenarios == ("fixed-seq-len",)  # all of a new key's scenarios
    assert found["d-new"].line == text.split("\n").index("d-new:") + 1
    assert found_at_head.masters.owner["d-new"].path == "configs/nvidia-master.yaml"


def test_explicit_refs_ignore_the_work_tree(changes_project) -> None:
    head = changes_project.commit(
        "feature: bump a",
        **{
            "configs/nvidia-master.yaml": master(
                key_block("a-vllm", image="v9"),
                key_block("b-vllm"),
                key_block("c-vllm", recipe="recipes/vllm/c.yaml"),
            )
        },
    )
    changes_project.write("configs/nvidia-master.yaml", "uncommitted: {}\n")
    changes = collect(load(changes_project), base="main", head=head)
    assert changes.head == head
    assert [(k.key, k.kind) for k in changes.keys] == [("a-vllm", MODIFIED)]


def test_a_master_file_moved_to_another_directory_adds_no_key(changes_project) -> None:
    (changes_project.root / ".github" / "configs").mkdir(parents=True)
    changes_project.git("mv", "configs/nvidia-master.yaml", ".github/configs/nvidia-master.yaml")
    changes_project.commit("move the configs")
    found_at_head = gather(load(changes_project), base="main", head="HEAD")
    assert found_at_head.changes.keys == []
    assert found_at_head.masters.owner["a-vllm"].path == ".github/configs/nvidia-master.yaml"


def test_a_changed_recipe_marks_the_keys_that_reference_it(changes_project) -> None:
    changes_project.commit(
        "tune recipe",
        **{
            f"{RECIPES}/vllm/c.yaml": "name: c\ntuned: true\n",
            f"{RECIPES}/vllm/unused.yaml": "name: nobody\n",
        },
    )
    changes = collect(load(changes_project), base="main", head="HEAD")
    found = by_key(changes)
    assert found["c-vllm"].kind == RECIPE
    assert found["c-vllm"].recipes == (f"{RECIPES}/vllm/c.yaml",)
    assert found["c-vllm"].scenarios == ("fixed-seq-len",)  # the scenario that runs the recipe
    assert changes.recipes == {
        f"{RECIPES}/vllm/c.yaml": ["c-vllm"],
        f"{RECIPES}/vllm/unused.yaml": [],
    }
    assert changes.orphan_recipes == [f"{RECIPES}/vllm/unused.yaml"]


def test_a_bare_recipe_name_and_a_deleted_recipe(changes_project) -> None:
    changes_project.commit(
        "llm-d recipe",
        **{
            "benchmarks/multi_node/llm-d-recipes/d-mi355x.yaml": "name: d\n",
            "configs/nvidia-master.yaml": master(
                key_block("a-vllm"),
                key_block("b-vllm"),
                key_block("c-vllm", recipe="recipes/vllm/c.yaml"),
                key_block("d-vllm", recipe="d-mi355x.yaml"),
            ),
        },
    )
    changes_project.git("rm", "-q", f"{RECIPES}/vllm/c.yaml")
    changes_project.commit("drop recipe c")
    changes = collect(load(changes_project), base="main", head="HEAD")
    found = by_key(changes)
    assert found["d-vllm"].kind == ADDED
    assert found["d-vllm"].recipes == ("benchmarks/multi_node/llm-d-recipes/d-mi355x.yaml",)
    assert found["c-vllm"].kind == RECIPE  # still points at the deleted file
    assert changes.orphan_recipes == []
    (missing,) = [p for p in changes.problems if p.code == "missing-recipe"]
    assert (missing.key, missing.severity, missing.path) == (
        "c-vllm",
        "error",
        "configs/nvidia-master.yaml",
    )
    assert missing.line == master(key_block("a-vllm"), key_block("b-vllm")).count("\n") + 2
    assert "deletes" in missing.message


def test_uncommitted_and_untracked_recipes_count_in_the_work_tree(changes_project) -> None:
    changes_project.write(f"{RECIPES}/vllm/c.yaml", "name: c\nedited: yes\n")
    changes_project.write(f"{RECIPES}/vllm/new.yaml", "name: new\n")
    changes = collect(load(changes_project))
    assert sorted(changes.recipes) == [f"{RECIPES}/vllm/c.yaml", f"{RECIPES}/vllm/new.yaml"]
    assert changes.orphan_recipes == [f"{RECIPES}/vllm/new.yaml"]


def test_removed_and_reduced_keys_need_no_entry(changes_project) -> None:
    fewer = key_block("a-vllm").replace("[4, 8, 16]", "[4, 8]")
    changes_project.commit(
        "drop b, fewer points for a",
        **{
            "configs/nvidia-master.yaml": master(
                fewer, key_block("c-vllm", recipe="recipes/vllm/c.yaml")
            )
        },
    )
    changes = collect(load(changes_project), base="main", head="HEAD")
    found = by_key(changes)
    assert found["b-vllm"].kind == REMOVED and found["b-vllm"].line == 17
    assert found["a-vllm"].reduced
    assert changes.needing_entry() == []
    assert changes.to_json()["reduced"] == ["a-vllm"]


def test_appended_entries_come_with_their_lines(changes_project) -> None:
    changes_project.commit(
        "entry",
        **{
            "perf-changelog.yaml": entry("a-vllm", "https://github.com/o/r/pull/1")
            + "\n"
            + entry("b-vllm")
        },
    )
    changes = collect(load(changes_project), base="main", head="HEAD")
    assert changes.appended == [
        {"config-keys": ["b-vllm"], "description": ["Change b-vllm"], "pr-link": "XXX", "line": 7}
    ]


def test_without_a_protected_ref_the_base_must_be_named(changes_project) -> None:
    changes_project.git("branch", "-q", "-m", "main", "trunk")
    with pytest.raises(EnvironmentProblem, match="pass --base"):
        collect(load(changes_project))


def test_settings_in_a_subdirectory_scope_every_path_to_it(repo) -> None:
    repo.commit(
        "monorepo",
        **{
            "bench/pyproject.toml": '[tool.perf-changelog]\nrepository = "acme/bench"\n',
            "bench/configs/nvidia-master.yaml": master(key_block("a-vllm")),
            "bench/perf-changelog.yaml": entry("a-vllm", "https://github.com/acme/bench/pull/1"),
            "configs/nvidia-master.yaml": master(key_block("outside-vllm")),
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "bump",
        **{
            "bench/configs/nvidia-master.yaml": master(key_block("a-vllm", "v2")),
            "configs/nvidia-master.yaml": master(key_block("outside-vllm", "v2")),
        },
    )
    changes = collect(settings_module.load(repo.root / "bench"), base="main", head="HEAD")
    assert [(k.key, k.path) for k in changes.keys] == [
        ("a-vllm", "bench/configs/nvidia-master.yaml")
    ]


TUNED = "name: c\nbackend:\n  tp: 4\n  flags: [a, b]\nenv:\n  A: '1'\n"
REWRITTEN = (
    '# tuned by hand\nenv: {A: "1"}   # quoted differently\n\nbackend:\n'
    '    flags:\n    - a\n    - b\n    tp: 4\nname: "c"\n'
)


def test_a_recipe_edit_that_keeps_its_data_changes_nothing(changes_project) -> None:
    path = f"{RECIPES}/vllm/c.yaml"
    base = changes_project.commit("recipe with data", **{path: TUNED})
    changes_project.commit("comments, order, quoting and layout only", **{path: REWRITTEN})
    changes = collect(load(changes_project), base=base, head="HEAD")
    assert changes.keys == [] and changes.recipes == {} and changes.orphan_recipes == []
    assert changes.needing_entry() == []
    changes_project.write(path, REWRITTEN + "# and an uncommitted comment\n")
    assert collect(load(changes_project), base=base).recipes == {}  # the work tree as head


@pytest.mark.parametrize(
    "edited",
    [
        REWRITTEN.replace("tp: 4", "tp: 8"),
        REWRITTEN.replace('A: "1"', "A: 1"),  # a string became a number
        REWRITTEN.replace("tp: 4", "tp: 4.0"),  # equal in Python, another YAML value
        REWRITTEN + "extra: [\n",  # does not parse
    ],
)
def test_a_recipe_edit_that_changes_its_data_still_counts(changes_project, edited) -> None:
    path = f"{RECIPES}/vllm/c.yaml"
    base = changes_project.commit("recipe with data", **{path: TUNED})
    changes_project.commit("a real change", **{path: edited})
    changes = collect(load(changes_project), base=base, head="HEAD")
    assert by_key(changes)["c-vllm"].kind == RECIPE
    assert changes.recipes == {path: ["c-vllm"]}
    assert [k.key for k in changes.needing_entry()] == ["c-vllm"]


def test_a_recipe_that_does_not_parse_counts_as_changed(changes_project) -> None:
    path = f"{RECIPES}/vllm/c.yaml"
    base = changes_project.commit("broken recipe", **{path: "name: [c\n"})
    changes_project.commit("still broken, and a comment more", **{path: "# fixed\nname: [c\n"})
    assert collect(load(changes_project), base=base, head="HEAD").recipes == {path: ["c-vllm"]}
