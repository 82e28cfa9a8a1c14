"""Every scan that reads a branch's bytes does work linear in them: each runs on 1 MB
single-line inputs in a child interpreter that is killed after 2 s. (The top-level
key scan's lazy ``[^\\n]*?`` before ``[ \\t]*:`` retried a run of blanks at every byte:
a 200 KB line of spaces took minutes; a base-60 integer of 500,000 parts took 55 s to
build.)"""

from __future__ import annotations

import subprocess
import sys

import pytest
from conftest import cpu_limit

from changelog_tool.yaml.items import YamlProblem

MB = 1 << 20
LINES = {
    "spaces after a key character": b"a" + b" " * MB,
    "tabs after a key character": b"a" + b"\t" * MB,
    "blanks between words": b"a" + b" \t b" * (MB // 4),
    "colons that end no key": b"a" + b":b" * (MB // 2),
    "blanks before colons that end no key": b"a" + b" :b" * (MB // 3),
    "an unclosed double-quoted key": b'"' + b"\\a" * (MB // 2),
    "an unclosed single-quoted key": b"'" + b"''" * (MB // 2),
    "blanks before a last colon": b"a" + b" " * MB + b":",
}


def within_two_seconds(code: str, data: bytes) -> str:
    """Run ``code`` (``data`` is on stdin as ``data``) in a fresh interpreter, under
    the hostile inputs' hard CPU limit (``conftest.cpu_limit``: the kernel ends a
    child past it, and the test fails)."""
    done = subprocess.run(
        [sys.executable, "-I", "-c", "import sys\ndata = sys.stdin.buffer.read()\n" + code],
        input=data,
        capture_output=True,
        timeout=60,
        preexec_fn=cpu_limit(),
        check=True,
    )
    return done.stdout.decode()


@pytest.mark.parametrize("line", LINES.values(), ids=list(LINES))
def test_the_top_level_key_scan_reads_a_1_mb_line_in_one_pass(line: bytes) -> None:
    for data in (line + b"\n", b"k:\n  v: 1\n" + line + b"\nz: 1\n"):
        out = within_two_seconds(
            "from changelog_tool.diff.masters import MasterFile\n"
            "f = MasterFile('m.yaml', data)\n"
            "print(' '.join(sorted(f.spans)))\n",
            data,
        )
        keys = ["a"] if line.endswith(b":") else []
        keys += ["k", "z"] if data.startswith(b"k:") else []
        assert out.split() == sorted(keys)


def test_a_key_with_trailing_blanks_before_its_colon_is_the_key_without_them() -> None:
    from changelog_tool.diff.masters import MasterFile

    data = b"a-key  \t:\n  v: 1\nb: 2\n"
    file = MasterFile("m.yaml", data)
    assert list(file.spans) == ["a-key", "b"] and not file.whole
    assert file.value("a-key") == {"v": 1}


@pytest.mark.parametrize(
    "scalar",
    [
        b"1" + b":0" * (MB // 2),  # a base-60 integer: building it was quadratic
        b"1" + b":0" * (MB // 2) + b".5",
        b"0" * MB,
        b"9" * MB,
        b"1" + b"_" * MB,
        b"2025-01-01" + b" " * MB,
        b"." + b"0" * MB,
    ],
    ids=["base-60 int", "base-60 float", "octal", "decimal", "underscores", "date", "fraction"],
)
def test_a_1_mb_plain_scalar_reads_as_yaml_1_1_in_bounded_time(scalar: bytes) -> None:
    out = within_two_seconds(
        "from changelog_tool.yaml import yaml11\n"
        "from changelog_tool.yaml.items import YamlProblem\n"
        "text = data.decode()\n"
        "try:\n"
        "    print(type(yaml11.plain(text)).__name__)\n"
        "except YamlProblem as exc:\n"
        "    print('unreadable', len(str(exc)))\n",
        scalar,
    )
    kind, *size = out.split()
    assert kind in ("int", "float", "str", "date", "unreadable")
    if size:  # a refusal names the text clipped, not a megabyte of it
        assert int(size[0]) < 300


def test_a_base_60_integer_past_the_limit_is_unreadable_and_one_within_it_is_built() -> None:
    from changelog_tool.yaml import yaml11

    parts = yaml11.MAX_SEXAGESIMAL_PARTS
    assert yaml11.plain("1" + ":0" * (parts - 1)) == 60 ** (parts - 1)
    with pytest.raises(YamlProblem, match=f"{parts + 1} parts"):
        yaml11.plain("1" + ":0" * parts)


def test_recipe_references_in_a_1_mb_value_are_found_in_one_pass() -> None:
    data = b"x=" + b".ymlz" * (MB // 5) + b" y=recipes/a.yaml"
    out = within_two_seconds(
        "from changelog_tool.diff.recipes import references\n"
        "print(references({'k': [data.decode()]}))\n",
        data,
    )
    assert out.strip() == "['recipes/a.yaml']"


@pytest.mark.parametrize(
    ("document", "refused"),
    [
        (b'k: "' + b"\t" * MB + b'"\n', False),  # a search per tab: 49 s for 50,000
        (b"k: 1 #" + b"\t" * MB + b"\n", False),
        (b"k: |\n  " + b"x\t" * (MB // 2) + b"\n", False),
        (b"k: 'a" + b"\t'' " * (MB // 4) + b"'\n", False),
        (b"k: a" + b" \t" * (MB // 2) + b"\n", True),
    ],
    ids=["double-quoted", "comment", "block", "single-quoted", "plain"],
)
def test_the_yaml_1_1_tab_check_of_a_1_mb_line_is_one_pass(document: bytes, refused: bool) -> None:
    out = within_two_seconds(
        "from changelog_tool.yaml import yaml11\n"
        "from changelog_tool.yaml.items import YamlProblem\n"
        "try:\n"
        "    yaml11.load(data)\n"
        "    print('read')\n"
        "except YamlProblem as exc:\n"
        "    print(exc)\n",
        document,
    )
    assert out.startswith("a tab at line 1") if refused else out == "read\n"
