"""Bounded work on hostile master configs and recipes (pure: bytes in, problems out),
and key names that no changelog entry can name."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from changelog_tool.diff.keydiff import diff, key_name_problem
from changelog_tool.diff.masterparse import reads_as_no_name
from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.diff.recipes import same_data
from changelog_tool.ledger.entry import schema_errors
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.limits import MAX_ALIAS_NODES, MAX_DEPTH, events

HEAD = b"a-vllm:\n  image: v1\n  model: m\n"


def laughs(levels: int, fan: int = 9, indent: str = "", first: str = '"lol"') -> bytes:
    """Billion laughs: each level is a list of ``fan`` aliases to the level before."""
    lines = [f"{indent}a0: &a0 [{first}]"]
    for level in range(1, levels):
        lines.append(f"{indent}a{level}: &a{level} [" + ", ".join([f"*a{level - 1}"] * fan) + "]")
    return ("\n".join(lines) + "\n").encode()


def problem_of(data: bytes, key: str) -> YamlProblem:
    """The problem of a key parsed on its own (a file without anchors or aliases)."""
    file = MasterFile("m.yaml", data)
    assert not file.whole
    with pytest.raises(YamlProblem) as caught:
        file.value(key)
    return caught.value


def file_problems(data: bytes) -> list[YamlProblem]:
    """The problems of a file parsed whole (it has anchors or aliases)."""
    file = MasterFile("m.yaml", data)
    assert file.whole
    file.key_names()
    return file.problems


def test_an_alias_bomb_is_a_yaml_alias_problem_at_the_line_where_it_crosses_the_limit() -> None:
    # 437 bytes standing for 9**9 nodes; each level adds 9x the nodes of the one before,
    # so the limit is crossed on the line of the first level that adds over 100,000.
    data = HEAD + b"bomb:\n" + laughs(10, indent="  ")
    (found,) = file_problems(data)
    assert found.code == "yaml-alias"
    added, size, crossing = 0, 2, None
    for level in range(1, 10):
        added += 9 * (size - 1)
        size = 1 + 9 * size
        if added > MAX_ALIAS_NODES:
            crossing = level
            break
    lines = data.decode().split("\n")
    assert found.line == next(n for n, s in enumerate(lines, 1) if s.startswith(f"  a{crossing}:"))
    assert f"*a{crossing - 1}" in found.message and "100,000" in found.message


def test_a_bomb_makes_its_file_unknown_and_is_reported_once_with_its_line() -> None:
    data = HEAD + laughs(9)
    file = MasterFile("m.yaml", data)
    assert file.key_names() == ["a-vllm", *(f"a{i}" for i in range(9))]  # from the byte scan
    assert file.broken
    assert [(p.code, p.line) for p in file.problems] == [("yaml-alias", 9)]


def test_aliases_that_repeat_a_little_still_resolve() -> None:
    block = b"".join(b"  - {tp: %d, conc-list: [1, 2, 4, 8]}\n" % i for i in range(40))
    data = b"base: &space\n" + block + b"".join(b"k%d:\n  space: *space\n" % i for i in range(200))
    file = MasterFile("m.yaml", data)
    assert file.value("k199")["space"][39] == {"tp": 39, "conc-list": [1, 2, 4, 8]}
    assert not file.problems  # 200 aliases adding 200 * 360 = 72,000 nodes: under the limit


def test_a_large_file_is_never_refused_for_its_size_only_for_what_aliases_add() -> None:
    # a list of MAX_ALIAS_NODES + 1 nodes: an alias to it adds MAX_ALIAS_NODES
    written = b"k: &x [" + b"a, " * (MAX_ALIAS_NODES - 1) + b"a]\n"
    list(events(written + b"other: *x\n"))  # more nodes written out than aliases may add: fine
    with pytest.raises(YamlProblem) as caught:
        list(events(written + b"other: [*x, b]\nmore: *x\n"))
    assert (caught.value.code, caught.value.line) == ("yaml-alias", 3)


def test_nesting_past_the_depth_limit_is_a_problem_at_its_line() -> None:
    data = HEAD + b"deep:\n  x: 1\n  y: " + b"[" * 1000 + b"]" * 1000 + b"\n"
    found = problem_of(data, "deep")
    assert (found.code, found.line) == ("yaml-syntax", 6)
    assert f"deeper than {MAX_DEPTH} levels" in found.message
    assert MasterFile("m.yaml", data).value("a-vllm") == {"image": "v1", "model": "m"}


def test_nesting_just_within_the_limit_reads() -> None:
    depth = MAX_DEPTH - 2  # the file's mapping and the key's mapping are two levels
    data = b"k:\n  y: " + b"[" * depth + b"]" * depth + b"\n"
    value = MasterFile("m.yaml", data).value("k")["y"]
    for _ in range(depth - 1):
        (value,) = value
    assert value == []


def test_an_alias_counts_at_the_depth_where_it_is_used() -> None:
    half = MAX_DEPTH // 2 + 5
    data = (
        b"a: &deep " + b"[" * half + b"]" * half + b"\n"
        b"b: " + b"[" * half + b"*deep" + b"]" * half + b"\n"
    )
    (found,) = file_problems(data)
    assert (found.code, found.line) == ("yaml-syntax", 2)


@pytest.mark.parametrize("mark", ["\u2028", "\r"])
def test_problem_lines_count_lf_only_as_the_byte_scan_does(mark: str) -> None:
    # libyaml also breaks lines at U+2028 and a lone CR (so such a file is parsed
    # whole): its line would be one too far
    data = HEAD + f'b:\n  note: "one{mark}two"\n  bad: {{a: 1, a: 2}}\n  more: 1\n'.encode()
    assert [(p.code, p.line) for p in file_problems(data)] == [("duplicate-yaml-key", 6)]


def test_a_tag_no_safe_reader_knows_is_a_yaml_tag_problem() -> None:
    found = problem_of(HEAD + b"b: !custom\n  a: 1\n", "b")
    assert (found.code, found.line) == ("yaml-tag", 4)


def test_a_hostile_recipe_counts_as_changed_within_seconds() -> None:
    # both versions expand to 9**8 copies and differ only in their last key: comparing
    # them value by value would walk every copy (minutes); refused, they differ at once
    code = (
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).parent)!r})\n"
        "from test_masters_limits import laughs\n"
        "from changelog_tool.diff.recipes import same_data\n"
        "old = laughs(9) + b'z: 1\\n'\n"
        "print(same_data(old, old.replace(b'z: 1', b'z: 2')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=20, check=False
    )
    assert (done.returncode, done.stdout.strip()) == (0, "False"), done.stderr
    assert same_data(b"a: [1]\n", b"a: [1]  # restyled\n")  # honest recipes still compare


@pytest.mark.parametrize(
    ("key", "char"),
    [("k1\u200b", "\u200b"), ("k\u0131", "\u0131"), ("k\u0430", "\u0430"), ("k\u00a0x", "\u00a0")],
)
def test_a_key_the_schema_refuses_names_the_character(key: str, char: str) -> None:
    message = key_name_problem(key)
    assert message is not None
    assert f"U+{ord(char):04X} {unicodedata.name(char)}" in message
    assert f"position {key.index(char) + 1}" in message
    assert schema_errors({"config-keys": [key], "description": ["x"], "pr-link": "XXX"})


def test_keys_the_schema_accepts_have_no_key_name_problem() -> None:
    for key in ("dsr1-fp4-b200-sglang", "gptoss_fp4.h200+mtp", "Qwen3-235B"):
        assert key_name_problem(key) is None
        assert not schema_errors({"config-keys": [key], "description": ["x"], "pr-link": "XXX"})


def test_added_and_modified_keys_with_refused_names_are_key_name_problems() -> None:
    base = HEAD + b"old\xc4\xb1:\n  image: v1\nkept\xc4\xb1:\n  image: v1\n"
    head = base.replace(b"old\xc4\xb1:\n  image: v1", b"old\xc4\xb1:\n  image: v2")
    head += "new\u200b:\n  image: v1\n".encode()
    changes, problems = diff(
        MasterSet([MasterFile("m.yaml", base)]), MasterSet([MasterFile("m.yaml", head)])
    )
    assert {c.key for c in changes} == {"old\u0131", "new\u200b"}
    found = sorted((p.key, p.code, p.line) for _, p in problems)
    assert found == [("new\u200b", "key-name", 8), ("old\u0131", "key-name", 4)]


# --- key lines the byte scan cannot read, and values no constructor builds -------------
@pytest.mark.parametrize(
    ("line", "key"),
    [
        ("!!str x-vllm:", "x-vllm"),
        ("!<tag:yaml.org,2002:str> x-vllm:", "x-vllm"),
        ("-x-vllm:", "-x-vllm"),
        (":x-vllm:", ":x-vllm"),
        ("? x-vllm\n:", "x-vllm"),
    ],
)
def test_a_key_line_the_scan_cannot_read_makes_the_file_parse_whole(line: str, key: str) -> None:
    """Such a line is a key to YAML; split by the scan, its key would vanish (and a
    change to it pass unseen). The file is parsed whole, and the key keeps its line."""
    data = HEAD + f"{line}\n  image: v2\n".encode()
    file = MasterFile("m.yaml", data)
    assert file.whole
    assert set(file.key_names()) == {"a-vllm", key}
    assert file.value(key) == {"image": "v2"}
    assert file.line(key) == 4


def test_sequence_items_at_column_0_under_a_key_keep_the_file_split_by_keys() -> None:
    data = HEAD + b"b-vllm:\n- one\n- two\n"
    file = MasterFile("m.yaml", data)
    assert not file.whole and file.value("b-vllm") == ["one", "two"]


def test_a_byte_order_mark_is_no_part_of_the_first_key() -> None:
    file = MasterFile("m.yaml", b"\xef\xbb\xbf" + HEAD)
    assert not file.whole and file.key_names() == ["a-vllm"] and file.line("a-vllm") == 1
    assert file.value("a-vllm") == {"image": "v1", "model": "m"}


def test_a_quoted_key_with_a_bad_escape_is_a_problem_at_its_line_not_a_crash() -> None:
    for key in (rb'"a\ud800b"', rb'"a\qb"'):
        file = MasterFile("m.yaml", HEAD + key + b":\n  image: x\n")
        assert file.whole
        file.key_names()
        (problem,) = file.problems
        assert problem.code == "yaml-syntax" and problem.line == 4


@pytest.mark.parametrize("value", ['!!bool "abc"', '!!bool ""', '!!int ""', '!!float ""'])
@pytest.mark.parametrize("anchored", [False, True])
def test_a_value_its_tag_cannot_build_is_a_problem_not_a_crash(value: str, anchored: bool) -> None:
    extra = b"c-vllm:\n  image: &i v1\n  again: *i\n" if anchored else b""
    data = HEAD + extra + f"b-vllm:\n  image: v1\n  flag: {value}\n".encode()
    file = MasterFile("m.yaml", data)
    assert file.whole is anchored
    if anchored:
        file.key_names()
        (problem,) = file.problems
    else:
        problem = problem_of(data, "b-vllm")
    assert "tag" in problem.message
    assert not same_data(b"flag: 1\n", f"flag: {value}\n".encode())


@pytest.mark.parametrize(
    ("line", "kind"), [("123", "int"), ("true", "bool"), ("~", "null"), ("2025-01-01", "date")]
)
def test_a_top_level_key_yaml_reads_as_no_name_says_so_at_its_line(line: str, kind: str) -> None:
    data = HEAD + f"{line}:\n  image: v2\n".encode()
    problem = problem_of(data, line)
    assert (problem.code, problem.line) == ("key-name", 4)
    assert f"reads as a YAML {kind}" in problem.message and f'"{line}":' in problem.message


def test_a_second_document_says_to_remove_its_line() -> None:
    (problem,) = file_problems(HEAD + b"---\nb-vllm:\n  image: v2\n")
    assert "a master config is one document: remove that line" in problem.message


def test_a_value_yaml_reads_as_a_tag_no_reader_builds_says_to_quote_it() -> None:
    problem = problem_of(HEAD + b"b-vllm:\n  image: =\n", "b-vllm")
    assert "quote the value to keep it as text" in problem.message


def test_only_a_null_spelling_is_a_key_yaml_reads_as_null() -> None:
    assert (
        reads_as_no_name(None, "~")
        and reads_as_no_name(None, "null")
        and reads_as_no_name(123, "123")
    )
    assert not reads_as_no_name(None, "other-key") and not reads_as_no_name("123", "123")
