"""`verify --base` on master configs that break: keys that do not parse, duplicate
fields, a file that no longer parses, a key defined in two master files (real git)."""

from __future__ import annotations

from projects import (
    AMD,
    AMD_TEXT,
    HISTORY,
    LOG,
    NVIDIA,
    NVIDIA_TEXT,
    codes,
    entry,
    key_block,
    line_of,
    run,
    verify,
)


# --- master keys that do not parse ---------------------------------------------------
def test_an_added_master_key_that_is_broken_yaml_fails_at_its_line(project) -> None:
    text = NVIDIA_TEXT + "broken-key:\n  image: [oops\n"
    project.write(NVIDIA, text)
    project.write(LOG, HISTORY + "\n" + entry("broken-key"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["yaml-syntax"]
    finding = document["findings"][0]
    assert (finding["path"], finding["line"]) == (NVIDIA, line_of(text, "  image: [oops"))


def test_a_value_that_reads_as_a_date_and_is_none_fails_at_its_line(project) -> None:
    """``2025-13-01`` resolves as a timestamp that cannot be built: a finding at its
    line (it had been an internal error, exit 2), and a suggestion without the
    marker that says the key could not be read."""
    text = NVIDIA_TEXT.replace("  runner: b200\n", "  runner: b200\n  since: 2025-13-01\n", 1)
    project.write(NVIDIA, text)
    code, document = verify(project)
    assert code == 1 and codes(document) == ["yaml-syntax", "uncovered-key"]
    finding = document["findings"][0]
    assert (finding["path"], finding["line"]) == (NVIDIA, line_of(text, "  since:"))
    assert "'2025-13-01'" in finding["message"] and "quote it" in finding["message"]
    assert '    - "Update config of a-vllm"\n' in document["suggested_entry"]


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
    text = (
        NVIDIA_TEXT.replace("a-vllm:\n", "a-vllm: &base\n", 1)
        + "c-vllm:\n  <<: *base\n  image: vllm/vllm-openai:v2\n"
    )
    project.write(NVIDIA, text)
    project.write(LOG, HISTORY + "\n" + entry("c-vllm"))
    code, document = verify(project)
    assert (code, codes(document)) == (0, [])
    assert document["changed"]["added"] == ["c-vllm"]


def test_a_master_file_that_does_not_parse_at_head_does_not_make_its_keys_removed(project) -> None:
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


def test_a_key_with_a_line_break_is_quoted_in_every_finding(project) -> None:
    """A name from the branch is one line in every format: the uncovered-key message
    quotes it as the key-name finding does (GitHub shows an escaped %0A as a break)."""
    project.write(NVIDIA, NVIDIA_TEXT + '"x\\nvllm":\n  image: v1\n')
    code, document = verify(project)
    assert code == 1
    uncovered = [f for f in document["findings"] if f["code"] == "uncovered-key"]
    assert uncovered and uncovered[0]["message"].startswith("'x\\nvllm' was added")
    github = run(project, "verify", "--base", "main", "--format", "github").stdout
    assert "%0Avllm was added" not in github
