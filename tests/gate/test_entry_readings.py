"""An appended entry is read as YAML 1.2 (this tool) and as YAML 1.1 (PyYAML, which
benchmark CI reads the changelog with); a value the two readings disagree on is
refused, naming the field and both readings. Real repositories, the installed
command; PyYAML itself says what CI would read."""

from __future__ import annotations

import pytest
import yaml
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, line_of, make_project, verify

from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.gate.acceptance import Rules, rejections
from changelog_tool.ledger.emitter import emit
from changelog_tool.settings import Settings
from changelog_tool.yaml.strict import load_value

CHANGED = NVIDIA_TEXT.replace("vllm/vllm-openai:v1", "vllm/vllm-openai:v2", 1)


def block(description: str = '"Bump"', extra: str = "") -> str:
    return (
        f"- config-keys:\n    - a-vllm\n  description:\n    - {description}\n"
        f"  pr-link: XXX\n{extra}"
    )


def appended(repo, text: str) -> tuple[int, dict]:
    make_project(repo)
    repo.commit("bump", **{NVIDIA: CHANGED, LOG: HISTORY + "\n" + text})
    return verify(repo)


@pytest.mark.parametrize(
    ("written", "ours", "pyyaml"),
    [("010", "10 (int)", "8 (int)"), ("0o10", "8 (int)", "'0o10' (str)")],
)
def test_an_eval_min_prefill_ep_yaml_1_1_reads_otherwise_is_refused_with_both_readings(
    repo, written: str, ours: str, pyyaml: str
) -> None:
    text = block(extra=f"  eval-min-prefill-ep: {written}\n")
    assert yaml.safe_load(text)[0]["eval-min-prefill-ep"] == eval(pyyaml.split(" ")[0])
    code, document = appended(repo, text)
    assert code == 1
    (found,) = [f for f in document["findings"] if f["code"] == "yaml-1-1"]
    full = HISTORY + "\n" + text
    assert found["line"] == line_of(full, "  eval-min-prefill-ep:")
    assert found["message"].startswith("eval-min-prefill-ep: ")
    assert f"reads as {ours} here" in found["message"]
    assert f"but as {pyyaml} to PyYAML" in found["message"]
    assert "plain decimal" in found["message"]


def test_a_plain_yes_in_a_description_is_refused_as_pyyaml_reads_true(repo) -> None:
    text = block("yes")
    assert yaml.safe_load(text)[0]["description"] == [True]
    code, document = appended(repo, text)
    assert code == 1
    (found,) = [f for f in document["findings"] if f["code"] == "yaml-1-1"]
    assert found["line"] == line_of(HISTORY + "\n" + text, "    - yes")
    assert "description/0: reads as 'yes' (str) here" in found["message"]
    assert "but as True (bool) to PyYAML" in found["message"]
    assert "quote it" in found["message"]


def test_an_entry_pyyaml_cannot_read_is_refused(repo) -> None:
    text = block('"Bump"\t')  # a tab after the quoted text: PyYAML's scanner refuses it
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(text)
    code, document = appended(repo, text)
    assert code == 1
    (found,) = [f for f in document["findings"] if f["code"] == "yaml-1-1"]
    assert "PyYAML (YAML 1.1" in found["message"] and "cannot read this entry" in found["message"]


def test_an_entry_both_readings_agree_on_passes(repo) -> None:
    text = block('"yes"', "  eval-min-prefill-ep: 10\n")
    assert yaml.safe_load(text)[0]["eval-min-prefill-ep"] == 10
    code, document = appended(repo, text)
    assert code == 0, document["findings"]


def rules(tmp_path) -> Rules:
    masters = MasterSet([MasterFile(NVIDIA, NVIDIA_TEXT.encode())])
    return Rules(Settings(root=tmp_path), masters, "acme/bench")


def test_the_acceptance_rule_reads_the_bytes_add_would_write_as_pyyaml_does(tmp_path) -> None:
    # add (flags, --json) and the TUI give no bytes: the rule reads what emit writes,
    # which quotes every value whose readings could differ
    entry = {
        "config-keys": ["a-vllm"],
        "description": ["yes", "010", "0o10", "1:20", "on"],
        "pr-link": "XXX",
        "eval-min-prefill-ep": 8,
    }
    assert rejections(entry, rules(tmp_path)) == []
    assert yaml.safe_load(emit(entry)) == [entry]
    # the same values written by hand, as a branch may append them, are refused
    hand = block("yes", "  eval-min-prefill-ep: 010\n").encode()
    (read,) = load_value(hand)  # this tool's reading (YAML 1.2): 'yes' and 10
    got = {(r.code, r.field) for r in rejections(read, rules(tmp_path), hand)}
    assert got == {("yaml-1-1", "description/0"), ("yaml-1-1", "eval-min-prefill-ep")}
