"""The emitter's quoting rule: a key or link is written plain only when PyYAML (YAML 1.1)
and ruamel.yaml (YAML 1.2) both read it back as the same string; ordinary keys and
links keep the file's plain style."""

from __future__ import annotations

from itertools import product
from pathlib import Path

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ruamel.yaml.nodes import ScalarNode
from ruamel.yaml.resolver import VersionedResolver
from yaml_oracles import assert_both_read

from changelog_tool.cli import main
from changelog_tool.ledger.emitter import plain_is_safe, scalar

# The characters that make numbers, dates, times, booleans and nulls in some YAML.
LOOKALIKE = "0123456789._:+-/*~=<eExXoObBaAfFyYnNlLuUsStTrRiI"
# Enough of them to spell 0b1, 0o7, 0x1, 1_0, 1:2, 1e9, .5, .NaN's start, yes, off, inf.
SHORT = "0179._:+-eExXoObBnNaAfFiIyYsS~=<"
STR = "tag:yaml.org,2002:str"


@pytest.mark.parametrize(
    "text",
    [
        "dsr1-fp4-b200-sglang",
        "kimik2.5-int4-b300-vllm",
        "70b-fp8-*-vllm",
        "dsr1*",
        "gptoss_fp4+mtp",
        "XXX",
        "https://github.com/SemiAnalysisAI/InferenceX/pull/2391",
        "https://github.com/o/r/pull/XXX",
    ],
)
def test_ordinary_keys_and_links_stay_plain(text: str) -> None:
    assert scalar(text) == text


@settings(max_examples=300, deadline=None)
@given(st.text(LOOKALIKE, max_size=12))
@example("1:20")
@example("0o17")
@example("2024-01-01")
def test_a_scalar_reads_back_as_itself_as_a_list_item_and_as_a_value(text: str) -> None:
    written = scalar(text)
    assert_both_read(f"- {written}\n- k: {written}\n".encode(), [text, {"k": text}])


def test_no_short_plain_scalar_resolves_to_anything_but_a_string() -> None:
    """Every string of up to three of these characters: if the emitter would write it
    plain, PyYAML's resolver (YAML 1.1) and ruamel.yaml's YAML 1.2 resolver both say str.
    (The YAML 1.1 spec's ``y`` and ``n`` are strings to PyYAML, the 1.1 reader of
    record, so they are written plain.)"""
    pyyaml = yaml.resolver.Resolver()
    ruamel = [VersionedResolver(version=(1, 2))]
    plain = 0
    for size in (1, 2, 3):
        for chars in product(SHORT, repeat=size):
            text = "".join(chars)
            if not plain_is_safe(text):
                continue
            plain += 1
            assert pyyaml.resolve(yaml.ScalarNode, text, (True, False)) == STR, text
            for resolver in ruamel:
                assert str(resolver.resolve(ScalarNode, text, (True, False))) == STR, text
    assert plain > len(SHORT) ** 3 // 2  # most of the space was checked, not a sliver


@pytest.mark.parametrize("key", ["1.2.3", "2025-06-01Tb200", "inf", "y"])
def test_add_writes_a_key_plain_when_both_readers_read_it_as_itself(
    key: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Neither PyYAML nor ruamel.yaml reads these as anything but the string itself, so
    ``add`` keeps the file's plain style for them (a hand-written list of lookalikes
    used to quote them)."""
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "nvidia-master.yaml").write_text(
        f'"{key}":\n  image: i\n  scenarios:\n    fixed-seq-len:\n    - {{isl: 1}}\n'
    )
    (tmp_path / "perf-changelog.yaml").write_bytes(b"")
    monkeypatch.chdir(tmp_path)
    assert main(["add", "--key", key, "--description", "d", "--dry-run"]) == 0
    assert f"    - {key}\n" in capsys.readouterr().out
