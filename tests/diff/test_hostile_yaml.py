"""Hostile YAML through the installed command, in real git repositories: bounded work
(each run must finish inside a 20 s subprocess timeout, a generous bound for runs that
take a second or two) and a finding or a `changelog:` message, never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import unicodedata

import pytest
from projects import AMD, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, line_of, make_project

RECIPE = "benchmarks/multi_node/srt-slurm-recipes/x.yaml"


def run(repo, *args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [sys.executable, "-m", "changelog_tool", *args],
        cwd=repo.root,
        input=stdin.encode() if isinstance(stdin, str) else stdin,
        capture_output=True,
        env=os.environ,
        timeout=20,
        check=False,
    )
    result = subprocess.CompletedProcess(
        done.args,
        done.returncode,
        done.stdout.decode("utf-8", "replace"),
        done.stderr.decode("utf-8", "replace"),
    )
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr, result
    assert result.returncode in (0, 1, 2), result
    if result.returncode == 2:
        assert result.stderr.startswith("changelog: "), result
    return result


def findings(repo, *args: str) -> list[dict]:
    done = run(repo, *args, "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    return json.loads(done.stdout)["findings"]


def laughs(levels: int, first: str) -> str:
    lines = [f"  a0: &a0 [{first}]"]
    for level in range(1, levels):
        lines.append(f"  a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    return "\n".join(lines) + "\n"


# --- item 8: alias expansion and depth in master configs ----------------------------
def test_a_437_byte_alias_bomb_in_a_master_config_is_a_yaml_alias_finding_in_seconds(repo) -> None:
    # 9**7 copies of a recipe reference: looking for the keys that use the new recipe
    # walked every copy (minutes); now the file is refused at the alias past the limit
    make_project(repo)
    bomb = "bomb:\n" + laughs(8, '"CONFIG_FILE=recipes/x.yaml"')
    assert len(bomb) < 450
    text = NVIDIA_TEXT + bomb
    repo.commit("bomb", **{NVIDIA: text, RECIPE: "a: 1\n"})
    found = findings(repo, "verify", "--base", "main")
    ((alias,),) = [[f for f in found if f["code"] == "yaml-alias"]]
    assert alias["path"] == NVIDIA
    assert line_of(text, "  a1:") < alias["line"] <= line_of(text, "  a7:")
    assert "100,000 nodes" in alias["message"]
    assert [f["code"] for f in findings(repo, "keys", "--base", "main")] == ["yaml-alias"]


def test_100000_nested_brackets_in_a_master_config_are_a_finding_not_a_crash(repo) -> None:
    make_project(repo)  # the C loader overflowed its stack: a segfault, no message
    text = NVIDIA_TEXT + "deep:\n  x: " + "[" * 100_000 + "]" * 100_000 + "\n"
    repo.commit("deep", **{NVIDIA: text})
    for command in ("verify", "keys"):
        found = [f for f in findings(repo, command, "--base", "main") if f["code"] == "yaml-syntax"]
        assert [(f["path"], f["line"]) for f in found] == [(NVIDIA, line_of(text, "  x: ["))]
        assert "deeper than 100 levels" in found[0]["message"]


def test_deep_nesting_in_a_key_both_sides_compare_is_a_finding_not_a_recursion_error(
    repo,
) -> None:
    deep = "  deep: " + "[" * 1000 + "]" * 1000 + "\n"
    with_deep = NVIDIA_TEXT.replace("  model: some/model\n", "  model: some/model\n" + deep, 1)
    make_project(repo)
    repo.commit("base has it", **{NVIDIA: with_deep})
    repo.git("branch", "-f", "main")
    repo.commit("image bump", **{NVIDIA: with_deep.replace("openai:v1", "openai:v2", 1)})
    found = findings(repo, "verify", "--base", "main")
    line = line_of(with_deep, "  deep:")
    assert ("yaml-syntax", NVIDIA, line) in {(f["code"], f["path"], f["line"]) for f in found}


# --- item 8: depth in the changelog and in add --json -------------------------------
DEEP_ENTRY = entry("a-vllm").replace('"Change"', "[" * 1000 + "]" * 1000)


def test_deep_nesting_in_the_changelog_is_a_finding_for_verify_log_and_add(repo) -> None:
    make_project(repo)
    text = repo.read(LOG).decode() + "\n" + DEEP_ENTRY
    repo.write(LOG, text)
    line = line_of(text, "[[[")
    for args in (("verify", "--file", LOG), ("verify", "--base", "main")):
        found = findings(repo, *args)
        assert ("yaml-syntax", line) in {(f["code"], f["line"]) for f in found}
    logged = run(repo, "log", "a-vllm")
    assert logged.returncode == 0  # the other entries are still shown
    assert f"line {line}: nested deeper than 100 levels" in logged.stderr
    assert "Add a" in logged.stdout
    added = run(repo, "add", "--no-input", "--key", "a-vllm", "--description", "x", "--dry-run")
    assert added.returncode == 1 and "nested deeper than 100 levels" in added.stderr


@pytest.mark.parametrize(
    "document",
    [
        "[" * 100_000 + "]" * 100_000,  # the JSON decoder's recursion
        json.dumps({"config-keys": ["a-vllm"], "description": [json.loads("[" * 500 + "]" * 500)]}),
    ],
    ids=["100000-deep", "500-deep-description"],
)
def test_add_json_nested_past_the_limit_is_refused_with_a_message(repo, document: str) -> None:
    make_project(repo)
    done = run(repo, "add", "--json", "--dry-run", stdin=document)
    assert done.returncode == 1
    assert done.stderr.startswith("changelog: --json: stdin is nested deeper than 100 levels")
    assert len(done.stderr) < 200


def test_add_json_with_a_number_python_will_not_read_is_refused_with_a_message(repo) -> None:
    make_project(repo)
    document = '{"config-keys": ["a-vllm"], "description": ["x"], "eval-min-prefill-ep": 1%s}'
    done = run(repo, "add", "--json", "--dry-run", stdin=document % ("0" * 5000))
    assert done.returncode == 1 and "stdin cannot be read as JSON" in done.stderr


# --- item 9: look-alike key names ---------------------------------------------------
LOOKALIKES = ["k1\u200b", "k\u0131", "k\u0430", "k\u00a0x"]


def test_look_alike_master_keys_are_key_name_findings_naming_the_character(repo) -> None:
    make_project(repo)
    text = NVIDIA_TEXT + "".join(key_block(k) for k in LOOKALIKES)
    repo.commit("look-alikes", **{NVIDIA: text})
    found = [f for f in findings(repo, "verify", "--base", "main") if f["code"] == "key-name"]
    found.sort(key=lambda f: f["line"])
    assert [(f["path"], f["line"], f["severity"]) for f in found] == [
        (NVIDIA, line_of(text, f"{k}:"), "error") for k in LOOKALIKES
    ]
    for key, finding in zip(LOOKALIKES, found, strict=True):
        odd = next(c for c in key[1:] if not c.isascii())
        assert f"U+{ord(odd):04X} {unicodedata.name(odd)}" in finding["message"]
    keys = run(repo, "keys", "--base", "main")
    assert keys.returncode == 1 and keys.stdout.count(": key-name: ") == 4


def test_a_look_alike_key_gets_no_suggested_entry_the_schema_rejects(repo) -> None:
    from changelog_tool.ledger.entry import schema_errors
    from changelog_tool.yaml.strict import load_value

    make_project(repo)
    repo.commit("look-alike", **{NVIDIA: NVIDIA_TEXT + key_block("k1\u200b") + key_block("c")})
    done = run(repo, "verify", "--base", "main", "--format", "json")
    suggested = json.loads(done.stdout)["suggested_entry"]
    (value,) = load_value(suggested.encode())
    assert not schema_errors(value)
    assert value["config-keys"] == ["c"]  # the look-alike key is reported, not suggested


# --- item 13: line endings, tags, empty and binary documents -------------------------
def test_cr_line_endings_in_the_changelog_are_findings_and_warnings_not_a_crash(repo) -> None:
    make_project(repo)
    repo.write(LOG, (repo.read(LOG).decode() + "\n" + entry("a-vllm")).replace("\n", "\r"))
    found = findings(repo, "verify", "--file", LOG)
    assert {f["code"] for f in found} == {"encoding", "final-newline"}
    logged = run(repo, "log", "a-vllm")  # read as libyaml reads it, and told why lines are 1
    assert logged.returncode == 0 and "a carriage return" in logged.stderr
    assert logged.stdout.count(f"{LOG}:1:") == 2  # the two entries for a-vllm, both on line 1
    added = run(repo, "add", "--no-input", "--key", "a-vllm", "--description", "x")
    assert added.returncode == 1 and "encoding: a carriage return" in added.stderr


def test_cr_line_endings_in_a_master_config_keep_its_changes_visible(repo) -> None:
    make_project(repo)
    text = NVIDIA_TEXT.replace("openai:v1", "openai:v2", 1).replace("\n", "\r")
    repo.commit("CR", **{NVIDIA: text})
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "a-vllm")]


MASTER_INPUTS = {
    "tag": NVIDIA_TEXT + "c-vllm: !!python/object:os.system\n  a: 1\n",
    "only-document-marker": "---\n",
    "binary": bytes(range(256)) * 4,
    "crlf": NVIDIA_TEXT.replace("\n", "\r\n"),
    "aliases-in-amd": None,  # the fan-out in the other master file
}
LOG_INPUTS = {
    "tag": entry("a-vllm").replace('"Change"', "!!str x"),
    "only-document-marker": b"---\n",
    "binary": bytes(range(256)) * 4,
    "alias-fan-out": entry("a-vllm") + laughs(9, '"x"'),
}


@pytest.mark.parametrize("name", MASTER_INPUTS)
def test_hostile_master_configs_give_findings_or_messages(repo, name: str) -> None:
    make_project(repo)
    data = MASTER_INPUTS[name]
    if data is None:
        repo.commit(name, **{AMD: "bomb:\n" + laughs(12, '"x"')})
    else:
        repo.commit(name, **{NVIDIA: data})
    for args in (
        ("verify", "--base", "main", "--format", "json"),
        ("keys", "--base", "main", "--format", "json"),
        ("log", "a-vllm"),
        ("add", "--no-input", "--key", "a-vllm", "--description", "x", "--dry-run"),
    ):
        run(repo, *args)


@pytest.mark.parametrize("name", LOG_INPUTS)
def test_hostile_changelogs_give_findings_or_messages(repo, name: str) -> None:
    make_project(repo)
    data = LOG_INPUTS[name]
    repo.write(LOG, data if isinstance(data, bytes) else repo.read(LOG).decode() + "\n" + data)
    for args in (
        ("verify", "--file", LOG),
        ("verify", "--base", "main"),
        ("log", "a-vllm"),
        ("add", "--no-input", "--key", "a-vllm", "--description", "x", "--dry-run"),
    ):
        done = run(repo, *args)
        if args[0] == "verify":
            assert done.returncode == 1, done
