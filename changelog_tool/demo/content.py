"""The demo repository's content: two master configs of about a dozen keys each
(before and after the branch), recipes referenced via ``CONFIG_FILE=recipes/...``,
and a changelog history with real-looking entries."""

from __future__ import annotations

SLUG = "example/inferencex-demo"
RECIPES = "benchmarks/multi_node/srt-slurm-recipes"


def single(
    key: str,
    image: str,
    model: str,
    runner: str,
    framework: str,
    tps: tuple[int, ...],
    *,
    agentic: bool = False,
    comment: str = "",
) -> str:
    prefix, precision = key.split("-")[0], key.split("-")[1]
    lines = [f"{key}:"]
    if comment:
        lines.append(f"  # {comment}")
    lines += [
        f"  image: {image}",
        f"  model: {model}",
        f"  model-prefix: {prefix}",
        f"  runner: {runner}",
        f"  precision: {precision}",
        f"  framework: {framework}",
        "  multinode: false",
        "  scenarios:",
        "    fixed-seq-len:",
    ]
    for isl in (1024, 8192):
        lines += [f"    - isl: {isl}", "      osl: 1024", "      search-space:"]
        lines += [f"      - {{ tp: {tp}, conc-start: 4, conc-end: 64 }}" for tp in tps]
    if agentic:
        lines += [
            "    agentic-coding:",
            "    - duration: 1800",
            "      search-space:",
            f"      - {{ tp: {tps[-1]}, offloading: none, conc-list: [1, 2, 4, 8, 16, 32] }}",
        ]
    return "\n".join(lines) + "\n"


def multi(
    key: str, image: str, model: str, runner: str, framework: str, recipes: dict[str, str]
) -> str:
    prefix, precision = key.split("-")[0], key.split("-")[1]
    lines = [
        f"{key}:",
        f"  image: {image}",
        f"  model: {model}",
        f"  model-prefix: {prefix}",
        f"  runner: {runner}",
        f"  precision: {precision}",
        f"  framework: {framework}",
        "  multinode: true",
        "  disagg: false",
        "  scenarios:",
    ]
    for scenario, recipe in recipes.items():
        head = (
            ["    - isl: 1024", "      osl: 1024"]
            if scenario == "fixed-seq-len"
            else ["    - duration: 1800"]
        )
        lines += [
            f"    {scenario}:",
            *head,
            "      search-space:",
            "      - conc-list: [ 1, 4, 16, 64 ]",
            "        prefill:",
            "          num-worker: 1",
            "          tp: 8",
            "          additional-settings:",
            f"          # https://github.com/{SLUG}/blob/main/{RECIPES}/{recipe}",
            f'          - "CONFIG_FILE=recipes/{recipe}"',
        ]
    return "\n".join(lines) + "\n"


KIMI_B200 = "vllm/kimi-k3/agentic/agg-b200-tp8pp2-agentic.yaml"
KIMI_B300 = "vllm/kimi-k3/agentic/agg-b300-tp8pp2-agentic.yaml"
DSR1_GB200 = "sglang/deepseek-r1/1k1k/disagg-gb200-1p1d-dep8.yaml"
DSR1_GB200_AGENTIC = "sglang/deepseek-r1/agentic/disagg-gb200-1p1d-dep8-agentic.yaml"
TRT_B200 = "trtllm/b200-fp4/1k1k/ctx1_gen2_dep8_batch64.yaml"

SGL = "lmsysorg/sglang:v0.5.12-cu130"
SGL_ROCM = "lmsysorg/sglang:v0.5.12-rocm700-mi35x"
VLLM = "vllm/vllm-openai:v0.11.0"
VLLM_ROCM = "vllm/vllm-openai-rocm:v0.11.0"
VLLM_ROCM_NEW = "vllm/vllm-openai-rocm:nightly-4559c43a9526"


def nvidia(*, branch: bool) -> str:
    keys = [
        single(
            "dsr1-fp4-b200-sglang",
            SGL,
            "nvidia/DeepSeek-R1-0528-FP4",
            "b200",
            "sglang",
            (4, 8),
            agentic=True,
        ),
        single("dsr1-fp8-b200-sglang", SGL, "deepseek-ai/DeepSeek-R1-0528", "b200", "sglang", (8,)),
        multi(
            "dsr1-fp4-b200-dynamo-trt",
            "nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:0.8.1",
            "deepseek-r1-fp4",
            "b200-multinode",
            "dynamo-trt",
            {"fixed-seq-len": TRT_B200},
        ),
        multi(
            "dsr1-fp4-gb200-dynamo-sglang",
            SGL,
            "deepseek-r1-fp4",
            "gb200",
            "dynamo-sglang",
            {"fixed-seq-len": DSR1_GB200, "agentic-coding": DSR1_GB200_AGENTIC},
        ),
        single(
            "gptoss-fp4-b200-vllm",
            VLLM,
            "openai/gpt-oss-120b",
            "b200",
            "vllm",
            (1, 2, 8),
            agentic=True,
        ),
        single("gptoss-fp4-h200-vllm", VLLM, "openai/gpt-oss-120b", "h200", "vllm", (2, 8)),
        single(
            "llama70b-fp8-h100-vllm",
            VLLM,
            "RedHatAI/Llama-3.3-70B-Instruct-FP8",
            "h100",
            "vllm",
            (4, 8),
            comment="H100 runners are shared with CI; keep the sweep small",
        ),
        multi(
            "kimik3-fp4-b200-dynamo-vllm-agentic",
            VLLM,
            "nvidia/Kimi-K3-NVFP4",
            "b200-multinode",
            "dynamo-vllm",
            {"agentic-coding": KIMI_B200},
        ),
        single(
            "qwen3.5-fp8-b200-sglang",
            SGL,
            "Qwen/Qwen3.5-397B-A17B-FP8",
            "b200",
            "sglang",
            (4, 8),
            agentic=True,
        ),
        single(
            "qwen3.5-fp8-h200-sglang", SGL, "Qwen/Qwen3.5-397B-A17B-FP8", "h200", "sglang", (8,)
        ),
        single("minimaxm3-fp4-b300-vllm", VLLM, "nvidia/MiniMax-M3-NVFP4", "b300", "vllm", (4, 8)),
        single("minimaxm3-fp8-b200-vllm", VLLM, "MiniMaxAI/MiniMax-M3", "b200", "vllm", (8,)),
    ]
    if branch:
        keys.insert(
            8,
            multi(
                "kimik3-fp4-b300-dynamo-vllm-agentic",
                VLLM,
                "nvidia/Kimi-K3-NVFP4",
                "b300-multinode",
                "dynamo-vllm",
                {"agentic-coding": KIMI_B300},
            ),
        )
    return "\n".join(keys)


def amd(*, branch: bool) -> str:
    gptoss_image = VLLM_ROCM_NEW if branch else VLLM_ROCM
    comment = (
        "agentic sweep enabled with the nightly image (AITER MoE fusion)"
        if branch
        else "agentic-coding disabled until the AITER MoE fix lands"
    )
    keys = [
        single(
            "dsr1-fp4-mi355x-sglang",
            SGL_ROCM,
            "amd/DeepSeek-R1-0528-MXFP4",
            "mi355x",
            "sglang",
            (4, 8),
        ),
        single(
            "dsr1-fp4-mi355x-sglang-mtp",
            SGL_ROCM,
            "amd/DeepSeek-R1-0528-MXFP4",
            "mi355x",
            "sglang",
            (8,),
        ),
        single(
            "dsr1-fp4-mi355x-atom",
            "rocm/atom:v0.1.2",
            "amd/DeepSeek-R1-0528-MXFP4",
            "mi355x",
            "atom",
            (8,),
        ),
        single(
            "dsr1-fp8-mi300x-sglang",
            SGL_ROCM,
            "deepseek-ai/DeepSeek-R1-0528",
            "mi300x",
            "sglang",
            (8,),
        ),
        single(
            "dsr1-fp8-mi325x-sglang",
            SGL_ROCM,
            "deepseek-ai/DeepSeek-R1-0528",
            "mi325x",
            "sglang",
            (8,),
        ),
        single(
            "gptoss-fp4-mi355x-vllm",
            gptoss_image,
            "amd/gpt-oss-120b-w-mxfp4",
            "mi355x",
            "vllm",
            (1, 8),
            agentic=branch,
            comment=comment,
        ),
        single(
            "gptoss-fp4-mi300x-vllm", VLLM_ROCM, "openai/gpt-oss-120b", "mi300x", "vllm", (1, 8)
        ),
        single(
            "llama70b-fp8-mi300x-vllm",
            VLLM_ROCM,
            "amd/Llama-3.3-70B-Instruct-FP8-KV",
            "mi300x",
            "vllm",
            (4, 8),
        ),
        single(
            "qwen3.5-fp8-mi355x-atom",
            "rocm/atom:v0.1.2",
            "Qwen/Qwen3.5-397B-A17B-FP8",
            "mi355x",
            "atom",
            (8,),
        ),
        single(
            "qwen3.5-fp8-mi355x-sglang",
            SGL_ROCM,
            "Qwen/Qwen3.5-397B-A17B-FP8",
            "mi355x",
            "sglang",
            (4, 8),
            agentic=True,
        ),
        single(
            "minimaxm3-fp8-mi355x-vllm", VLLM_ROCM, "MiniMaxAI/MiniMax-M3", "mi355x", "vllm", (8,)
        ),
        single(
            "kimik3-fp4-mi355x-vllm",
            VLLM_ROCM,
            "amd/Kimi-K3-MXFP4",
            "mi355x",
            "vllm",
            (8,),
            agentic=True,
        ),
    ]
    return "\n".join(keys)


def recipe(name: str, gpu: str, *, max_num_seqs: int = 256) -> str:
    return (
        f"# srt-slurm recipe: {name}\n"
        f"name: {name}\n"
        "model:\n  path: /models/Kimi-K3-NVFP4\n"
        f"  container: {VLLM}\n"
        f"resources:\n  gpu_type: {gpu}\n  nodes: 2\n  gpus_per_node: 8\n"
        "backend:\n  type: vllm\n  tensor_parallel_size: 8\n  pipeline_parallel_size: 2\n"
        f"  max_num_seqs: {max_num_seqs}\n"
        "benchmark:\n  type: agentic\n  duration: 1800\n"
    )


def generic_recipe(name: str) -> str:
    return f"name: {name}\nbackend:\n  type: {name.split('/')[0]}\n  tensor_parallel_size: 8\n"


# --- changelog ------------------------------------------------------------------


def entry(keys: list[str], scenarios: list[str], descriptions: list[str], pr: int) -> str:
    lines = ["- config-keys:", *(f"    - {k}" for k in keys)]
    if scenarios:
        lines += ["  scenario-type:", *(f"    - {s}" for s in scenarios)]
    lines += [
        "  description:",
        *(f'    - "{d}"' for d in descriptions),
        f"  pr-link: https://github.com/{SLUG}/pull/{pr}",
    ]
    return "\n".join(lines) + "\n"


HISTORY = [
    (
        "Add DeepSeek-R1, GPT-OSS, Llama and Kimi-K3 configs (#101)",
        [
            entry(
                ["dsr1-fp4-b200-sglang", "dsr1-fp8-b200-sglang"],
                ["fixed-seq-len"],
                ["Initial DeepSeek-R1 B200 SGLang configs, TP4 and TP8, conc 4-64"],
                101,
            ),
            entry(
                ["gptoss-fp4-mi355x-vllm", "gptoss-fp4-mi300x-vllm"],
                ["fixed-seq-len"],
                ["Add GPT-OSS 120B on MI355X and MI300X with vLLM ROCm v0.11.0"],
                102,
            ),
        ],
    ),
    (
        "Add Kimi-K3 TP8 x PP2 aggregated agentic recipe on B200 (#103)",
        [
            entry(
                ["kimik3-fp4-b200-dynamo-vllm-agentic"],
                ["agentic-coding"],
                ["Add TP8 x PP2 aggregated recipe across 2 B200 nodes"],
                103,
            ),
        ],
    ),
    (
        "[AMD] Bump SGLang ROCm image for DeepSeek-R1 FP4 MI355X (#104)",
        [
            entry(
                ["dsr1-fp4-mi355x-*"],
                ["fixed-seq-len"],
                ["Bump SGLang ROCm image to v0.5.12 for all DeepSeek-R1 FP4 MI355X configs"],
                104,
            ),
            entry(
                ["gptoss-fp4-mi355x-vllm"],
                [],
                ["Retune GPT-OSS MI355X search space: drop TP2, keep TP1 and TP8"],
                105,
            ),
        ],
    ),
]
