"""A repository that extends the entry schema (the ``entry-schema`` setting): a flag
and a scenario type of its own, written by ``add``, accepted by ``verify``; refused,
with the setting named, where no schema declares them; and a branch cannot change the
schema it is judged by (docs/usage.md, 'Adding a field')."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import HOSTILE_CPU_SECONDS, cpu_limit
from listener import listening
from projects import AMD, AMD_TEXT, LOG, NVIDIA, codes, key_block, run, verify

SCHEMA = ".github/perf-changelog.schema.json"
SETTINGS = f'repository = "acme/bench"\nentry-schema = "{SCHEMA}"\n'
EXTENSION = {
    "properties": {
        "multi-turn": {
            "type": "boolean",
            "description": "the CI replays each conversation turn by turn",
        },
        "scenario-type": {"items": {"enum": ["long-context"]}},
    }
}
HISTORY = (
    '- config-keys:\n    - a-vllm\n  description:\n    - "Add a"\n'
    "  pr-link: https://github.com/acme/bench/pull/1\n"
)


def long_context(key: str, image: str = "vllm/vllm-openai:v1") -> str:
    """A key that runs only the repository's own scenario type."""
    return key_block(key, image).replace("fixed-seq-len:", "long-context:")


def project(repo, settings: str = SETTINGS, extension: dict | None = EXTENSION):  # type: ignore[no-untyped-def]
    """main: a key of scenario type long-context, the settings and (by default) the
    schema file; checked out: branch feature, which changes the key's image."""
    files = {
        NVIDIA: long_context("a-vllm"),
        AMD: AMD_TEXT,
        LOG: HISTORY,
        ".perf-changelog.toml": settings,
    }
    if extension is not None:
        files[SCHEMA] = json.dumps(extension, indent=2) + "\n"
    repo.commit("base", **files)
    repo.git("checkout", "-q", "-b", "feature")
    repo.write(NVIDIA, long_context("a-vllm", "vllm/vllm-openai:v2"))
    return repo


ADD = (
    "add",
    "--no-input",
    "--key",
    "a-vllm",
    "--scenario-type",
    "long-context",
    "--description",
    "Bump vLLM",
)


def test_add_writes_the_flag_the_repository_schema_declares(repo) -> None:
    project(repo)
    done = run(repo, *ADD, "--multi-turn")
    assert done.returncode == 0, done.stderr
    text = (repo.root / LOG).read_text()
    assert text.endswith(
        "\n\n- config-keys:\n    - a-vllm\n  scenario-type:\n    - long-context\n"
        '  description:\n    - "Bump vLLM"\n  pr-link: XXX\n  multi-turn: true\n'
    )


def test_add_help_shows_the_added_flag_with_its_description(repo) -> None:
    project(repo)
    done = run(repo, "add", "--help", env={"COLUMNS": "200"})
    assert done.returncode == 0
    line = [x for x in done.stdout.splitlines() if "--multi-turn" in x][-1]  # not the usage
    assert "sets multi-turn: true (the CI replays each conversation turn by turn)" in line
    assert "--evals-only" in done.stdout and "--eval-min-prefill-ep N" in done.stdout


def test_add_json_writes_the_added_field_and_refuses_an_undeclared_one(repo) -> None:
    project(repo)
    good = {"config-keys": ["a-vllm"], "description": ["Bump"], "multi-turn": True}
    done = run(repo, "add", "--json", stdin=json.dumps(good))
    assert done.returncode == 0, done.stderr
    assert (repo.root / LOG).read_text().endswith("  pr-link: XXX\n  multi-turn: true\n")
    bad = {**good, "description": ["Other"], "turns": 2}
    done = run(repo, "add", "--json", stdin=json.dumps(bad))
    assert done.returncode == 1
    assert "'turns' was unexpected" in done.stderr and SCHEMA in done.stderr


def test_verify_accepts_the_entry_and_names_the_added_field(repo) -> None:
    project(repo)
    assert run(repo, *ADD, "--multi-turn").returncode == 0
    repo.git("add", "-A")
    repo.git("commit", "-qm", "bump")
    code, document = verify(repo)
    assert code == 0, document["findings"]
    assert document["appended"][0]["multi-turn"] is True
    text = run(repo, "verify", "--base", "main").stdout
    assert f"entry schema {SCHEMA} at the base" in text
    assert "adds field multi-turn (flag): the CI replays each conversation turn by turn" in text
    assert "adds scenario type long-context" in text


def test_verify_file_uses_the_repository_schema(repo) -> None:
    project(repo)
    assert run(repo, *ADD, "--multi-turn").returncode == 0
    done = run(repo, "verify", "--file")
    assert done.returncode == 0, done.stdout


def test_without_the_setting_the_gate_refuses_the_field_and_names_the_setting(repo) -> None:
    project(repo, settings='repository = "acme/bench"\n', extension=None)
    entry = (
        "\n- config-keys:\n    - a-vllm\n  description:\n"
        '    - "Bump vLLM"\n  pr-link: XXX\n  multi-turn: true\n'
    )
    repo.commit("bump", **{LOG: HISTORY + entry})
    code, document = verify(repo)
    assert code == 1
    schema = [f for f in document["findings"] if f["code"] == "schema"]
    assert len(schema) == 1 and schema[0]["severity"] == "error"
    assert "'multi-turn' was unexpected" in schema[0]["message"]
    assert "`entry-schema` setting" in schema[0]["message"]
    done = run(repo, *ADD, "--multi-turn")
    assert done.returncode == 2 and "unrecognized arguments: --multi-turn" in done.stderr


def test_a_scenario_type_the_schema_does_not_list_is_one_notice(repo) -> None:
    project(repo, settings='repository = "acme/bench"\n', extension=None)
    repo.write(NVIDIA, long_context("a-vllm", "v2") + "\n" + long_context("b-vllm"))
    entry = '\n- config-keys:\n    - a-vllm\n    - b-vllm\n  description:\n    - "Bump"\n'
    repo.commit("bump", **{LOG: HISTORY + entry + "  pr-link: XXX\n"})
    code, document = verify(repo)
    assert code == 0, document["findings"]
    notices = [f for f in document["findings"] if f["code"] == "unlisted-scenario-type"]
    assert len(notices) == 1 and notices[0]["severity"] == "notice"
    message = notices[0]["message"]
    assert "'long-context' (a-vllm, b-vllm)" in message and "`entry-schema` setting" in message


def test_a_branch_that_widens_the_schema_is_judged_by_the_base_schema(repo) -> None:
    project(repo)
    wider = {"properties": {**EXTENSION["properties"], "turns": {"type": "integer"}}}
    entry = (
        "\n- config-keys:\n    - a-vllm\n  description:\n"
        '    - "Bump vLLM"\n  pr-link: XXX\n  turns: 2\n'
    )
    repo.commit("bump", **{LOG: HISTORY + entry, SCHEMA: json.dumps(wider)})
    code, document = verify(repo)
    assert code == 1
    assert "settings-changed" in codes(document)
    changed = next(f for f in document["findings"] if f["code"] == "settings-changed")
    assert changed["path"] == SCHEMA and "the base's schema was used" in changed["message"]
    schema = next(f for f in document["findings"] if f["code"] == "schema")
    assert "'turns' was unexpected" in schema["message"]
    code, document = verify(repo, "--allow-settings-change")
    assert code == 1 and "schema" in codes(document)


def test_a_schema_that_would_loosen_the_built_in_rules_changes_nothing_or_is_refused(
    repo,
) -> None:
    project(repo, extension={"required": [], "properties": {"description": {"minItems": 0}}})
    done = run(repo, "add", "--json", stdin='{"config-keys": ["a-vllm"]}')
    assert done.returncode == 1 and "'description' is a required property" in done.stderr
    repo.write(SCHEMA, json.dumps({"additionalProperties": True}))
    done = run(repo, *ADD)
    assert done.returncode == 2 and "drop additionalProperties" in done.stderr
    repo.write(SCHEMA, json.dumps({"properties": {"pr-link": {"type": "integer"}}}))
    done = run(repo, *ADD)
    assert done.returncode == 2 and "not change its type" in done.stderr


def test_a_missing_schema_file_is_named_with_the_setting(repo) -> None:
    project(repo, extension=None)
    done = run(repo, *ADD)
    assert done.returncode == 2
    assert f"setting `entry-schema` names {SCHEMA}, which does not exist" in done.stderr


def test_init_writes_no_entry_schema(repo) -> None:
    repo.commit("base", **{NVIDIA: long_context("a-vllm"), AMD: AMD_TEXT, LOG: HISTORY})
    done = run(repo, "init", "--source", "https://github.com/acme/perf-changelog@v1", "--dry-run")
    assert done.returncode == 0, done.stderr
    assert "entry-schema" not in done.stdout and "schema.json" not in done.stdout


def reaching(keyword: str, target: str) -> dict[str, object]:
    """The documented extension, with a rule that sends ``multi-turn`` to ``target``
    (a schema of integers there: obeyed, it would fail every entry that sets it)."""
    return {**EXTENSION, "allOf": [{"properties": {"multi-turn": {keyword: target}}}]}


@pytest.mark.parametrize("keyword", ["$ref", "$dynamicRef", "$recursiveRef"])
@pytest.mark.parametrize("where", ["http", "file"])
def test_a_schema_that_refers_outside_the_repository_reads_nothing(
    repo, tmp_path, keyword: str, where: str
) -> None:
    """`verify --file` (the pre-commit hook) and `add` refuse the file, naming it and
    the setting; the server hears nothing, the file outside is never obeyed."""
    outside = tmp_path / "outside.json"
    outside.write_text('{"type": "integer"}', encoding="utf-8")
    with listening() as server:
        target = server.url if where == "http" else outside.as_uri()
        project(repo, extension=reaching(keyword, target))
        done = run(repo, *ADD)
        assert done.returncode == 2, done.stdout + done.stderr
        said = (
            f"changelog: {SCHEMA} (the `entry-schema` setting): {keyword} {target!r} leads outside"
        )
        assert done.stderr.startswith(said)
        repo.write(LOG, HISTORY + "\n" + ENTRY)
        done = run(repo, "verify", "--file")
        assert done.returncode == 2 and done.stderr.startswith(said), done.stdout + done.stderr
        assert server.requests == []


ENTRY = '- config-keys:\n    - a-vllm\n  description:\n    - "Bump"\n  pr-link: XXX\n  multi-turn: true\n'


def test_a_schema_of_doubling_definitions_is_refused_at_once_by_verify_file(repo) -> None:
    """1.7 KB of $defs, each naming the one before twice, stand for 2**25 copies:
    followed through the registry, they are counted and refused, not expanded."""
    defs: dict[str, object] = {"d0": {"type": "boolean"}}
    for n in range(1, 26):
        defs[f"d{n}"] = {"allOf": [{"$ref": f"#/$defs/d{n - 1}"}, {"$ref": f"#/$defs/d{n - 1}"}]}
    extension = {**EXTENSION, "$defs": defs, "allOf": [{"$ref": "#/$defs/d25"}]}
    assert 1500 < len(json.dumps(extension)) < 2000
    project(repo, extension=extension)
    repo.write(LOG, HISTORY + "\n" + ENTRY)
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-I", "-m", "changelog_tool", "verify", "--file"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        env=os.environ,
        timeout=30,
        preexec_fn=cpu_limit(HOSTILE_CPU_SECONDS),
        check=False,
    )
    took = time.monotonic() - started
    assert done.returncode not in (-signal.SIGXCPU, -signal.SIGKILL), "expanded, not refused"
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr.startswith(
        f"changelog: {SCHEMA} (the `entry-schema` setting): its references, followed, "
        "make more than 500 subschemas"
    )
    assert took < HOSTILE_CPU_SECONDS
