"""A top-level key defined twice in one master config is its last definition, as
PyYAML (which benchmark jobs read the configs with) keeps it: a branch that edits,
renames or deletes that copy changed the key, and a base that holds such a key is
told so (a warning naming both lines). Real repositories, the installed command."""

from __future__ import annotations

import json

import yaml
from projects import (
    HISTORY,
    LOG,
    NVIDIA,
    NVIDIA_TEXT,
    codes,
    entry,
    key_block,
    line_of,
    make_project,
    run,
    verify,
)

LATER = key_block("a-vllm", image="vllm/vllm-openai:v9")
DOUBLED = NVIDIA_TEXT + "\n" + LATER  # a-vllm twice: v1 first, v9 last


def doubled_on_main(repo) -> None:
    make_project(repo)
    repo.git("checkout", "-q", "main")
    repo.commit("a-vllm twice", **{NVIDIA: DOUBLED})
    repo.git("checkout", "-q", "-B", "feature")
    assert yaml.safe_load(DOUBLED)["a-vllm"]["image"] == "vllm/vllm-openai:v9"


def keys_json(repo) -> dict:
    done = run(repo, "keys", "--base", "main", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)


def test_editing_the_last_definition_is_a_change_of_the_key(repo) -> None:
    doubled_on_main(repo)
    text = DOUBLED.replace("vllm/vllm-openai:v9", "vllm/vllm-openai:v10")
    repo.commit("edit the copy CI reads", **{NVIDIA: text})
    assert yaml.safe_load(text)["a-vllm"]["image"] == "vllm/vllm-openai:v10"
    code, document = verify(repo)
    assert code == 1
    assert document["changed"]["modified"] == {"a-vllm": ["image"]}
    (uncovered,) = [f for f in document["findings"] if f["code"] == "uncovered-key"]
    assert uncovered["line"] == line_of(text, "a-vllm:", len(NVIDIA_TEXT))
    assert keys_json(repo)["changed"]["modified"] == {"a-vllm": ["image"]}


def test_deleting_the_last_definition_is_a_change_of_the_key(repo) -> None:
    doubled_on_main(repo)
    repo.commit("drop the later copy", **{NVIDIA: NVIDIA_TEXT})
    code, document = verify(repo)  # CI now runs v1 where it ran v9
    assert document["changed"]["modified"] == {"a-vllm": ["image"]}
    # v9 came with no entry: v1 is what a-vllm's newest entry benchmarked
    assert code == 0 and codes(document) == ["restored"]


def test_deleting_the_last_definition_of_a_benchmarked_state_needs_an_entry(repo) -> None:
    doubled_on_main(repo)
    repo.git("checkout", "-q", "main")
    repo.commit("benchmark v9", **{LOG: HISTORY + "\n" + entry("a-vllm", "Run v9")})
    repo.git("checkout", "-q", "-B", "feature")
    repo.commit("drop the later copy", **{NVIDIA: NVIDIA_TEXT})
    code, document = verify(repo)  # CI now runs v1 where its newest entry ran v9
    assert code == 1 and codes(document) == ["uncovered-key"]


def test_renaming_the_last_definition_changes_the_key_and_adds_the_new_name(repo) -> None:
    doubled_on_main(repo)
    text = NVIDIA_TEXT + "\n" + LATER.replace("a-vllm:", "c-vllm:")
    repo.commit("rename the later copy", **{NVIDIA: text})
    document = keys_json(repo)["changed"]
    assert document["added"] == ["c-vllm"] and document["modified"] == {"a-vllm": ["image"]}


def test_editing_only_the_shadowed_definition_changes_nothing_ci_runs(repo) -> None:
    doubled_on_main(repo)
    text = DOUBLED.replace("vllm/vllm-openai:v1", "vllm/vllm-openai:v5", 1)
    assert yaml.safe_load(text) == yaml.safe_load(DOUBLED)
    repo.commit("edit the copy nobody reads", **{NVIDIA: text})
    document = keys_json(repo)["changed"]
    assert document["modified"] == {} and document["added"] == []


def test_a_key_defined_twice_on_the_base_is_a_warning_naming_both_lines(repo) -> None:
    doubled_on_main(repo)
    repo.commit("entry only", **{LOG: HISTORY + "\n" + entry("b-vllm")})
    code, document = verify(repo)
    assert code == 0
    (found,) = document["findings"]
    assert (found["code"], found["severity"], found["path"]) == (
        "duplicate-yaml-key",
        "warning",
        NVIDIA,
    )
    first, last = line_of(DOUBLED, "a-vllm:"), line_of(DOUBLED, "a-vllm:", len(NVIDIA_TEXT))
    assert found["line"] == last
    assert f"on lines {first} and {last}" in found["message"]
    assert "keeps the last definition" in found["message"]


def test_a_branch_that_defines_a_key_twice_fails(repo) -> None:
    make_project(repo)
    repo.commit("a-vllm twice", **{NVIDIA: DOUBLED, LOG: HISTORY + "\n" + entry("a-vllm")})
    code, document = verify(repo)
    assert code == 1
    (found,) = [f for f in document["findings"] if f["code"] == "duplicate-yaml-key"]
    assert found["severity"] == "error"
    assert document["changed"]["modified"] == {"a-vllm": ["image"]}


def test_in_a_file_read_whole_the_last_definition_is_the_key_too(repo) -> None:
    # an anchor makes the file be parsed whole, and that parse refuses a repeated key:
    # the earlier copy is set aside, its anchor kept for the alias after it
    anchored = NVIDIA_TEXT.replace("b-vllm:\n", "b-vllm: &b\n", 1) + "c-vllm: *b\n"
    doubled = anchored + "\n" + LATER
    make_project(repo)
    repo.git("checkout", "-q", "main")
    repo.commit("a-vllm twice, with an alias", **{NVIDIA: doubled})
    repo.git("checkout", "-q", "-B", "feature")
    text = doubled.replace("vllm/vllm-openai:v9", "vllm/vllm-openai:v10")
    assert yaml.safe_load(text)["a-vllm"]["image"] == "vllm/vllm-openai:v10"
    repo.commit("edit the copy CI reads", **{NVIDIA: text})
    code, document = verify(repo)
    assert code == 1
    assert document["changed"]["modified"] == {"a-vllm": ["image"]}
    assert [f["severity"] for f in document["findings"] if f["code"] == "duplicate-yaml-key"] == [
        "warning"
    ]
