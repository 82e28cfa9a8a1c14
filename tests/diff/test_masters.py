"""The master-config model and the semantic diff (pure: bytes in, changes out)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from changelog_tool.diff.fields import changed_fields, is_reduction
from changelog_tool.diff.keychange import ADDED, MODIFIED, REMOVED
from changelog_tool.diff.keydiff import diff
from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.values import same

MASTER = b"""\
# benchmark configs
dsr1-fp4-b200-sglang:
  image: lmsysorg/sglang:v0.5.5
  model: deepseek-r1-fp4
  runner: b200
  precision: fp4
  framework: sglang
  multinode: false
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - { tp: 4, conc-start: 4, conc-end: 64 }
      - { tp: 8, conc-start: 4, conc-end: 64 }
    agentic-coding:
    - duration: 1800
      search-space:
      - { tp: 8, conc-list: [1, 2, 4, 8] }

gptoss-fp4-h200-vllm:
  image: vllm/vllm-openai:v0.11.0
  model: openai/gpt-oss-120b
  runner: h200
  precision: fp4
  framework: vllm
  multinode: false
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - { tp: 1, conc-start: 4, conc-end: 128 }
"""


def one(path: str, data: bytes) -> MasterSet:
    return MasterSet([MasterFile(path, data)])


def changes_between(old: bytes, new: bytes, path: str = "configs/nvidia-master.yaml"):
    found, problems = diff(one(path, old), one(path, new))
    assert not problems
    return {c.key: c for c in found}


def test_top_level_keys_and_their_lines_come_from_a_byte_scan() -> None:
    file = MasterFile("configs/nvidia-master.yaml", MASTER)
    assert file.key_names() == ["dsr1-fp4-b200-sglang", "gptoss-fp4-h200-vllm"]
    assert file.line("dsr1-fp4-b200-sglang") == 2
    assert file.line("gptoss-fp4-h200-vllm") == 21
    assert not file.whole


def test_quoted_top_level_keys_are_unquoted() -> None:
    file = MasterFile("m.yaml", b"\"a-key\": {image: x}\n'b-key': {image: y}\nplain: 1\n")
    assert file.key_names() == ["a-key", "b-key", "plain"]
    assert file.value("b-key") == {"image": "y"}


def test_comments_whitespace_quoting_and_key_order_are_not_changes() -> None:
    reformatted = (
        MASTER.replace(b"# benchmark configs", b"# configs, reworded\n# twice")
        .replace(b"image: vllm/vllm-openai:v0.11.0", b'image: "vllm/vllm-openai:v0.11.0"')
        .replace(
            b"  model: deepseek-r1-fp4\n  runner: b200\n",
            b"  runner: b200   # moved\n  model: 'deepseek-r1-fp4'\n",
        )
        .replace(
            b"{ tp: 4, conc-start: 4, conc-end: 64 }", b"{conc-end: 64, tp: 4,   conc-start: 4}"
        )
    )
    assert reformatted != MASTER
    assert changes_between(MASTER, reformatted) == {}


def test_an_image_bump_is_a_modified_image_field_at_the_keys_line() -> None:
    new = MASTER.replace(b"v0.11.0", b"v0.12.0")
    change = changes_between(MASTER, new)["gptoss-fp4-h200-vllm"]
    assert (change.kind, change.fields, change.line) == (MODIFIED, ("image",), 21)
    assert change.needs_entry and not change.reduced


def test_scenario_changes_are_named_per_scenario_type() -> None:
    new = MASTER.replace(b"conc-list: [1, 2, 4, 8]", b"conc-list: [1, 2, 4, 8, 16]")
    change = changes_between(MASTER, new)["dsr1-fp4-b200-sglang"]
    assert change.fields == ("scenarios.agentic-coding",)
    assert change.scenarios == ("agentic-coding",)
    assert not change.reduced


def test_added_and_removed_keys_are_found() -> None:
    new = MASTER.replace(b"gptoss-fp4-h200-vllm:", b"gptoss-fp4-h100-vllm:")
    found = changes_between(MASTER, new)
    assert found["gptoss-fp4-h100-vllm"].kind == ADDED
    assert found["gptoss-fp4-h200-vllm"].kind == REMOVED
    assert not found["gptoss-fp4-h200-vllm"].needs_entry


def test_a_master_file_that_moved_does_not_make_its_keys_new() -> None:
    before = one(".github/configs/nvidia-master.yaml", MASTER)
    after = one("configs/nvidia-master.yaml", MASTER.replace(b"# benchmark", b"# moved"))
    found, _ = diff(before, after)
    assert found == []
    assert after.owner["gptoss-fp4-h200-vllm"].path == "configs/nvidia-master.yaml"


def test_anchors_and_merge_keys_are_resolved() -> None:
    anchored = b"""\
.defaults: &defaults
  image: lmsysorg/sglang:v1
  runner: b200
a-sglang:
  <<: *defaults
  model: a
b-sglang:
  <<: *defaults
  model: b
"""
    file = MasterFile("m.yaml", anchored)
    assert file.whole
    assert file.value("a-sglang") == {"image": "lmsysorg/sglang:v1", "runner": "b200", "model": "a"}
    found = changes_between(anchored, anchored.replace(b"sglang:v1", b"sglang:v2"))
    assert set(found) == {".defaults", "a-sglang", "b-sglang"}
    assert found["a-sglang"].fields == ("image",)


def test_removing_scenarios_or_points_is_a_reduction() -> None:
    no_agentic = MASTER.replace(
        b"    agentic-coding:\n    - duration: 1800\n      search-space:\n"
        b"      - { tp: 8, conc-list: [1, 2, 4, 8] }\n",
        b"",
    )
    fewer_points = MASTER.replace(b"      - { tp: 8, conc-start: 4, conc-end: 64 }\n", b"")
    narrower = MASTER.replace(
        b"{ tp: 1, conc-start: 4, conc-end: 128 }", b"{ tp: 1, conc-start: 8, conc-end: 64 }"
    )
    shorter_list = MASTER.replace(b"[1, 2, 4, 8]", b"[1, 4]")
    for new in (no_agentic, fewer_points, narrower, shorter_list):
        found = changes_between(MASTER, new)
        assert len(found) == 1
        (change,) = found.values()
        assert change.reduced and not change.needs_entry


def test_adding_points_or_changing_settings_is_not_a_reduction() -> None:
    old = {
        "image": "x",
        "scenarios": {
            "fixed-seq-len": [
                {"isl": 1, "search-space": [{"tp": 4, "additional-settings": ["A=1", "B=2"]}]}
            ]
        },
    }
    dropped_setting = {
        "image": "x",
        "scenarios": {
            "fixed-seq-len": [
                {"isl": 1, "search-space": [{"tp": 4, "additional-settings": ["A=1"]}]}
            ]
        },
    }
    more_points = {
        "image": "x",
        "scenarios": {
            "fixed-seq-len": [
                {
                    "isl": 1,
                    "search-space": [{"tp": 4, "additional-settings": ["A=1", "B=2"]}, {"tp": 8}],
                }
            ]
        },
    }
    fewer_but_new_image = {"image": "y", "scenarios": {"fixed-seq-len": []}}
    assert not is_reduction(old, dropped_setting)
    assert not is_reduction(old, more_points)
    assert not is_reduction(old, fewer_but_new_image)
    assert is_reduction(old, {"image": "x", "scenarios": {"fixed-seq-len": []}})


def test_old_style_seq_len_configs_are_a_field_of_their_own() -> None:
    old = {"image": "x", "seq-len-configs": [{"isl": 1}, {"isl": 2}]}
    assert changed_fields(old, {"image": "x", "seq-len-configs": [{"isl": 1}]}) == [
        "seq-len-configs"
    ]
    assert is_reduction(old, {"image": "x", "seq-len-configs": [{"isl": 2}]})


def test_a_key_that_does_not_parse_is_a_problem_with_its_line() -> None:
    broken = MASTER.replace(
        b"{ tp: 1, conc-start: 4, conc-end: 128 }", b"{ tp: 1, conc-start: 4, conc-end: 128"
    )
    found, problems = diff(one("m.yaml", MASTER), one("m.yaml", broken))
    assert [c.key for c in found] == ["gptoss-fp4-h200-vllm"]
    ((path, problem),) = problems
    assert path == "m.yaml" and problem.code == "yaml-syntax"
    assert problem.line is not None and 21 < problem.line <= 34
    with pytest.raises(YamlProblem):
        MasterFile("m.yaml", broken).value("gptoss-fp4-h200-vllm")


def test_a_duplicate_top_level_key_is_reported() -> None:
    doubled = MASTER + b"\ndsr1-fp4-b200-sglang:\n  image: other\n"
    file = MasterFile("m.yaml", doubled)
    file.key_names()
    assert [p.code for p in file.problems] == ["duplicate-yaml-key"]
    assert file.problems[0].line == MASTER.count(b"\n") + 2


def test_mentions_finds_keys_whose_bytes_hold_a_string() -> None:
    masters = one("m.yaml", MASTER)
    assert masters.mentions("conc-list") == ["dsr1-fp4-b200-sglang"]
    assert masters.mentions("nothing-like-this") == []


_scalars = st.one_of(
    st.integers(-1000, 1000),
    st.booleans(),
    st.text("abcdefgh-_./ 0123456789", min_size=1, max_size=12),
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(st.text("abcdefgh-", min_size=1, max_size=8), inner, max_size=4),
    ),
    max_leaves=12,
)
_configs = st.dictionaries(
    st.from_regex(r"[a-z][a-z0-9.-]{0,14}", fullmatch=True),
    st.dictionaries(st.text("abcdefgh-", min_size=1, max_size=8), _values, max_size=5),
    min_size=1,
    max_size=5,
)


def _dump(value: object, flow: bool) -> bytes:
    import io

    yaml = YAML(typ="safe", pure=True)
    yaml.default_flow_style = flow
    buffer = io.BytesIO()
    yaml.dump(value, buffer)
    return buffer.getvalue()


@settings(max_examples=40, deadline=None)
@given(_configs)
def test_any_restyling_of_the_same_values_is_no_change(config: dict[str, object]) -> None:
    block = _dump(config, False)
    restyled = _dump(dict(reversed(list(config.items()))), None)  # type: ignore[arg-type]
    found, problems = diff(one("m.yaml", block), one("m.yaml", b"# restyled\n" + restyled))
    assert found == [] and problems == []


# --- what counts as a changed value ---------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new"),
    [("false", "0"), ("4", "4.0"), ("1", "true"), ("~", "''"), ("[1]", "['1']")],
)
def test_a_change_of_type_is_a_change(old: str, new: str) -> None:
    """YAML tells 1, 1.0 and true apart (a loader or a template may too); Python's
    ``==`` does not, and the change would pass unseen."""
    base = MasterSet([MasterFile("m.yaml", f"a-vllm:\n  image: v1\n  tp: {old}\n".encode())])
    head = MasterSet([MasterFile("m.yaml", f"a-vllm:\n  image: v1\n  tp: {new}\n".encode())])
    (change,) = diff(base, head)[0]
    assert (change.key, change.fields) == ("a-vllm", ("tp",))


def test_a_comment_edited_beside_a_nan_is_no_change() -> None:
    base = MasterSet([MasterFile("m.yaml", b"a-vllm:\n  image: v1\n  ratio: .nan\n")])
    head = MasterSet([MasterFile("m.yaml", b"a-vllm:\n  image: v1\n  ratio: .nan  # tuned\n")])
    assert diff(base, head)[0] == []


@given(
    st.recursive(
        st.none()
        | st.booleans()
        | st.integers(-3, 3)
        | st.floats(allow_infinity=True)
        | st.text("ab", max_size=2),
        lambda children: (
            st.lists(children, max_size=3)
            | st.dictionaries(st.text("ab", max_size=2), children, max_size=3)
        ),
        max_leaves=8,
    )
)
def test_same_data_is_equal_types_and_values_a_nan_equal_to_a_nan(value: object) -> None:
    import copy
    import json

    twin = copy.deepcopy(value)
    assert same(value, twin)
    text = json.dumps(value)  # a leaf of another type (1 for true, 1.0 for 1) differs
    if "true" in text or "false" in text:
        swapped = json.loads(text.replace("true", "1").replace("false", "0"))
        assert not same(value, swapped)


@pytest.mark.parametrize(
    ("start", "end", "reduced"),
    [
        (8, 64, True),  # 8..64: a subset of 4..64
        (4, 32, True),
        (16, 32, True),  # 16, 32
        (16, 48, False),  # 16, 32 and 48: the generator always runs conc-end
        (4, 100, False),  # 4..64 and 100
        (5, 64, False),  # 5, 10, 20, 40: points the old sweep never ran
        (4, 128, False),
        (2, 64, False),
        (6, 48, False),
        (0, 64, False),  # not a sweep: judged as a changed value
    ],
)
def test_a_sweep_is_reduced_only_when_its_new_points_are_old_ones(
    start: int, end: int, reduced: bool
) -> None:
    def key(start: int, end: int) -> dict[str, object]:
        space = [{"tp": 8, "conc-start": start, "conc-end": end}]
        return {"scenarios": {"fixed-seq-len": [{"isl": 1, "search-space": space}]}}

    assert is_reduction(key(4, 64), key(start, end)) is reduced
