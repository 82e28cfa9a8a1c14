"""`--format github` output cannot be turned into workflow commands by the branch: key
names, field names, file names and opt-out reasons are untrusted (docs/security.md)."""

from __future__ import annotations

import re

import pytest
from projects import NVIDIA, NVIDIA_TEXT, key_block, make_project, run

from changelog_tool.findings import Finding, format_github, format_text, github_log

RECIPE = "benchmarks/multi_node/srt-slurm-recipes/vllm/r\n::error::from-a-file-name.yaml"
FIELD = '  "x\\n::error title=pwned::from-a-field": 1\n'
ANNOTATION = re.compile(
    r"::(error|warning|notice) file=[^:,\r\n]*(,line=\d+)?,title=[a-z-]+::[^\r\n]*\Z"
)


def hostile_branch(repo):
    project = make_project(repo)
    text = NVIDIA_TEXT.replace("b-vllm:\n", f"b-vllm:\n{FIELD}", 1)
    text += key_block('"::warning::from-a-key"') + key_block('"k\\n::error::from-a-key-2"')
    project.commit("hostile names", **{NVIDIA: text, RECIPE: "name: r\n"})
    return project


def our_commands_only(stdout: str) -> list[str]:
    """Every line GitHub would read as a command is one of ours; returns the log lines
    that GitHub was told not to read (between stop-commands and its token)."""
    lines = stdout.split("\n")
    stopped: list[str] = []
    token = None
    for line in lines:
        bare = line.lstrip()
        if token is not None:
            if bare == f"::{token}::":
                token = None
                continue
            stopped.append(line)
            assert not bare.startswith("::"), line
            continue
        if bare.startswith("::stop-commands::"):
            token = bare[len("::stop-commands::") :]
            assert re.fullmatch(r"[0-9a-f]{32}", token), line
            continue
        assert not bare.startswith("::") or ANNOTATION.match(line), line
        assert bare.startswith("::") or not bare, f"a log line outside the stopped block: {line}"
    assert token is None, "commands were never resumed"
    assert all("\r" not in line for line in lines)
    return stopped


def test_verify_github_output_escapes_every_name_from_the_branch(repo) -> None:
    project = hostile_branch(repo)
    done = run(
        project,
        "verify",
        "--base",
        "main",
        "--format",
        "github",
        "--skip-reason",
        "label\n::error::from-a-reason",
    )
    # opted out: uncovered keys are warnings; the hostile names are key-name errors
    assert done.returncode == 1, done.stderr
    assert "title=key-name::" in done.stdout
    log = our_commands_only(done.stdout)
    joined = "\n".join(log)
    assert r"'x\n::error title=pwned::from-a-field'" in joined
    assert r"'k\n::error::from-a-key-2'" in joined
    assert r"r\n::error::from-a-file-name.yaml'" in joined
    assert r"'label\n::error::from-a-reason'" in joined
    assert any("suggested entry" in line for line in log)


def test_keys_github_output_escapes_every_name_from_the_branch(repo) -> None:
    project = hostile_branch(repo)
    done = run(project, "keys", "--base", "main", "--format", "github")
    assert done.returncode == 1, done.stderr  # the hostile names are key-name errors
    log = our_commands_only(done.stdout)
    assert any("::warning::from-a-key" in line for line in log)


def test_a_key_the_schema_refuses_never_reaches_a_command_to_copy(repo) -> None:
    project = make_project(repo)
    text = NVIDIA_TEXT + key_block('"x;touch pwned"') + key_block("fine-vllm")
    project.commit("key", **{NVIDIA: text})
    done = run(project, "verify", "--base", "main")
    assert done.returncode == 1
    assert "key-name: key 'x;touch pwned' contains ';' U+003B SEMICOLON" in done.stdout
    [command] = [line for line in done.stdout.splitlines() if "changelog add" in line]
    assert "--key fine-vllm" in command and "pwned" not in command


# --- the formatters themselves ------------------------------------------------------------
def test_annotation_properties_and_data_are_escaped() -> None:
    finding = Finding("schema", "50% done\r\nnext", "a,b:c\n::d.yaml", 3)
    assert format_github([finding]) == (
        "::error file=a%2Cb%3Ac%0A%3A%3Ad.yaml,line=3,title=schema::50%25 done%0D%0Anext"
    )


def test_a_text_finding_is_always_one_line() -> None:
    finding = Finding("uncovered-key", "k\n::error::x changed\x1b[31m", "configs/m.yaml", 2)
    assert format_text([finding]) == (
        "configs/m.yaml:2: uncovered-key: k\\n::error::x changed\\x1b[31m"
    )


@pytest.mark.parametrize("line", ["::error::x", "  ::warning::x", "a\r::error::x"])
def test_the_github_log_never_starts_a_line_with_two_colons(line: str) -> None:
    out = github_log([line], token="0" * 32).split("\n")
    assert out[0] == f"::stop-commands::{'0' * 32}" and out[-1] == f"::{'0' * 32}::"
    assert all(not part.lstrip().startswith("::") for part in out[1:-1])
    assert all("\r" not in part for part in out)
