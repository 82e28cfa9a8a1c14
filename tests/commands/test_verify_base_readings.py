"""`verify --base` and `keys --base` judge what the benchmark runs as its own code reads
it: the sweep generator's points (``conc-end`` included), recipes as the jobs load them
(PyYAML), and the entry fields its changelog model accepts (``no-evals``)."""

from __future__ import annotations

import json

import pytest
from projects import run

MASTER = "configs/nvidia-master.yaml"
LOG = "perf-changelog.yaml"
RECIPE = "benchmarks/multi_node/srt-slurm-recipes/vllm/c.yaml"


def key_block(key: str, space: str, settings: str = "") -> str:
    return (
        f"{key}:\n  image: vllm/vllm-openai:v1\n  model: some/model\n  runner: b200\n"
        f"  precision: fp4\n  framework: vllm\n  multinode: false\n  scenarios:\n"
        f"    fixed-seq-len:\n    - isl: 1024\n      osl: 1024\n      search-space:\n"
        f"      - {{ tp: 8, {space} }}\n{settings}"
    )


SWEEP = "conc-start: 4, conc-end: 64"
RECIPE_KEY = key_block(
    "c-vllm",
    "conc-list: [4, 8]",
    '        additional-settings:\n        - "CONFIG_FILE=recipes/vllm/c.yaml"\n',
).replace("{ tp: 8, conc-list: [4, 8] }\n", "tp: 8\n        conc-list: [4, 8]\n")


def entry(key: str, link: str = "XXX", extra: str = "") -> str:
    return (
        f'- config-keys:\n    - {key}\n  description:\n    - "Change"\n  pr-link: {link}\n{extra}'
    )


HISTORY = (
    entry("a-vllm", "https://github.com/acme/bench/pull/1")
    + "\n"
    + entry("c-vllm", "https://github.com/acme/bench/pull/2")
)


@pytest.fixture
def bench(repo):
    repo.commit(
        "base",
        **{
            MASTER: key_block("a-vllm", SWEEP) + "\n" + RECIPE_KEY,
            LOG: HISTORY,
            RECIPE: 'name: c\nbackend:\n  enable_dp_attention: "off"\n',
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    return repo


def keys_of(repo) -> dict[str, dict]:
    done = run(repo, "keys", "--base", "main", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return {k["key"]: k for k in json.loads(done.stdout)["keys"]}


def verify(repo) -> tuple[int, list[tuple[str, str]], dict]:
    done = run(repo, "verify", "--base", "main", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    document = json.loads(done.stdout)
    found = [(f["code"], f.get("key") or "") for f in document["findings"]]
    return done.returncode, found, document


@pytest.mark.parametrize(("end", "points"), [(100, 6), (48, 5)])
def test_moving_conc_end_off_the_doubling_adds_a_point_and_needs_an_entry(
    bench, end: int, points: int
) -> None:
    # 4..64 runs 4, 8, 16, 32, 64; 4..100 adds 100, and 4..48 runs 48, never run before
    head = key_block("a-vllm", f"conc-start: 4, conc-end: {end}") + "\n" + RECIPE_KEY
    bench.commit("conc-end", **{MASTER: head})
    changed = keys_of(bench)["a-vllm"]
    assert (changed["reduced"], changed["needs_entry"]) == (False, True)
    assert changed["points"] == {"fixed-seq-len": points}
    code, found, _ = verify(bench)
    assert (code, found) == (1, [("uncovered-key", "a-vllm")])


def test_lowering_conc_end_onto_a_point_already_run_is_a_reduction(bench) -> None:
    head = key_block("a-vllm", "conc-start: 4, conc-end: 32") + "\n" + RECIPE_KEY
    bench.commit("fewer", **{MASTER: head})
    changed = keys_of(bench)["a-vllm"]
    assert (changed["reduced"], changed["needs_entry"]) == (True, False)
    assert verify(bench)[:2] == (0, [])


def test_a_recipe_value_that_pyyaml_reads_as_false_now_needs_an_entry(bench) -> None:
    # YAML 1.2 reads both as the text "off"; the jobs (PyYAML) read the new one as false
    bench.commit("unquote", **{RECIPE: "name: c\nbackend:\n  enable_dp_attention: off\n"})
    changed = keys_of(bench)["c-vllm"]
    assert changed["needs_entry"] is True
    assert changed["recipes"] == [RECIPE]
    code, found, document = verify(bench)
    assert (code, found) == (1, [("uncovered-key", "c-vllm")])
    assert document["changed"]["recipes"] == {RECIPE: ["c-vllm"]}


def test_a_recipe_restyled_for_both_readings_still_needs_nothing(bench) -> None:
    bench.commit("restyle", **{RECIPE: "name: c\nbackend: {enable_dp_attention: 'off'}  # x\n"})
    assert verify(bench)[:2] == (0, [])


def test_an_entry_with_no_evals_passes(bench) -> None:
    head = key_block("a-vllm", "conc-start: 4, conc-end: 128") + "\n" + RECIPE_KEY
    appended = entry("a-vllm", extra="  no-evals: true\n")
    bench.commit("more points", **{MASTER: head, LOG: HISTORY + "\n" + appended})
    code, found, _ = verify(bench)
    assert (code, found) == (0, [])


@pytest.mark.parametrize("other", ["evals-only: true", "all-evals: true", "eval-min-prefill-ep: 2"])
def test_no_evals_with_an_eval_field_is_refused_as_the_benchmark_refuses_it(
    bench, other: str
) -> None:
    head = key_block("a-vllm", "conc-start: 4, conc-end: 128") + "\n" + RECIPE_KEY
    appended = entry("a-vllm", extra=f"  no-evals: true\n  {other}\n")
    bench.commit("both", **{MASTER: head, LOG: HISTORY + "\n" + appended})
    code, _, document = verify(bench)
    assert code == 1
    messages = [f["message"] for f in document["findings"]]
    assert any(
        "no-evals cannot be combined with evals-only, all-evals or eval-min-prefill-ep" in m
        for m in messages
    ), messages


def test_a_false_eval_flag_beside_no_evals_is_accepted_as_the_benchmark_accepts_it(
    bench,
) -> None:
    head = key_block("a-vllm", "conc-start: 4, conc-end: 128") + "\n" + RECIPE_KEY
    appended = entry("a-vllm", extra="  no-evals: true\n  evals-only: false\n")
    bench.commit("both", **{MASTER: head, LOG: HISTORY + "\n" + appended})
    assert verify(bench)[:2] == (0, [])
