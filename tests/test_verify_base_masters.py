"""`verify --base` on master configs that break: keys that do not parse, duplicate
fields, a file that no longer parses, a key defined in two master files (real git).

The helpers here are shared with the other ``test_verify_base_*`` files."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

NVIDIA = "configs/nvidia-master.yaml"
AMD = "configs/amd-master.yaml"
LOG = "perf-changelog.yaml"


def key_block(key: str, image: str = "vllm/vllm-openai:v1") -> str:
    return (f"{key}:\n  image: {image}\n  model: some/model\n  runner: b200\n"
            f"  precision: fp4\n  framework: vllm\n  multinode: false\n  scenarios:\n"
            f"    fixed-seq-len:\n    - isl: 1024\n      osl: 1024\n      search-space:\n"
            f"      - {{ tp: 8, conc-list: [4, 8] }}\n")


def entry(key: str, text: str = "Change", link: str = "XXX") -> str:
    return f"- config-keys:\n    - {key}\n  description:\n    - \"{text}\"\n  pr-link: {link}\n"


NVIDIA_TEXT = "# NVIDIA configs\n" + key_block("a-vllm") + "\n" + key_block("b-vllm")
AMD_TEXT = "# AMD configs\n" + key_block("m-rocm", image="rocm/vllm:v1")
HISTORY = (entry("a-vllm", "Add a", "https://github.com/acme/bench/pull/1") + "\n"
           + entry("b-vllm", "Add b", "https://github.com/acme/bench/pull/2"))


def make_project(repo):
    """main: both master files and a two-entry history; checked out: branch feature."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, AMD: AMD_TEXT, LOG: HISTORY,
                           ".perf-changelog.toml": 'repository = "acme/bench"\n'})
    repo.git("checkout", "-q", "-b", "feature")
    return repo


@pytest.fixture
def project(repo):
    return make_project(repo)


def run(repo, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "changelog_tool", *args], cwd=repo.root,
                          capture_output=True, text=True, env=os.environ, check=False)


def verify(repo, *args: str) -> tuple[int, dict]:
    done = run(repo, "verify", "--base", "main", "--format", "json", *args)
    assert done.returncode in (0, 1), done.stderr
    return done.returncode, json.loads(done.stdout)


def codes(document: dict) -> list[str]:
    return [f["code"] for f in document["findings"]]


def line_of(text: str, needle: str, start: int = 0) -> int:
    return text.count("\n", 0, text.index(needle, start)) + 1


# --- master keys that do not parse ---------------------------------------------------
def test_an_added_master_key_that_is_broken_yaml_fails_at_its_line(project) -> None:
    text = NVIDIA_TEXT + "broken-key:\n  image: [oops\n"
    project.write(NVIDIA, text)
    project.write(LOG, HISTORY + "\n" + entry("broken-key"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["yaml-syntax"]
    finding = document["findings"][0]
    assert (finding["path"], finding["line"]) == (NVIDIA, line_of(text, "  image: [oops"))


def test_an_added_key_whose_value_is_not_a_mapping_line_fails(project) -> None:
    project.write(NVIDIA, NVIDIA_TEXT + "x-vllm: y: z\n")
    project.write(LOG, HISTORY + "\n" + entry("x-vllm"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["yaml-syntax"]


def test_an_added_key_with_a_duplicate_field_fails_at_the_second_one(project) -> None:
    text = NVIDIA_TEXT + key_block("dup-vllm").replace("  model:", "  image: other\n  model:")
    project.write(NVIDIA, text)
    project.write(LOG, HISTORY + "\n" + entry("dup-vllm"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["duplicate-yaml-key"]
    finding = document["findings"][0]
    assert (finding["path"], finding["line"]) == (NVIDIA, line_of(text, "  image: other"))
    assert "'image'" in finding["message"]


def test_a_duplicate_field_deep_inside_a_modified_key_fails(project) -> None:
    text = NVIDIA_TEXT.replace("      osl: 1024\n", "      osl: 1024\n      osl: 2048\n", 1)
    project.write(NVIDIA, text)
    project.write(LOG, HISTORY + "\n" + entry("a-vllm"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["duplicate-yaml-key"]
    assert document["findings"][0]["line"] == line_of(text, "      osl: 2048")


def test_anchors_and_merge_keys_that_override_a_field_are_legal(project) -> None:
    text = (NVIDIA_TEXT.replace("a-vllm:\n", "a-vllm: &base\n", 1)
            + "c-vllm:\n  <<: *base\n  image: vllm/vllm-openai:v2\n")
    project.write(NVIDIA, text)
    project.write(LOG, HISTORY + "\n" + entry("c-vllm"))
    code, document = verify(project)
    assert (code, codes(document)) == (0, [])
    assert document["changed"]["added"] == ["c-vllm"]


def test_a_master_file_that_does_not_parse_at_head_does_not_make_its_keys_removed(
        project) -> None:
    old = ".github/configs/nvidia-master.yaml"
    project.git("rm", "-q", NVIDIA)
    project.commit("old layout", **{old: NVIDIA_TEXT})
    project.git("branch", "-f", "main", "HEAD")
    project.git("rm", "-q", old)
    text = NVIDIA_TEXT + "{broken\n"
    project.write(NVIDIA, text)
    code, document = verify(project)
    assert code == 1 and codes(document) == ["yaml-syntax"]
    finding = document["findings"][0]
    assert (finding["path"], finding["line"]) == (NVIDIA, line_of(text, "{broken"))
    assert document["changed"]["removed"] == [] and document["changed"]["modified"] == {}
    done = run(project, "keys")
    assert "removed" not in done.stdout and "yaml-syntax" in done.stdout


# --- one key in two master files ------------------------------------------------------------
def test_a_key_copied_into_the_other_master_file_is_a_duplicate_master_key(project) -> None:
    text = AMD_TEXT + "\n" + key_block("a-vllm", image="rocm/vllm:v9")
    project.write(AMD, text)
    project.write(LOG, HISTORY + "\n" + entry("a-vllm"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["duplicate-master-key"]
    finding = document["findings"][0]
    assert (finding["path"], finding["line"]) == (AMD, line_of(text, "a-vllm:"))
    assert f"{NVIDIA}:2" in finding["message"]


def test_a_key_that_was_already_in_both_files_at_base_is_not_reported_again(project) -> None:
    project.commit("copy", **{AMD: AMD_TEXT + "\n" + key_block("a-vllm", image="rocm/vllm:v9")})
    project.git("branch", "-f", "main", "HEAD")
    project.write(LOG, HISTORY + "\n" + entry("b-vllm"))
    code, document = verify(project)
    assert (code, codes(document)) == (0, [])
