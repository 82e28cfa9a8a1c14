"""The review lints do linear work on a hostile changed file: each mapping's keys are
counted once, each value numbered once, and sibling pairs compared within a budget.
A half-megabyte input (what one review reads) runs in a child process (so a slow lint is stopped, not waited for),
which measures the review alone; it must finish well under 2 seconds. Before, a key
with 12,000 sub-keys took about a minute: key-style recounted every sibling for
every key."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

MEGABYTE = 500_000
"""The size of each input: as much as one review reads (``review.REVIEW_BYTES``), and
2.5 times the issue's 190 KB key of 12,000 sub-keys."""
SLIPS = 100  # one snake_case key every so many kebab-case ones

CHILD = r"""
import json, sys, time
from changelog_tool.lint.review import Changed, MasterKey, review

data = open(sys.argv[2], "rb").read()
if sys.argv[1] == "recipe":
    changed = Changed(recipes={"r.yaml": (data, None)})
else:  # one added master key, its file's votes counted by the byte scan
    from changelog_tool.lint.keystyle import file_votes

    changed = Changed(master_keys=[MasterKey("m.yaml", data, None, 1, lambda: file_votes(data))])
start = time.process_time()  # CPU seconds: the machine may be shared
found = review(changed, lambda p: True, lambda r: None)
seconds = time.process_time() - start
print(json.dumps({"seconds": seconds, "codes": [f.code for f in found]}))
"""


def many_keys() -> bytes:
    """One new key holding ~22,000 sub-keys, one in every SLIPS snake_case."""
    lines, n = [b"k1-vllm:\n  settings:\n"], 0
    size = len(lines[0])
    while size < MEGABYTE:
        name = b"slip_key_%06d" if n % SLIPS == SLIPS - 1 else b"flag-key-%06d"
        line = b"    " + name % n + b": 1\n"
        lines.append(line)
        size += len(line)
        n += 1
    return b"".join(lines)


def many_blocks() -> bytes:
    """~2,500 sibling blocks of 9 fields, 7 of them shared: no two repeat each
    other (7 < 8 shared), so every pair would have to be compared."""
    out, n = b"models:\n", 0
    while len(out) < MEGABYTE:
        fields = [b"    common-%d: same\n" % i for i in range(7)]
        fields += [b"    own-%d: v%d\n" % (i, n) for i in range(2)]
        out += b"  model-%06d:\n" % n + b"".join(fields)
        n += 1
    return out


def long_values() -> bytes:
    """~1,150 mappings each holding the same 200-character value twice."""
    value = b"x" * 200
    out, n = b"", 0
    while len(out) < MEGABYTE:
        out += b"block-%05d:\n  first-copy: %s\n  second-copy: %s\n" % (n, value, value)
        n += 1
    return out


def review_in_child(tmp_path: Path, kind: str, data: bytes) -> tuple[float, list[str]]:
    assert len(data) >= MEGABYTE
    path = tmp_path / "input.yaml"
    path.write_bytes(data)
    done = subprocess.run(
        [sys.executable, "-c", CHILD, kind, str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    return result["seconds"], result["codes"]


@pytest.mark.parametrize("kind", ["recipe", "master"])
def test_a_new_key_with_22000_sub_keys_is_linted_in_linear_time(tmp_path: Path, kind: str) -> None:
    data = many_keys()
    seconds, codes = review_in_child(tmp_path, kind, data)
    assert codes == ["key-style"] * data.count(b"slip_key_")
    assert seconds < 2.0


def test_thousands_of_sibling_blocks_are_compared_within_the_budget(tmp_path: Path) -> None:
    """The comparisons stop at the budget, and one notice says so (an error where the
    settings make repeated-block one: tests/lint/test_review_budget.py)."""
    seconds, codes = review_in_child(tmp_path, "recipe", many_blocks())
    assert codes == ["review-skipped"]
    assert seconds < 2.0


def test_thousands_of_copies_of_a_long_value_are_one_notice(tmp_path: Path) -> None:
    seconds, codes = review_in_child(tmp_path, "recipe", long_values())
    assert codes == ["repeated-block"]
    assert seconds < 2.0
