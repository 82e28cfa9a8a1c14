"""`changelog keys` follows the output contract of `verify`: JSON and GitHub formats."""

from __future__ import annotations

import json

from conftest import ROOT
from projects import (
    AMD,
    AMD_TEXT,
    NVIDIA,
    NVIDIA_TEXT,
    codes,
    key_block,
    line_of,
    run,
)

README = ROOT / "README.md"


# --- the output contract of keys ------------------------------------------------------------
def test_keys_json_has_the_shape_of_verify_json(project) -> None:
    project.write(NVIDIA, NVIDIA_TEXT.replace("conc-list: [4, 8] }", "conc-list: [4, 8 }", 1))
    done = run(project, "keys", "--base", "main", "--format", "json")
    document = json.loads(done.stdout)
    assert {"ok", "base", "head", "changed", "findings"} <= set(document)
    assert "problems" not in document
    assert document["ok"] is False and codes(document) == ["yaml-syntax"]
    assert done.returncode == 1
    project.write(NVIDIA, NVIDIA_TEXT.replace("v1", "v2", 1))
    done = run(project, "keys", "--base", "main", "--format", "json")
    document = json.loads(done.stdout)
    assert (done.returncode, document["ok"], document["findings"]) == (0, True, [])


def test_keys_github_format_annotates_findings_and_changed_keys(project) -> None:
    text = NVIDIA_TEXT.replace("v1", "v2", 1) + key_block("c-vllm")
    project.write(NVIDIA, text)
    project.write(AMD, AMD_TEXT + "n-rocm:\n  image: [oops\n")
    done = run(project, "keys", "--format", "github")
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert any(
        line.startswith(f"::error file={AMD},line=") and "title=yaml-syntax" in line
        for line in lines
    )
    assert f"::notice file={NVIDIA},line=2,title=modified::a-vllm modified (image)" in lines
    assert (
        f"::notice file={NVIDIA},line={line_of(text, 'c-vllm:')},title=added::c-vllm added" in lines
    )
