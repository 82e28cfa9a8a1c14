"""The master-config loader builds values in the limits' own pass over libyaml's
events; whatever it builds must be what ruamel.yaml's safe loader builds, and what it
does not build it leaves to that loader (so errors are ruamel's own)."""

from __future__ import annotations

import math
import subprocess
from pathlib import Path
from typing import Any

import pytest
from conftest import CORPUS
from hypothesis import example, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import YAMLError

from changelog_tool.diff import masterparse
from changelog_tool.diff.masters import MasterFile
from changelog_tool.yaml import safeload
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.safeload import load

# Plain scalars of every tag the 1.2 resolver knows, and near misses of each.
SCALARS = [
    "8", "0", "-3", "+7", "012", "0o17", "0x1f", "0b101", "1_000", "0x_f", "1.5", ".5",
    "1e3", "1.5e3", "-.inf", ".NaN", ".nan", "true", "False", "TRUE", "yes", "no", "on",
    "null", "Null", "~", "", "2025-01-01", "2025-13-01", "2025-02-30", "2025-1-1 1:02:03",
    "2025-01-01T10:00:00Z", "1:20", "<<", "=", "image", "v0.5.6-rocm", "dsr1-fp8", "*",
    "nan", "0.", "1__2", "+.5", "-", "- x", "'q'", '"d"', "!!str 1", "!!int 1", "! x",
    "&a 1", "*a", "!custom x", "[1, 2]", "{a: 1}", "|\n  block", ">\n  folded",
]  # fmt: skip


def _scalar() -> st.SearchStrategy[str]:
    return st.sampled_from(SCALARS) | st.text("0123456789.-_:+eEoxbTtfFnN~<=", max_size=8)


def _node(depth: int) -> st.SearchStrategy[str]:
    """A block node's text at ``depth`` (indent), as it follows ``key:``."""
    if depth >= 3:
        return _scalar().map(lambda s: " " + s)
    pad = "  " * (depth + 1)
    key = st.sampled_from(["a", "b", "1", "1.0", "true", "~", "<<", "k"]) | _scalar()
    mapping = st.lists(st.tuples(key, _node(depth + 1)), min_size=1, max_size=3).map(
        lambda pairs: "".join(f"\n{pad}{k}:{v}" for k, v in pairs)
    )
    sequence = st.lists(_node(depth + 1), min_size=1, max_size=3).map(
        lambda items: "".join(f"\n{pad}-{v}" for v in items)
    )
    return _scalar().map(lambda s: " " + s) | mapping | sequence


DOCUMENTS = st.tuples(
    st.sampled_from(["", "---\n", "%YAML 1.1\n---\n", "%YAML 1.2\n---\n", "--- &top\n"]),
    st.lists(st.tuples(st.sampled_from(["a", "b", "cfg", "a"]), _node(0)), max_size=4),
    st.sampled_from(["", "...\n", "---\nsecond: 1\n", "x: &y 1\nz: *y\n"]),
).map(lambda d: (d[0] + "".join(f"{k}:{v}\n" for k, v in d[1]) + d[2]).encode())


def _ruamel(data: bytes) -> tuple[str, Any]:
    try:
        return "value", YAML(typ="safe", pure=False).load(data)
    except (YAMLError, ValueError) as exc:
        return "error", type(exc).__name__


def _ours(data: bytes) -> tuple[str, Any]:
    try:
        return "value", load(data)
    except (YAMLError, ValueError, YamlProblem) as exc:
        return "error", type(exc).__name__


def _same(a: Any, b: Any) -> bool:
    """Equal values of equal types, a NaN equal to a NaN."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    return bool(a == b)


@settings(max_examples=600, deadline=None)
@given(DOCUMENTS)
@example(b"a: 2025-13-01\n")
@example(b"a: 1\n1.0: 2\n")
@example(b"true: 1\n1: 2\n")
@example(b".nan: 1\n.nan: 2\n")
@example(b"a: [.nan, .nan]\n")
@example(b"? [1]\n: 2\n")
@example(b"a: &x 1\nb: *x\n")
@example(b"<<: {a: 1}\nb: 2\n")
@example(b"a: =\n")
@example(b"%YAML 1.1\n---\na: 012\nb: yes\n")
@example(b"a: 1\n---\nb: 2\n")
@example(b"")
@example(b"--- 5\n")
@example(b"a: !!str 1\n")
@example(b"a: [1, {b: ~}, '3']\n")
def test_every_document_reads_as_ruamels_safe_loader_reads_it(data: bytes) -> None:
    """Both build the same value, or both refuse (not always for the same reason: a
    document with a bad date and a second document is refused for the one the pass
    meets first)."""
    ours, theirs = _ours(data), _ruamel(data)
    assert ours[0] == theirs[0], (data, ours, theirs)
    if ours[0] == "value":
        assert _same(ours[1], theirs[1]), (data, ours, theirs)


@pytest.mark.parametrize(
    "data",
    [
        b"k:\n  image: v1\n  tp: [1, 2, 8]\n  ratio: 0.5\n  on: true\n  none: ~\n",
        b"k:\n  when: 2025-01-01\n  'quoted': \"x\"\n  list:\n    - a: 1\n",
        b"--- \nk: [1, 2]\n...\n",
    ],
)
def test_ordinary_master_configs_are_built_in_the_limits_pass(data: bytes) -> None:
    """Anchors, tags and directives go to ruamel's loader; documents without them must
    not, or the pass would read every document twice."""
    assert safeload.build(data) is not safeload._DEFER
    assert _same(load(data), YAML(typ="safe", pure=False).load(data))


@pytest.mark.parametrize("data", [b"a: &x 1\nb: *x\n", b"a: !!str 1\n", b"%YAML 1.1\n---\na: 1\n"])
def test_what_the_pass_does_not_build_goes_to_ruamels_loader(data: bytes) -> None:
    assert safeload.build(data) is safeload._DEFER


@pytest.mark.parametrize(
    "data",
    [
        b"a: 1\na: 2\n",
        b"k:\n  x: {b: [1, {c: 1, c: 2}], b: 1}\n  y: {1: a, true: b}\n",  # the upper level first
        b"k: [[{1: {true: b, 1: ~}, 1: []}], {a: {}, a: ~}]\n",  # a replaced value's mapping
    ],
)
def test_a_repeated_key_is_the_one_the_loader_reports_without_the_loader(
    data: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The pass names the key and line ruamel's loader names, for the mapping that loader
    reports (it fills mappings level by level): a 1 MB flow mapping of one repeated key was
    left to it and took 10 s."""
    with pytest.raises(DuplicateKeyError) as ours:
        safeload.build(data)
    with pytest.raises(DuplicateKeyError) as theirs:
        YAML(typ="safe", pure=False).load(data)
    for exc in (ours.value, theirs.value):
        assert exc.problem_mark is not None and exc.context_mark is not None
    assert ours.value.problem_mark.index == theirs.value.problem_mark.index
    assert ours.value.context_mark.index == theirs.value.context_mark.index
    with pytest.raises(YamlProblem) as shown:
        masterparse.parse.__wrapped__(data)
    monkeypatch.setattr(safeload, "build", lambda data: safeload._DEFER)
    with pytest.raises(YamlProblem) as by_the_loader:
        masterparse.parse.__wrapped__(data)
    assert shown.value.code == by_the_loader.value.code == "duplicate-yaml-key"
    assert (shown.value.message, shown.value.line) == (
        by_the_loader.value.message,
        by_the_loader.value.line,
    )


def test_a_date_that_is_no_date_names_its_line_instead_of_crashing() -> None:
    data = b"k:\n  image: v1\n  when: 2025-13-01\n"
    file = MasterFile("m.yaml", data)
    with pytest.raises(Exception) as caught:
        file.value("k")
    assert caught.value.line == 3  # type: ignore[attr-defined]
    assert "2025-13-01" in str(caught.value)
    assert "quote it" in str(caught.value)


def test_a_date_that_is_no_date_behind_an_anchor_is_a_problem_not_a_crash() -> None:
    data = b"k:\n  image: &i v1\n  again: *i\n  when: 2025-13-01\n"
    file = MasterFile("m.yaml", data)
    assert file.whole
    file.key_names()
    (problem,) = file.problems
    assert "month must be in 1..12" in problem.message


BUNDLE = CORPUS / "inferencex-data.bundle"


def test_every_master_config_and_recipe_of_the_corpus_reads_as_ruamel_reads_it(
    tmp_path: Path,
) -> None:
    """Every top-level key of every version of every YAML file in the corpus history
    (a file with anchors, or of one key, whole)."""
    if not BUNDLE.is_file():
        pytest.skip("../shared/corpus is absent")
    clone = tmp_path / "ix"
    subprocess.run(["git", "clone", "-q", str(BUNDLE), str(clone)], check=True)
    blobs = subprocess.run(
        ["git", "rev-list", "--objects", "--all"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split("\n")
    wanted = sorted(
        {
            line.split(" ", 1)[0]
            for line in blobs
            if line.endswith((".yaml", ".yml")) and not line.endswith("perf-changelog.yaml")
        }
    )
    batch = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=clone,
        input="".join(f"{sha}\n" for sha in wanted).encode(),
        capture_output=True,
        check=True,
    ).stdout
    pos, documents = 0, set()
    for _ in wanted:  # each key's bytes once: most recur unchanged across versions
        end = batch.index(b"\n", pos)
        size = int(batch[pos:end].rsplit(b" ", 1)[1])
        data = batch[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
        file = MasterFile("m.yaml", data)
        if file.whole or len(file.spans) <= 1:
            documents.add(data)
        else:
            documents.update(file.chunk(key) for key in file.spans)
    for document in documents:
        ours, theirs = _ours(document), _ruamel(document)
        assert ours[0] == theirs[0], document[:200]
        assert ours[0] == "error" or _same(ours[1], theirs[1]), document[:200]
    assert len(documents) > 1000
