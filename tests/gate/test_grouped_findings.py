"""Repeated findings are grouped where they are made: one ``recipe-reference`` per
key (a key with a recipe per search-space point dangles many at once), one
``orphan-recipe`` per folder; the JSON output keeps each place in a list field
(real git, the real command)."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, run

RECIPES = "benchmarks/multi_node/srt-slurm-recipes"


def points_key(key: str, recipes: list[str]) -> str:
    """A master key with one search-space point per recipe, each naming its own."""
    points = "".join(
        f"      - tp: 8\n        conc-list: [{n + 1}]\n"
        f'        additional-settings:\n        - "CONFIG_FILE={recipe}"\n'
        for n, recipe in enumerate(recipes)
    )
    return (
        f"{key}:\n  image: i:v1\n  model: m\n  runner: b200\n  precision: fp4\n"
        f"  framework: dynamo-trt\n  multinode: true\n  scenarios:\n    fixed-seq-len:\n"
        f"    - isl: 1024\n      osl: 1024\n      search-space:\n{points}"
    )


def findings(repo: GitRepo, command: str, code: str) -> list[dict]:
    done = run(repo, command, "--base", "main", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return [f for f in json.loads(done.stdout)["findings"] if f["code"] == code]


def test_a_key_dangling_a_recipe_per_point_is_one_finding_listing_them(
    project: GitRepo,
) -> None:
    missing = [f"recipes/trt/p{n:02}.yaml" for n in range(37)]
    project.commit("points", **{NVIDIA: NVIDIA_TEXT + "\n" + points_key("t-trt", missing)})
    for command in ("lint", "verify"):
        [found] = findings(project, command, "recipe-reference")
        assert found["key"] == "t-trt" and found["path"] == NVIDIA
        assert "t-trt references 37 recipes that are not in this repository" in found["message"]
        assert (
            "'recipes/trt/p00.yaml', 'recipes/trt/p01.yaml', 'recipes/trt/p02.yaml' and 34 more"
            in (found["message"])
        )
        listed = found["references"]
        assert [r["reference"] for r in listed] == missing
        assert listed[0]["path"] == f"{RECIPES}/trt/p00.yaml"
        assert found["line"] == listed[0]["line"] < listed[-1]["line"]
    text = run(project, "lint", "--base", "main").stdout
    assert text.count("recipe-reference") == 1


def test_one_dangling_reference_reads_as_before(project: GitRepo) -> None:
    project.commit(
        "one", **{NVIDIA: NVIDIA_TEXT + "\n" + points_key("t-trt", ["recipes/trt/x.yaml"])}
    )
    [found] = findings(project, "lint", "recipe-reference")
    assert found["message"].startswith(
        f"t-trt references 'recipes/trt/x.yaml', but {RECIPES}/trt/x.yaml is not in this repository"
    )
    assert [r["reference"] for r in found["references"]] == ["recipes/trt/x.yaml"]


def test_orphan_recipes_are_one_finding_per_folder_listing_its_files(project: GitRepo) -> None:
    many = {f"{RECIPES}/new/r{n:02}.yaml": f"name: r{n}\n" for n in range(30)}
    project.commit("recipes", **many, **{f"{RECIPES}/other/alone.yaml": "name: a\n"})
    found = findings(project, "verify", "orphan-recipe")
    assert len(found) == 2
    folder, alone = sorted(found, key=lambda f: len(f["files"]), reverse=True)
    assert folder["files"] == sorted(many) and folder["path"] == f"{RECIPES}/new/r00.yaml"
    assert folder["severity"] == "warning"
    assert f"these 30 recipes in {RECIPES}/new/" in folder["message"]
    assert "r00.yaml, r01.yaml, r02.yaml and 27 more" in folder["message"]
    assert alone["files"] == [f"{RECIPES}/other/alone.yaml"]
    assert alone["message"].startswith("no master-config key references this recipe")
    text = run(project, "verify", "--base", "main").stdout
    assert text.count("orphan-recipe") == 2
