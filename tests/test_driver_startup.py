"""The merge driver starts fast: it loads neither GitPython, nor Textual, nor
jsonschema (measured in a fresh interpreter, inside a real repository)."""

from __future__ import annotations

import subprocess
import sys

from conftest import GitRepo
from test_merge_helpers import appended, changelog, entry

PROBE = """
import sys
from changelog_tool.cli import main
code = main(["merge-driver", "O", "A", "B", "perf-changelog.yaml"])
heavy = sorted({m.split(".")[0] for m in sys.modules} & {"git", "textual", "jsonschema"})
print(code, ",".join(heavy) or "none")
"""


def test_the_merge_driver_loads_no_heavy_module(repo: GitRepo) -> None:
    base = changelog(entry("a"), entry("b"))
    repo.commit("base", **{"perf-changelog.yaml": appended(base, entry("main"))})
    for name, data in (
        ("O", base),
        ("A", appended(base, entry("main"))),
        ("B", appended(base, entry("own"))),
    ):
        repo.write(name, data)
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=repo.root, capture_output=True, text=True, check=False
    )
    assert result.stdout.split() == ["0", "none"], result.stderr
    assert repo.read("A") == appended(base, entry("main"), entry("own"))
