"""Changes a branch could hide from the gate by writing YAML that the byte scan and a
YAML reader see differently, in real git repositories through the installed command:
each is reported as the change it is (or refused with a finding), never passed."""

from __future__ import annotations

import pytest
from projects import NVIDIA, NVIDIA_TEXT, findings, key_block, make_project, run_checked

# (libyaml, and the YAML 1.1 readers benchmark CI uses, break lines at each of these)
BREAKS = {"LS": "\u2028", "PS": "\u2029", "NEL": "\x85", "CR": "\r"}


@pytest.mark.parametrize("name", BREAKS)
def test_a_key_after_a_line_break_other_than_newline_is_a_changed_key(repo, name: str) -> None:
    make_project(repo)
    text = NVIDIA_TEXT.replace("\nb-vllm:", BREAKS[name] + "b-vllm:").replace(
        "openai:v1", "openai:v2"
    )
    text = text.replace("openai:v2", "openai:v1", 1)  # only b-vllm's image changes
    assert text.count("openai:v2") == 1
    repo.commit(
        "hide b-vllm's change after a line break the scan does not split at", **{NVIDIA: text}
    )
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "b-vllm")]
    keys = run_checked(repo, "keys", "--base", "main", "--format", "json")
    assert "b-vllm" in keys.stdout and '"removed": []' in keys.stdout.replace("\n", "")


def test_a_new_key_after_a_line_separator_is_an_added_key(repo) -> None:
    make_project(repo)
    repo.commit("add", **{NVIDIA: NVIDIA_TEXT.rstrip("\n") + "\u2028" + key_block("c-vllm")})
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "c-vllm")]


@pytest.mark.parametrize("value", ["&a [*a]", "&a {x: *a}", "&a [1, [2, *a]]"])
def test_a_value_holding_itself_is_a_yaml_alias_finding(repo, value: str) -> None:
    make_project(repo)  # (ruamel builds a list that holds itself: a RecursionError after)
    text = NVIDIA_TEXT + f"c-vllm:\n  env: {value}\n"
    repo.commit("recursive", **{NVIDIA: text})
    for command in ("verify", "keys", "lint"):
        found = findings(repo, command, "--base", "main")
        alias = [f for f in found if f["code"] == "yaml-alias"]
        assert [(f["path"], f["line"]) for f in alias] == [(NVIDIA, text.count("\n"))], command
        assert "inside the collection it names" in alias[0]["message"]
    linted = run_checked(repo, "lint", "--base", "main")
    assert linted.returncode == 1 and "holds itself" in linted.stdout  # (the hook reports it too)


def test_an_alias_to_a_collection_already_closed_is_no_recursion(repo) -> None:
    make_project(repo)
    text = NVIDIA_TEXT + "c-vllm:\n  a: &a [1, &b [2]]\n  b: [*a, {x: *b}]\n  c: *a\n"
    repo.commit("reuse", **{NVIDIA: text})
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "c-vllm")]


RECIPE = "benchmarks/multi_node/srt-slurm-recipes/v/agg.yaml"


@pytest.mark.parametrize(
    "reference",
    [
        r'"CONFIG_FILE=recipes/v/\x61gg.yaml"',  # an escape spells a letter its bytes lack
        r'"CONFIG_FILE=recipes/v/a\u0067g.yaml"',
        '"CONFIG_FILE=recipes/v/ag\\\n    g.yaml"',  # an escaped line break joins the lines
        "CONFIG_FILE=recipes/v/./agg.yaml",
        "CONFIG_FILE=./recipes//v/agg.yaml",
        "CONFIG_FILE=recipes/w/../v/agg.yaml",
    ],
)
def test_a_recipe_change_needs_an_entry_however_its_reference_is_spelled(
    repo, reference: str
) -> None:
    make_project(repo)
    text = NVIDIA_TEXT + f"c-vllm:\n  image: x\n  env:\n  - {reference}\n"
    repo.commit("recipe", **{NVIDIA: text, RECIPE: "tp: 8\n"})
    repo.git("branch", "-f", "main")
    repo.commit("retune", **{RECIPE: "tp: 16\n"})
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "c-vllm")]


def _link_master_to_a_changed_copy(repo) -> None:
    """Head: the master config is a link to a changed copy outside the master glob."""
    changed = NVIDIA_TEXT.replace("openai:v1", "openai:v2")
    repo.commit("copy", **{"configs/real.yaml": changed})
    (repo.root / NVIDIA).unlink()
    (repo.root / NVIDIA).symlink_to("real.yaml")


@pytest.mark.parametrize("head", [["--head", "HEAD"], []])
def test_a_master_config_that_is_a_link_is_a_finding_at_a_commit_and_in_the_work_tree(
    repo, head: list[str]
) -> None:
    make_project(repo)
    _link_master_to_a_changed_copy(repo)
    repo.git("add", "-A")
    repo.git("commit", "-qm", "link")
    found = findings(repo, "verify", "--base", "main", *head)
    links = [(f["code"], f["path"]) for f in found if f["code"] == "symbolic-link"]
    assert links == [("symbolic-link", NVIDIA)]
    assert run_checked(repo, "verify", "--base", "main", *head).returncode == 1


def test_a_master_folder_that_is_a_link_is_a_finding(repo) -> None:
    make_project(repo)
    repo.commit("moved", **{"elsewhere/nvidia-master.yaml": NVIDIA_TEXT.replace("v1", "v2")})
    repo.git("rm", "-rq", "configs")
    (repo.root / "configs").symlink_to("elsewhere")
    repo.git("add", "-A")
    repo.git("commit", "-qm", "link the folder")
    for head in (["--head", "HEAD"], []):
        found = findings(repo, "verify", "--base", "main", *head)
        assert ("symbolic-link", "configs") in [(f["code"], f["path"]) for f in found], head


@pytest.mark.parametrize("head", [["--head", "HEAD"], []])
def test_a_recipe_that_is_a_link_is_a_finding(repo, head: list[str]) -> None:
    make_project(repo)
    text = NVIDIA_TEXT + "c-vllm:\n  image: x\n  env:\n  - CONFIG_FILE=recipes/v/agg.yaml\n"
    repo.commit("recipe", **{NVIDIA: text, RECIPE: "tp: 8\n", "other/agg.yaml": "tp: 16\n"})
    repo.git("branch", "-f", "main")
    (repo.root / RECIPE).unlink()
    (repo.root / RECIPE).symlink_to("../../../../other/agg.yaml")
    repo.git("add", "-A")
    repo.git("commit", "-qm", "link the recipe")
    found = findings(repo, "verify", "--base", "main", *head)
    assert ("symbolic-link", RECIPE) in [(f["code"], f["path"]) for f in found]


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("tp: 10", "tp: 010"),  # 8 to a YAML 1.1 reader
        ('ep: "on"', "ep: on"),  # true to a YAML 1.1 reader
        ('mode: "yes"', "mode: yes"),
        ('window: "1:20"', "window: 1:20"),  # 80, sexagesimal
    ],
)
def test_a_change_only_a_yaml_1_1_reader_sees_needs_an_entry(repo, before: str, after: str) -> None:
    make_project(repo)  # benchmark jobs read the configs with PyYAML: YAML 1.1
    text = NVIDIA_TEXT + f"c-vllm:\n  image: x\n  {before}\n"
    repo.commit("c", **{NVIDIA: text})
    repo.git("branch", "-f", "main")
    repo.commit("respell", **{NVIDIA: text.replace(before, after)})
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "c-vllm")]


def test_a_respelling_both_yaml_versions_read_alike_needs_no_entry(repo) -> None:
    make_project(repo)
    key = 'c-vllm:\n  image: x\n  tp: 8\n  ep: "on"\n'
    repo.commit("c", **{NVIDIA: NVIDIA_TEXT + key})
    repo.git("branch", "-f", "main")
    respelled = key.replace("tp: 8", "tp: 0x8  # eight").replace('"on"', "'on'")
    repo.commit("respell", **{NVIDIA: NVIDIA_TEXT + respelled})
    assert findings(repo, "verify", "--base", "main") == []


def test_in_a_sparse_checkout_the_master_configs_left_out_are_read_as_staged(repo) -> None:
    make_project(repo)
    repo.commit("other", **{"other/f": "x\n"})
    repo.git("branch", "-f", "main")
    repo.commit("add c", **{NVIDIA: NVIDIA_TEXT + key_block("c-vllm")})
    repo.git("sparse-checkout", "set", "other")
    assert not (repo.root / NVIDIA).exists()
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "c-vllm")]


def _respelled(repo, before: str, after: str, extra: str = "") -> list[dict]:
    make_project(repo)
    text = NVIDIA_TEXT + extra + f"c-vllm:\n  image: x\n{before}"
    repo.commit("c", **{NVIDIA: text})
    repo.git("branch", "-f", "main")
    repo.commit("respell", **{NVIDIA: text.replace(before, after)})
    return findings(repo, "verify", "--base", "main")


@pytest.mark.parametrize(
    ("before", "after"),
    [
        ("  util: 1000.0\n", "  util: 1e3\n"),  # a string to PyYAML: no dot in 1e3
        ('  flags:\n    "on": 1\n    true: 2\n', "  flags:\n    on: 1\n    true: 2\n"),
        ("  s: { tp: 8, conc: 4 }\n", "  s: { tp: 8,\tconc: 4 }\n"),  # PyYAML refuses it
    ],
)
def test_changes_only_pyyaml_sees_fail_the_gate(repo, before: str, after: str) -> None:
    found = _respelled(repo, before, after)
    assert found and all(f.get("key") in (None, "c-vllm") for f in found), found
    assert {"uncovered-key", "yaml-syntax"} & {f["code"] for f in found}


def test_a_respelling_pyyaml_reads_alike_needs_no_entry(repo) -> None:
    assert _respelled(repo, '  q: "y"\n', "  q: y\n") == []  # y is a string in YAML 1.1


def test_a_reduction_as_yaml_1_2_reads_it_that_adds_points_for_pyyaml_needs_an_entry(
    repo,
) -> None:
    before = "  s:\n  - { tp: 8, conc-start: 4, conc-end: 64 }\n"
    found = _respelled(repo, before, before.replace("conc-start: 4", "conc-start: 016"))
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "c-vllm")]


def test_a_merge_order_change_pyyaml_sees_is_a_change_of_the_key_that_merges(repo) -> None:
    make_project(repo)  # ruamel keeps the first merged tp, PyYAML the last
    text = NVIDIA_TEXT + (
        "k1:\n  s: &s1 { tp: 8 }\nk2:\n  s: &s2 { tp: 8 }\nk3:\n  s:\n    <<: [*s1, *s2]\n"
    )
    repo.commit("anchors", **{NVIDIA: text})
    repo.git("branch", "-f", "main")
    repo.commit("k2", **{NVIDIA: text.replace("&s2 { tp: 8 }", "&s2 { tp: 4 }")})
    found = findings(repo, "verify", "--base", "main")
    assert {f.get("key") for f in found if f["code"] == "uncovered-key"} == {"k2", "k3"}


@pytest.mark.parametrize("key", ["on", "yes", "Off", "1_000"])
def test_a_top_level_key_pyyaml_reads_as_no_name_is_a_key_name_finding(repo, key: str) -> None:
    make_project(repo)
    repo.commit("odd", **{NVIDIA: NVIDIA_TEXT + key_block(key)})
    found = [f for f in findings(repo, "verify", "--base", "main") if f["code"] == "key-name"]
    assert len(found) == 1, found
    assert "a name" in found[0]["message"] and "quote it" in found[0]["message"]
