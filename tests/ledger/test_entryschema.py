"""The entry schema is the one definition of an entry: how a repository's file
combines with the built-in one, the docs' field table, and no list of fields or
flags anywhere else in the package."""

from __future__ import annotations

import ast
import html
import json
import re
from pathlib import Path

import pytest
from conftest import ROOT
from listener import listening

from changelog_tool.errors import UsageError
from changelog_tool.ledger import entryschema
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.entry import normalize, schema_errors
from changelog_tool.ledger.entryschema import (
    FLAG,
    INTEGER,
    TEXT,
    builtin,
    parse,
)
from changelog_tool.settings import schema_document

GOOD = {"config-keys": ["a"], "description": ["d"], "pr-link": "XXX"}
KINDS = {"list": "list of text", "text": "text", "flag": "true/false", "integer": "integer"}


def extension(**properties: object) -> bytes:
    return json.dumps({"properties": properties}).encode()


def field_table() -> str:
    """The docs' table of fields, as the built-in schema says them."""
    definition, required = builtin(), schema_document()["$defs"]["entry"]["required"]
    rows = ["| field | kind | required | what it means |", "|---|---|---|---|"]
    for field in definition.fields:
        kind = KINDS[field.kind] + (f" >= {field.minimum}" if field.minimum is not None else "")
        about = field.description
        if field.name == "scenario-type":
            about += " One of: " + ", ".join(f"`{k}`" for k in definition.scenario_types) + "."
        need = "yes" if field.name in required else "no"
        rows.append(f"| `{field.name}` | {kind} | {need} | {html.escape(about, quote=False)} |")
    return "\n".join(rows)


def test_the_docs_field_table_is_the_schema() -> None:
    text = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    assert field_table() in text


def test_the_built_in_schema_gives_the_fields_in_the_emitters_order() -> None:
    definition = builtin()
    assert definition.names[:4] == ("config-keys", "scenario-type", "description", "pr-link")
    assert [f.name for f in definition.of_kind(FLAG)] == [
        "evals-only",
        "all-evals",
        "no-evals",
        "append-only",
    ]
    [number] = definition.of_kind(INTEGER)
    assert (number.name, number.minimum) == ("eval-min-prefill-ep", 1)
    assert definition.scenario_types == ("fixed-seq-len", "agentic-coding")


def test_a_repository_schema_adds_fields_after_the_built_in_ones_and_its_types() -> None:
    added = parse(
        extension(
            turns={"type": "integer", "minimum": 2, "description": "turns per conversation"},
            **{"scenario-type": {"items": {"enum": ["long-context", "fixed-seq-len"]}}},
        ),
        "x.json",
    )
    assert added.names == (*builtin().names, "turns")
    assert added.scenario_types == ("fixed-seq-len", "agentic-coding", "long-context")
    with entryschema.using(added):
        entry = {**GOOD, "turns": 3, "scenario-type": ["long-context"]}
        assert schema_errors(entry) == []
        assert list(normalize({"turns": 3, **GOOD})) == [
            "config-keys",
            "description",
            "pr-link",
            "turns",
        ]
        assert emit(entry).endswith(b"  pr-link: XXX\n  turns: 3\n")
        assert schema_errors({**GOOD, "turns": 1}) == [("turns", "1 is less than the minimum of 2")]
        assert schema_errors({**GOOD, "turns": 2.0})[0][1].startswith("2.0 is not an integer")
    assert schema_errors({**GOOD, "turns": 3})  # the built-in schema is back in use


def test_the_built_in_rules_hold_whatever_the_repository_schema_says() -> None:
    loose = parse(
        json.dumps({"required": [], "properties": {"description": {"minItems": 0}}}).encode(),
        "x.json",
    )
    with entryschema.using(loose):
        assert ("(entry)", "'description' is a required property") in schema_errors(
            {"config-keys": ["a"], "pr-link": "XXX"}
        )
        assert schema_errors({**GOOD, "description": []}) == [
            ("description", "[] should be non-empty")
        ]
        both = {**GOOD, "append-only": True, "evals-only": True}
        assert [m for _, m in schema_errors(both)] == [
            "append-only cannot be combined with evals-only, all-evals or eval-min-prefill-ep"
        ]


def test_a_repository_schema_may_tighten_a_built_in_rule() -> None:
    tight = parse(extension(description={"maxItems": 1}), "x.json")
    with entryschema.using(tight):
        assert schema_errors({**GOOD, "description": ["a", "b"]}) == [
            ("description", "['a', 'b'] is too long")
        ]


@pytest.mark.parametrize(
    ("text", "says"),
    [
        (b"{", "not a JSON file"),
        (b"[]", "a schema of one entry is a JSON object"),
        (b'{"type": "array"}', '"type" must be "object"'),
        (b'{"additionalProperties": true}', "drop additionalProperties"),
        (extension(notes={"type": "object"}), "'notes' needs a type the changelog can hold"),
        (extension(notes={}), "'notes' needs a type the changelog can hold"),
        (extension(**{"pr-link": {"type": "integer"}}), "not change its type"),
        (b'{"properties": {"a": {"$ref": "https://x.invalid/s.json"}}}', "leads outside"),
        (b'{"minProperties": "two"}', "not a valid JSON Schema"),
    ],
)
def test_a_schema_file_the_tool_cannot_use_is_refused_with_the_reason(
    text: bytes, says: str
) -> None:
    with pytest.raises(UsageError, match=re.escape(says)) as caught:
        parse(text, "repo.schema.json")
    assert str(caught.value).startswith("repo.schema.json")


def test_local_refs_of_the_repository_file_are_followed() -> None:
    text = json.dumps(
        {
            "$defs": {"count": {"type": "integer", "minimum": 1}},
            "properties": {"turns": {"$ref": "#/$defs/count"}},
        }
    )
    added = parse(text.encode(), "x.json")
    assert added.of_kind(INTEGER)[-1].name == "turns"
    with entryschema.using(added):
        assert schema_errors({**GOOD, "turns": 0}) == [("turns", "0 is less than the minimum of 1")]


def _field_names(node: ast.AST) -> list[str]:
    names = set(builtin().names)
    return [
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and n.value in names
    ]


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        first = body[0] if isinstance(body, list) and body else None
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
            found.add(id(first.value))
    return found


CORE_FIELDS_READ = {
    # code that reads some of the four fields every entry has, each for its meaning
    ("ledger/filecheck.py", ("pr-link", "config-keys", "scenario-type", "description")): "the "
    "fields `log` formats on lines of their own; every other field follows as written",
    ("ledger/entry.py", ("scenario-type", "description")): "the words a duplicate "
    "entry must contain",
    ("ledger/entry.py", ("config-keys", "scenario-type")): "the lists whose items name a "
    "key or a type, where one listed twice is a slip",
    ("ledger/pairing.py", ("pr-link", "config-keys")): "what names an old entry when its "
    "other bytes were edited: its numbered link, or its keys",
    ("authoring/drafts.py", ("config-keys", "description")): "the answers `add` asks for "
    "by name, in the TUI and as flags, when an entry lacks them (its link has a placeholder)",
}

FLAG_MEANINGS = {
    # a flag named in code because the gate checks what it means to the benchmark CI
    ("gate/appendonly.py", "append-only"): "the benchmark CI's scope rules for append-only entries",
}


def test_no_list_of_entry_fields_or_flags_is_spelled_outside_the_schema() -> None:
    """``grep`` as a test: no flag or integer field is named in the package's code,
    and no collection there lists entry fields (the four fields every entry has are
    named where they are read)."""
    flags = {f.name for f in builtin().fields if f.kind in (FLAG, INTEGER)}
    found = []
    for path in sorted((ROOT / "changelog_tool").rglob("*.py")):
        relative = path.relative_to(ROOT / "changelog_tool").as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and id(node) not in docs
                and node.value in flags
                and (relative, node.value) not in FLAG_MEANINGS
            ):
                found.append(f"{relative}:{node.lineno}: {node.value!r}")
            names = (
                tuple(_field_names(node))
                if isinstance(node, ast.Tuple | ast.List | ast.Set)
                else ()
            )
            if len(names) > 1 and (relative, names) not in CORE_FIELDS_READ:
                found.append(f"{relative}:{node.lineno}: {names}")
    assert found == []


def test_a_rule_of_the_repository_schema_is_worded_by_its_description() -> None:
    rule = {
        "properties": {"multi-turn": {"type": "boolean"}},
        "if": {"required": ["multi-turn"]},
        "then": {
            "description": "multi-turn cannot be combined with append-only",
            "not": {"required": ["append-only"]},
        },
    }
    with entryschema.using(parse(json.dumps(rule).encode(), "x.json")):
        both = {**GOOD, "multi-turn": True, "append-only": True}
        assert schema_errors(both) == [
            ("(entry)", "multi-turn cannot be combined with append-only")
        ]
        assert schema_errors({**GOOD, "multi-turn": True}) == []


def test_a_schema_file_written_as_a_whole_schema_is_read_as_one() -> None:
    """``$schema``, ``$id`` and ``additionalProperties: false`` (as the built-in file
    writes them) say nothing the combination does not."""
    text = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.invalid/entry.json",
        "type": "object",
        "additionalProperties": False,
        "properties": {"multi-turn": {"type": "boolean"}},
    }
    with entryschema.using(parse(json.dumps(text).encode(), "x.json")):
        assert schema_errors({**GOOD, "multi-turn": True}) == []
        assert schema_errors({**GOOD, "multi-turn": 1}) == [
            ("multi-turn", "1 is not of type 'boolean'")
        ]


REFUSED = "repo.schema.json (the `entry-schema` setting): "
OUTSIDE = (
    "leads outside the file; a reference may name a schema of this file (#/$defs/<name>) "
    "or of the built-in one: no other file or address is read"
)


def refusal(document: object) -> str:
    with pytest.raises(UsageError) as caught:
        parse(json.dumps(document).encode(), "repo.schema.json")
    return str(caught.value)


def tightening(keyword: str, target: str) -> dict[str, object]:
    """A field of text, which a rule elsewhere in the file refers to ``target``
    for (a schema of integers, where it is read)."""
    return {
        "properties": {"turns": {"type": "string"}},
        "allOf": [{"properties": {"turns": {keyword: target}}}],
    }


@pytest.mark.parametrize("keyword", ["$ref", "$dynamicRef", "$recursiveRef"])
@pytest.mark.parametrize("where", ["http", "file", "sibling"])
def test_no_reference_reads_a_file_or_the_network(tmp_path: Path, keyword: str, where: str) -> None:
    """Every keyword that can refer is resolved through the registry, which holds
    the built-in schema and the file and retrieves nothing else."""
    outside = tmp_path / "schema.json"
    outside.write_text('{"type": "integer"}', encoding="utf-8")
    with listening() as server:
        target = {"http": server.url, "file": outside.as_uri(), "sibling": "schema.json"}[where]
        said = refusal(tightening(keyword, target))
        assert said == f"{REFUSED}{keyword} {target!r} {OUTSIDE}"
        assert server.requests == []


def test_a_subschema_cannot_move_the_base_of_its_references_elsewhere() -> None:
    """A nested $id would make ``schema.json`` mean the server's (and could take
    the built-in schema's address): refused, nothing fetched."""
    with listening() as server:
        nested = {"$id": server.url, "properties": {"turns": {"$dynamicRef": "schema.json"}}}
        said = refusal({"properties": {"turns": {"type": "string"}}, "allOf": [nested]})
        assert said.startswith(f"{REFUSED}a subschema declares its own $id ({server.url!r})")
        assert server.requests == []


def doubling(levels: int) -> dict[str, object]:
    """Each definition refers twice to the one before: ``levels`` lines of text that
    stand for 2**levels copies of the first."""
    defs: dict[str, object] = {"d0": {"type": "string", "minLength": 1}}
    for n in range(1, levels + 1):
        defs[f"d{n}"] = {"allOf": [{"$ref": f"#/$defs/d{n - 1}"}, {"$ref": f"#/$defs/d{n - 1}"}]}
    return {
        "$defs": defs,
        "properties": {"note": {"type": "string"}},
        "allOf": [{"properties": {"note": {"$ref": f"#/$defs/d{levels}"}}}],
    }


def chain(links: int) -> dict[str, object]:
    defs: dict[str, object] = {f"d{n}": {"$ref": f"#/$defs/d{n + 1}"} for n in range(links)}
    defs[f"d{links}"] = {"type": "string"}
    return {"$defs": defs, "properties": {"note": {"$ref": "#/$defs/d0"}}}


@pytest.mark.parametrize(
    ("document", "says"),
    [
        (doubling(12), "its references, followed, make more than 500 subschemas"),
        (chain(150), "its schemas, references followed, nest deeper than 100 levels"),
        (
            {"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}},
            "its references lead back to themselves in a loop",
        ),
        ({"properties": {"note": {"$ref": "#"}}}, "lead back to themselves in a loop"),
        (tightening("$ref", "#/$defs/count"), "'#/$defs/count' names nothing in the file"),
        (tightening("$dynamicRef", "#count"), "'#count' names nothing in the file"),
    ],
)
def test_a_schema_that_grows_or_loops_once_followed_is_refused(
    document: dict[str, object], says: str
) -> None:
    said = refusal(document)
    assert said.startswith(REFUSED) and says in said


def test_a_schema_nested_past_the_limit_is_refused_not_a_crash() -> None:
    deep = "{" + '"not": {' * 500 + "}" * 500 + "}"
    with pytest.raises(UsageError, match="nested deeper than 100 levels"):
        parse(deep.encode(), "repo.schema.json")


def test_references_resolve_within_the_file_and_into_the_built_in_schema() -> None:
    """What the registry holds is followed: the file's $defs (with words of its own
    beside a $ref), its dynamic anchors, and the built-in schema's definitions."""
    uri = schema_document()["$id"]
    document = {
        "$defs": {
            "count": {"type": "integer", "minimum": 1},
            "positive": {"$dynamicAnchor": "positive", "maximum": 9},
        },
        "properties": {
            "turns": {"$ref": "#/$defs/count", "description": "turns per conversation"},
            "owner": {"$ref": f"{uri}#/$defs/config-key"},
        },
        "allOf": [{"properties": {"turns": {"$dynamicRef": "#positive"}}}],
    }
    added = parse(json.dumps(document).encode(), "x.json")
    turns, owner = added.fields[-2:]
    assert (turns.name, turns.kind, turns.minimum) == ("turns", INTEGER, 1)
    assert turns.description == "turns per conversation"
    assert (owner.name, owner.kind) == ("owner", TEXT)
    with entryschema.using(added):
        assert schema_errors({**GOOD, "turns": 3, "owner": "a-vllm"}) == []
        assert schema_errors({**GOOD, "turns": 0}) == [("turns", "0 is less than the minimum of 1")]
        assert schema_errors({**GOOD, "turns": 10}) == [
            ("turns", "10 is greater than the maximum of 9")
        ]
        [(path, _)] = schema_errors({**GOOD, "owner": "a b"})
        assert path == "owner"
