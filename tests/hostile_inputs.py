"""Hostile inputs of about 1 MB each, as a branch could commit them on top of
:func:`projects.make_project`, and the commands that read them: shared by
``test_time_bounds.py`` (each run killed after 2 s) and
``benchmarks/bench_hostile.py`` (which reports the slowest)."""

from __future__ import annotations

from pathlib import Path

from projects import AMD, HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry

MB = 1 << 20
RECIPE = "benchmarks/multi_node/srt-slurm-recipes/x.yaml"


def _master(tail: str) -> dict[str, str]:
    return {NVIDIA: NVIDIA_TEXT + tail}


def _log(tail: str) -> dict[str, str]:
    return {LOG: HISTORY + "\n" + tail}


def _sub_keys() -> str:
    lines, size, i = ["wide-vllm:\n"], 0, 0
    while size < MB:
        line = f"  k{i}: {i}\n"
        lines.append(line)
        size += len(line)
        i += 1
    return "".join(lines)


def _many_keys() -> str:
    blocks, size, i = [], 0, 0
    while size < MB:
        block = f"k{i}-vllm:\n  image: x\n"
        blocks.append(block)
        size += len(block)
        i += 1
    return "".join(blocks)


INPUTS: dict[str, dict[str, str]] = {
    # master configs: the top-level key scan, the YAML 1.1 reading, the lints
    "key line of blanks": _master("a" + " " * MB + "\n"),
    "key line of colons": _master("a" + ":b" * (MB // 2) + "\n"),
    "unclosed quoted key": _master('"' + "\\a" * (MB // 2) + "\n"),
    "12,000+ sub-keys": _master(_sub_keys()),
    "many top-level keys": _master(_many_keys()),
    "base-60 value": _master("b60-vllm:\n  image: 1" + ":0" * (MB // 2) + "\n"),
    "tabs in a quoted value": _master('tab-vllm:\n  image: "' + "\t" * MB + '"\n'),
    "long plain value": _master("long-vllm:\n  image: " + "x" * MB + "\n"),
    "flow mapping": _master("flow-vllm: {" + "a: 1, " * (MB // 6) + "z: 2}\n"),
    "recipe references": _master(
        "ref-vllm:\n  env: " + "CONFIG_FILE=recipes/x.yaml " * (MB // 27) + "\n"
    ),
    "long line in the other file": {AMD: "m-rocm:\n  image: " + "y " * (MB // 2) + "\n"},
    # the changelog: the appended entry's checks, both YAML readings
    "long description": _log(entry("a-vllm", "d" * MB)),
    "description of tabs": _log(entry("a-vllm", "\t" * MB)),
    "pattern of stars": _log(entry("*a" * (MB // 4) + "*b")),
    "blank lines after the entries": _log(entry("a-vllm") + "\n" * MB),
    "comment lines after the entries": _log(entry("a-vllm") + "# c\n" * (MB // 4)),
    # a recipe: the reference scan
    "recipe of one line": {RECIPE: "a: " + "x " * (MB // 2) + "\n"},
}

COMMANDS: dict[str, tuple[str, ...]] = {
    "verify --base": ("verify", "--base", "main", "--format", "json"),
    "keys --base": ("keys", "--base", "main", "--format", "json"),
    "lint --base": ("lint", "--base", "main"),
    "verify --file": ("verify", "--file", LOG),
    "log": ("log", "a-vllm"),
    "add": ("add", "--no-input", "--key", "a-vllm", "--description", "x", "--dry-run"),
}


HOSTILE_MODULES = (
    "changelog_tool/__init__.py",
    "json.py",
    "typing.py",
    "os.py",
    "sitecustomize.py",
)


def hostile_modules(marks: Path) -> dict[str, str]:
    """Modules at the top of a checkout that leave a mark in ``marks`` if imported."""
    return {
        name: f"import _io\n_io.open({str(marks / name.replace('/', '.'))!r}, 'w').close()\n"
        for name in HOSTILE_MODULES
    }
