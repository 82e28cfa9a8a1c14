"""Coverage per scenario type, and entries that run zero points, on real repositories.

The benchmark CI runs each matched config only for the entry's ``scenario-type``
(every type when it is absent): a changed scenario that no entry selects is never
benchmarked, and an entry naming none of a key's types runs nothing for it."""

from __future__ import annotations

import json

import pytest
from projects import run, verify

from changelog_tool.demo import sandbox

MASTER = "configs/nvidia-master.yaml"
LOG = "perf-changelog.yaml"
FIXED = "fixed-seq-len"
AGENTIC = "agentic-coding"


def key_block(
    key: str,
    image: str = "vllm/vllm-openai:v1",
    fixed: str = "[4, 8]",
    agentic: str | None = "[1, 2]",
    has_fixed: bool = True,
) -> str:
    text = (
        f"{key}:\n  image: {image}\n  model: some/model\n  runner: b200\n"
        "  precision: fp4\n  framework: vllm\n  multinode: false\n  scenarios:\n"
    )
    if has_fixed:
        text += (
            "    fixed-seq-len:\n    - isl: 1024\n      osl: 1024\n      search-space:\n"
            f"      - {{ tp: 8, conc-list: {fixed} }}\n"
        )
    if agentic is not None:
        text += (
            "    agentic-coding:\n    - duration: 1800\n      search-space:\n"
            f"      - {{ tp: 8, conc-list: {agentic} }}\n"
        )
    return text


def entry(keys: list[str], kinds: list[str] | None = None, flags: str = "") -> str:
    text = "- config-keys:\n" + "".join(f"    - {k}\n" for k in keys)
    if kinds:
        text += "  scenario-type:\n" + "".join(f"    - {k}\n" for k in kinds)
    return text + f'  description:\n    - "Change"\n  pr-link: XXX\n{flags}'


HISTORY = (
    entry(["both-vllm"])
    .replace("XXX", "https://github.com/acme/bench/pull/1")
    .replace('"Change"', '"Add both-vllm"')
)


@pytest.fixture
def project(repo):
    repo.commit(
        "base",
        **{
            MASTER: key_block("both-vllm") + "\n" + key_block("fixed-vllm", agentic=None),
            LOG: HISTORY,
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def change(repo, *blocks: str, entries: list[str] = ()) -> None:  # type: ignore[assignment]
    files = {MASTER: "\n".join(blocks), LOG: "\n".join([HISTORY, *entries])}
    repo.commit("change", **files)


def uncovered(document: dict) -> list[dict]:
    return [f for f in document["findings"] if f["code"] == "uncovered-key"]


# --- 1. coverage per scenario ---------------------------------------------------------
def test_a_change_to_one_scenario_needs_an_entry_selecting_that_scenario(project) -> None:
    changed = key_block("both-vllm", agentic="[1, 2, 4]")
    fixed = key_block("fixed-vllm", agentic=None)
    change(project, changed, fixed, entries=[entry(["both-vllm"], [FIXED])])
    code, document = verify(project)
    assert code == 1
    (finding,) = uncovered(document)
    assert finding["key"] == "both-vllm" and finding["severity"] == "error"
    assert AGENTIC in finding["message"] and FIXED not in finding["message"]
    assert f"    - {AGENTIC}\n" in document["suggested_entry"]
    assert FIXED not in document["suggested_entry"]
    # the scenario named, or no scenario-type at all: covered
    for kinds in ([AGENTIC], None):
        change(project, changed, fixed, entries=[entry(["both-vllm"], kinds)])
        code, document = verify(project)
        assert (code, document["findings"]) == (0, [])


def test_a_config_wide_change_needs_every_scenario_type_of_the_key(project) -> None:
    changed = key_block("both-vllm", image="vllm/vllm-openai:v2")
    fixed = key_block("fixed-vllm", agentic=None)
    change(project, changed, fixed, entries=[entry(["both-vllm"], [AGENTIC])])
    code, document = verify(project)
    (finding,) = uncovered(document)
    assert code == 1 and finding["key"] == "both-vllm"
    assert "changed (image)" in finding["message"] and FIXED in finding["message"]
    # the suggested entry selects exactly the type still missing
    suggested = document["suggested_entry"]
    assert f"  scenario-type:\n    - {FIXED}\n  description:" in suggested
    change(project, changed, fixed, entries=[entry(["both-vllm"], [AGENTIC]), suggested])
    code, document = verify(project)
    assert (code, document["findings"]) == (0, [])


def test_a_new_key_needs_every_scenario_type_it_has(project) -> None:
    base = [key_block("both-vllm"), key_block("fixed-vllm", agentic=None)]
    new = key_block("new-vllm")
    change(project, *base, new, entries=[entry(["new-vllm"], [FIXED])])
    code, document = verify(project)
    (finding,) = uncovered(document)
    assert code == 1 and finding["key"] == "new-vllm" and AGENTIC in finding["message"]
    change(project, *base, new, entries=[entry(["new-vllm"])])
    code, document = verify(project)
    assert (code, document["findings"]) == (0, [])


# --- 2. zero points -------------------------------------------------------------------
def test_an_entry_naming_none_of_a_keys_types_runs_zero_points_and_fails(project) -> None:
    base = [key_block("both-vllm"), key_block("fixed-vllm", agentic=None)]
    agentic_only = key_block("agentic-vllm", has_fixed=False)
    change(project, *base, agentic_only, entries=[entry(["agentic-vllm", "both-vllm"], [FIXED])])
    code, document = verify(project)
    zero = [f for f in document["findings"] if f["code"] == "scenario-mismatch"]
    assert code == 1 and len(zero) == 1
    assert "agentic-vllm has none of the named scenario types (fixed-seq-len)" in zero[0]["message"]
    assert "zero points" in zero[0]["message"] and f"it has {AGENTIC}" in zero[0]["message"]


def test_add_refuses_a_zero_point_entry_with_flags_json_and_dry_run(project) -> None:
    fixed = key_block("fixed-vllm", agentic=None)
    project.commit("agentic key", **{MASTER: fixed + key_block("agentic-vllm", has_fixed=False)})
    before = project.read(LOG)
    keys = ["--key", "agentic-vllm", "--key", "fixed-vllm"]
    flags = [*keys, "--scenario-type", FIXED, "--description", "x"]
    for extra in ([], ["--dry-run"]):
        done = run(project, "add", *flags, "--no-input", *extra)
        assert done.returncode == 1, done
        assert "agentic-vllm has none of the named scenario types" in done.stderr
    payload = {
        "config-keys": ["agentic-vllm", "fixed-vllm"],
        "scenario-type": [FIXED],
        "description": ["x"],
    }
    done = run(project, "add", "--json", stdin=json.dumps(payload))
    assert done.returncode == 1 and "zero points" in done.stderr
    assert project.read(LOG) == before


def test_the_demos_mis_scoped_entry_now_fails(tmp_path) -> None:
    box = sandbox.build(tmp_path / "demo")
    keys = [
        "kimik3-fp4-b300-dynamo-vllm-agentic",
        "gptoss-fp4-mi355x-vllm",
        "kimik3-fp4-b200-dynamo-vllm-agentic",
    ]
    args = [a for k in keys for a in ("--key", k)]
    argv = ["add", *args, "--scenario-type", FIXED, "--description", "x", "--no-input"]
    before = box.changelog.read_bytes()
    done = run(box.root, *argv)
    assert done.returncode == 1 and box.changelog.read_bytes() == before
    # the same entry appended by hand: the gate refuses it too
    box.changelog.write_bytes(before + b"\n" + entry(keys, [FIXED]).encode())
    code, document = verify(box.root)
    assert code == 1
    zero = [f["message"] for f in document["findings"] if "zero points" in f["message"]]
    assert len(zero) == 2
    assert all(any(f"{k} has none of the named" in m for m in zero) for k in (keys[0], keys[2]))
    missing = {f["key"] for f in uncovered(document)}
    # gptoss's image changed (every type); the kimik3 keys run nothing
    assert missing == set(keys)
