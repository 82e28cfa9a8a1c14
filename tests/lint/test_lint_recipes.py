"""The review lints on recipes shaped like the real ones: sections with their own
conventions (srt-slurm's snake_case fields, UPPER_CASE environment variables,
kebab-case vLLM flags), and three disagg recipes like InferenceX #2637's, built
from the issue's description: one snake_case slip among kebab-case flags in
``vllm_config.prefill``, prefill and decode sharing 16 fields and differing in 4,
and a ~600-character ``kv-transfer-config`` written six times over three files."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import line_of, make_project, run

from changelog_tool.lint.review import Changed, review

FOLDER = "benchmarks/multi_node/srt-slurm-recipes/vllm/kimi-k3/8k1k"
CONNECTOR = (
    '{"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_buffer_device": "cuda", '
    '"kv_connector_extra_config": {'
    + ", ".join(f'"option_{n}": "value-{n:03d}-of-the-connector"' for n in range(14))
    + "}}"
)
SHARED = [  # the 16 fields prefill and decode write alike (kv-transfer-config first)
    f"kv-transfer-config: '{CONNECTOR}'",
    'served-model-name: "moonshotai/Kimi-K3"',
    "enable-prefix-caching: true",
    "kv-cache-dtype: fp8",
    "pipeline-parallel-size: 1",
    "enable-expert-parallel: true",
    "max-model-len: 9216",
    "safetensors-load-strategy: prefetch",
    "trust-remote-code: true",
    "no-enable-chunked-prefill: true",
    "attention-backend: FLASHINFER_MLA",
    "block-size: 64",
    "gpu-memory-utilization: 0.9",
    "async-scheduling: true",
    "stream-interval: 50",
    "{parallel}",
]


def section(name: str, lines: list[str], indent: int = 2) -> str:
    pad = " " * indent
    return f"{' ' * (indent - 2)}{name}:\n" + "".join(f"{pad}{line}\n" for line in lines)


def kimi_recipe(tp: int, *, slip: bool = True) -> str:
    """A disagg recipe: 36 kebab-case keys under vllm_config, and more snake_case
    and UPPER_CASE keys than that around them (so the file's majority is not
    kebab-case)."""
    shared = [line.replace("{parallel}", f"tensor-parallel-size: {tp}") for line in SHARED]
    prefill = [
        *shared,
        "max-cudagraph-capture-size: 512",
        "max_num_batched_tokens: 16384" if slip else "max-num-batched-tokens: 16384",
    ]
    decode = [
        *shared,
        "max-cudagraph-capture-size: 1024",
        'compilation-config: \'{"cudagraph_mode": "FULL_DECODE_ONLY"}\'',
        "max-num-seqs: 256",
    ]
    environment = [f'{name}: "1"' for name in ENVIRONMENT]
    return (
        f'name: "kimi-k3-disagg-tp{tp}"\n'
        + section("model", ['path: "kimi-k3"', 'precision: "fp4"'])
        + section("slurm", [f"{k}: {v}" for k, v in SLURM])
        + section("resources", [f"{k}: {v}" for k, v in RESOURCES])
        + "backend:\n  type: vllm\n"
        + "  prefill_environment: &kimi_env\n"
        + "".join(f"    {line}\n" for line in environment)
        + '  decode_environment:\n    <<: *kimi_env\n    VLLM_DECODE_ONLY: "1"\n'
        + "  vllm_config:\n"
        + section("prefill", prefill, 6)
        + section("decode", decode, 6)
        + section("benchmark", [f"{k}: {v}" for k, v in BENCHMARK])
    )


ENVIRONMENT = [f"VLLM_SETTING_{n}" for n in range(12)] + [f"NCCL_SETTING_{n}" for n in range(12)]
SLURM = [(f"slurm_field_{n}", n) for n in range(10)]
RESOURCES = [(f"gpus_per_{n}", 4) for n in range(12)]
BENCHMARK = [(f"bench_field_{n}", n) for n in range(12)]
RECIPES = {f"{FOLDER}/disagg-gb300-tp{tp}.yaml": kimi_recipe(tp) for tp in (2, 4, 8)}


def lint(files: dict[str, str], base: dict[str, str] | None = None) -> list[tuple[str, str, int]]:
    changed = Changed(
        recipes={
            path: (text.encode(), (base or {}).get(path, "").encode() or None)
            for path, text in files.items()
        }
    )
    found = review(changed, lambda p: True, lambda r: None)
    return [(f.code, f.path, f.line or 0) for f in found]


def messages(files: dict[str, str], code: str) -> list[str]:
    changed = Changed(recipes={path: (text.encode(), None) for path, text in files.items()})
    return [f.message for f in review(changed, lambda p: True, lambda r: None) if f.code == code]


def test_the_file_is_mostly_snake_or_upper_case_as_in_the_real_recipes() -> None:
    from changelog_tool.lint.keystyle import KEBAB, SNAKE, file_votes

    votes = file_votes(next(iter(RECIPES.values())).encode())
    upper = len(ENVIRONMENT) + 1
    assert (votes[SNAKE], votes[KEBAB]) == (38, 36)
    assert votes[SNAKE] + upper > votes[KEBAB]  # what kept the file-wide rule silent


def test_a_snake_case_slip_among_kebab_case_vllm_flags_is_flagged_in_each_recipe() -> None:
    slips = [f for f in lint(RECIPES) if f[0] == "key-style"]
    assert slips == [
        ("key-style", path, line_of(text, "max_num_batched_tokens"))
        for path, text in RECIPES.items()
    ]
    [first, *_] = messages(RECIPES, "key-style")
    assert first == (
        "'max_num_batched_tokens' is snake_case among kebab-case keys (17 of its 17 sibling "
        "keys with a style); write 'max-num-batched-tokens', as they are written"
    )


def test_prefill_and_decode_differing_in_4_of_20_fields_are_a_repeat_with_the_files_own_form() -> (
    None
):
    path, text = next(iter(RECIPES.items()))
    [message] = [m for m in messages({path: text}, "repeated-block") if "prefill (line" in m]
    prefill, decode = line_of(text, "    prefill:"), line_of(text, "    decode:")
    assert message.startswith(
        f"prefill (line {prefill}), decode (line {decode}) repeat 16 fields and differ only "
        "in compilation-config, max-cudagraph-capture-size, max-num-seqs, "
        "max_num_batched_tokens; write the shared fields once: `prefill: &prefill-common` "
        "and, in decode, `<<: *prefill-common` followed by only the fields that differ, "
        "as this file already does with `prefill_environment: &kimi_env` "
        f"(line {line_of(text, 'prefill_environment')}) and `<<: *kimi_env` "
        f"(line {line_of(text, 'decode_environment')})"
    )


def test_the_connector_setting_written_six_times_over_three_files_is_one_notice() -> None:
    copies = [m for m in messages(RECIPES, "repeated-block") if m.startswith("the same")]
    [message] = copies
    assert message.startswith(f"the same {len(CONNECTOR)}-character value is written 6 times: ")
    for path, text in RECIPES.items():
        for block in ("prefill", "decode"):
            line = line_of(text, "kv-transfer-config", text.index(f"    {block}:"))
            assert f"backend.vllm_config.{block}.kv-transfer-config ({path}:{line})" in message
    assert "across these 3 files each file can hold it once" in message


def test_one_recipe_alone_names_its_connector_only_in_the_prefill_and_decode_notice() -> None:
    """Its two connector copies are inside prefill and decode, which the repeat
    already names; blocks each file holds once (slurm, resources, the environment)
    are not reported across files: an anchor cannot reach another file."""
    path, text = next(iter(RECIPES.items()))
    assert [code for code, _, _ in lint({path: text})] == ["key-style", "repeated-block"]


def test_nothing_is_reported_for_what_the_base_already_had() -> None:
    assert lint(RECIPES, RECIPES) == []


def test_a_file_that_is_snake_case_throughout_gets_no_finding() -> None:
    text = (
        section("resources", [f"{k}: {v}" for k, v in RESOURCES])
        + section("sglang_config", ["prefill:"])
        + "".join(f"    {k}: {v}\n" for k, v in SLURM)
        + "    max_running_requests: 8\n"
        + section("benchmark", [f"{k}: {v}" for k, v in BENCHMARK])
    )
    assert lint({f"{FOLDER}/snake.yaml": text}) == []


def test_upper_case_environment_blocks_neither_vote_nor_are_flagged() -> None:
    """Environment variables among kebab-case flags, and an environment block of its
    own in a kebab-case file: no key-style finding."""
    text = (
        "vllm_config:\n  prefill:\n"
        + "".join(f"    {line}\n" for line in SHARED[1:8])
        + "    VLLM_ATTENTION_BACKEND: FLASHINFER\n    NCCL_IB_HCA: mlx5\n"
        + "  prefill_environment:\n"
        + "".join(f'    {name}: "1"\n' for name in ENVIRONMENT)
        + "  decode-environment:\n    NCCL-DEBUG: INFO\n"
    )
    assert lint({f"{FOLDER}/env.yaml": text}) == []


def test_the_branchs_three_recipes_through_changelog_lint(repo: GitRepo) -> None:
    make_project(repo)
    repo.commit("kimi-k3 recipes", **RECIPES)
    done = run(repo, "lint", "--base", "main", "--format", "json")
    assert done.returncode == 0, done.stderr  # warnings and notices
    found = [(f["code"], f["path"], f["line"]) for f in json.loads(done.stdout)["findings"]]
    assert sorted(found) == sorted(lint(RECIPES))
    assert [c for c, _, _ in found].count("key-style") == 3
    assert [c for c, _, _ in found].count("repeated-block") == 4  # 3 repeats, 1 connector
