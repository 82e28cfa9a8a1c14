"""Changelogs with problems in different places, built from real-shaped entries.

The entries mirror the InferenceX changelog's shapes (keys and patterns, double-
and single-quoted descriptions, non-ASCII text, flags, scenario types); each case
damages a file of a few hundred of them somewhere (near the start, in the middle,
at the end) so that a check reading the file in pieces meets the damage at a
piece's edge as well as inside one. ``tests/ledger/snapshots/filecheck-findings.json``
holds what ``check_file`` reported for every case before it learnt to stream.
"""

from __future__ import annotations

ENTRIES = (
    "- config-keys:\n    - dsr1-fp4-b200-sglang\n    - dsr1-fp8-b200-sglang\n"
    "  description:\n"
    '    - "Bump SGLang image to v0.5.9-cu130 (CONC\u226564) for {n}"\n'
    '    - "dsr1-fp8-b200-sglang: v0.5.6-cu129-amd64 \u2192 v0.5.9-cu130"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n",
    "- config-keys:\n    - 70b-fp8-*-vllm\n"
    "  description:\n"
    "    - 'Add compilation-config ''{{\"custom_ops\": [\"-rms_norm\"]}}'' to run {n}'\n"
    '    - "6-7% uplift for llama for 6/8 configs"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n",
    "- config-keys:\n    - gptoss*\n    - dsr1*\n"
    "  scenario-type:\n    - fixed-seq-len\n    - agentic-coding\n"
    "  description:\n"
    '    - "Remove Llama 70B runs to make room for multi-node disagg (#{n})"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/XXX\n",
    "- config-keys:\n    - minimaxm2.5-fp8-mi355x-vllm\n"
    "  description:\n"
    "    - Plain description number {n} with words, and-dashes\n"
    "  pr-link: XXX\n"
    "  evals-only: true\n",
    "- config-keys:\n    - qwen3.5-fp8-mi355x-sglang\n    - qwen3.5-bf16-h200-sglang\n"
    "  description:\n"
    '    - "Low-latency only (TP=8, EP=1) \u2014 DeepEP FP8 path {n}"\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n"
    "  eval-min-prefill-ep: 2\n",
    # the shapes history also holds: 2-space items, flow lists, a comment, plain text
    "- config-keys:\n  - kimik2.5-fp4-gb200-dynamo-trt\n"
    "  description:\n  - Updated recipes {n}\n"
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n",
    "- config-keys: [glm5-fp8-mi355x-atom, glm5-fp8-b200-sglang]\n"
    "  # a comment inside an entry\n"
    '  description: ["flow style {n}"]\n'
    "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/{n}\n",
)


def entry(n: int) -> str:
    return ENTRIES[n % len(ENTRIES)].format(n=1000 + n)


def entries(count: int = 300) -> list[str]:
    return [entry(n) for n in range(count)]


def join(parts: list[str], end: str = "") -> bytes:
    return ("\n".join(parts) + end).encode()


def _replace(parts: list[str], index: int, old: str, new: str) -> list[str]:
    out = list(parts)
    assert old in out[index], (index, old)
    out[index] = out[index].replace(old, new, 1)
    return out


def cases() -> dict[str, bytes]:
    p = entries()
    link = "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/"
    found: dict[str, bytes] = {
        "clean": join(p),
        "duplicates far apart": join([*p[:250], p[3], *p[250:], p[10]]),
        "schema errors in different places": join(
            [
                *_replace(
                    _replace(
                        _replace(
                            _replace(
                                _replace(p, 0, link + "1000", "  pr-link: maybe"),
                                120,
                                "  description:\n",
                                "  notes:\n",
                            ),
                            206,
                            "  evals-only: true",
                            '  evals-only: "yes"\n  append-only: true',
                        ),
                        207,
                        "eval-min-prefill-ep: 2",
                        "eval-min-prefill-ep: 2.0",
                    ),
                    296,
                    "    - fixed-seq-len\n",
                    "    - offline\n",
                )[:298],
                p[298].replace("- qwen3.5-bf16-h200-sglang", "- 1e3"),
                *p[299:],
            ]
        ),
        "missing and whitespace separators": join(p[:50])
        + join(p[50:140], "")
        .replace(b"\n- config", b"\n  \n- config", 3)
        .replace(b"\n\n- config", b"\n- config", 1)
        + b"\n"
        + join(p[140:], "\n\n"),
        "tab in a quoted description": join(_replace(p, 147, "Bump SGLang", "Bump\tSGLang")),
        "tab in indentation": join(_replace(p, 78, "    - 70b", "\t- 70b")),
        "crlf": join(p).replace(b"\n", b"\r\n"),
        "one lone cr": join(_replace(p, 92, "6-7% uplift", "6-7%\r uplift")),
        "cr before a dash": join(_replace(p, 93, "    - gptoss*\n", "    - gptoss*\r- x: 1\n")),
        "bom": b"\xef\xbb\xbf" + join(p),
        "not utf-8 in the middle": join(p[:150])
        + b"\n- config-keys:\n    - \xff\xfe\n"
        + join(p[150:]),
        "nul": join(_replace(p, 261, "Remove Llama", "Remove\x00Llama")),
        "unclosed double quote": join(_replace(p, 42, 'for 1042"', "for 1042")),
        "unclosed quote spanning entries": join(_replace(p, 44, '(#1044)"', "(#1044)")),
        "unclosed flow list": join(_replace(p, 6, '1006"]', '1006", x')),
        "duplicate key": join(_replace(p, 94, "  pr-link: XXX", "  pr-link: XXX\n  pr-link: YYY")),
        "anchor and alias": join(
            _replace(
                _replace(p, 23, "    - gptoss*", "    - &g gptoss*"),
                24,
                "    - minimaxm",
                "    - *g\n    - minimaxm",
            )
        ),
        "tag": join(_replace(p, 129, "  pr-link: XXX", "  pr-link: !!str XXX")),
        "nested too deep": join(
            _replace(p, 172, "    - qwen3.5-fp8", "    - " + "[" * 120 + "]" * 120)
        ),
        "entry not starting with config-keys": join(
            _replace(
                _replace(
                    _replace(
                        p,
                        57,
                        "- config-keys:\n    - 70b-fp8-*-vllm\n  description:",
                        "- description:",
                    ),
                    58,
                    "- config-keys:",
                    "- pr-link: XXX\n  config-keys:",
                ),
                58,
                "  pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/XXX\n",
                "",
            )
        ),
        "dash alone on its line": join(_replace(p, 60, "- config-keys:", "-\n  config-keys:")),
        "a scalar item": join([*p[:100], "- just text\n", *p[100:]]),
        "a mapping line at column 0": join(_replace(p, 101, "  description:", "description:")),
        "document markers": join(p[:30]) + b"\n...\n---\n" + join(p[30:]),
        "document start at the top": b"---\n" + join(p),
        "preamble comment": b"# perf changelog\n\n" + join(p),
        "preamble mapping": b"title: perf\n" + join(p),
        "no final newline": join(p).rstrip(b"\n"),
        "ends with an empty line": join(p, "\n"),
        "ends with spaces": join(p, "  \n"),
        "empty": b"",
        "only blank lines": b"\n  \n\n",
        "mapping root": b"config-keys: [a]\ndescription: [b]\n",
        "scalar root": b"just text\n",
        "many problems": join(
            _replace(
                _replace(
                    _replace(p[:200], 3, "  pr-link: XXX", "  pr-link: nope"),
                    66,
                    "  pr-link: XXX",
                    "  pr-link: XXX\n  pr-link: XXX",
                ),
                144,
                "    - qwen3.5-fp8-mi355x-sglang",
                "    - 1e3\n    - 'unclosed",
            )
        )
        + b"\n"
        + join(p[200:]).replace(b"\n\n- config", b"\n- config", 2)
        + b"\t\n",
    }
    return found
