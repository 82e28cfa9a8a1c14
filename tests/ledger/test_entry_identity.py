"""One equality of entries (``entry_identity``, over ``yaml.values.identity``): ``1``,
``1.0`` and ``true`` are different values, as they are in YAML 1.2 and JSON, and a
``.nan`` is the same as a ``.nan``. The gate's duplicates, its pairing of base and
head entries and the merge driver's duplicates all ask it; each is run here as a
user runs it, in a real repository."""

from __future__ import annotations

import json
import math
import os
import subprocess

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, entry
from projects import NVIDIA, NVIDIA_TEXT, run

from changelog_tool.ledger.entry import entry_identity, same_entry
from changelog_tool.yaml.values import identity, same

LOG = "perf-changelog.yaml"
LINK = "https://github.com/SemiAnalysisAI/InferenceX/pull"


def flagged(value: str, link: str = "XXX") -> bytes:
    """An entry for a-vllm with ``evals-only`` written as ``value``."""
    return (
        f'- config-keys:\n    - a-vllm\n  description:\n    - "Evals of a"\n'
        f"  pr-link: {link}\n  evals-only: {value}\n"
    ).encode()


PAIRS = [
    (1, True),
    (1, 1.0),
    (0, False),
    ([1], [True]),
    ({"a": 1}, {"a": True}),
    ({1: "x"}, {True: "x"}),
    (math.nan, math.nan),
    ([math.nan], [float("nan")]),
    ({"a": 1, "b": [2]}, {"b": [2], "a": 1}),
    ("1", 1),
    (None, "null"),
]


@pytest.mark.parametrize(("a", "b"), PAIRS)
def test_the_hashable_identity_says_what_yaml_data_equality_says(a: object, b: object) -> None:
    assert (identity(a) == identity(b)) == same(a, b)


def test_one_and_true_are_different_entries_and_a_nan_is_itself() -> None:
    one = {"config-keys": ["a"], "description": ["d"], "evals-only": 1, "pr-link": "XXX"}
    true = {**one, "evals-only": True, "pr-link": f"{LINK}/5"}
    assert not same_entry(one, true)
    assert entry_identity(one) != entry_identity({**one, "evals-only": 1.0})
    nan = {**one, "eval-min-prefill-ep": math.nan}
    assert same_entry(nan, {**nan, "eval-min-prefill-ep": float("nan"), "pr-link": "XXX"})


def test_the_gate_does_not_take_true_for_a_copy_of_one(repo: GitRepo) -> None:
    """main holds an entry with ``evals-only: 1``; the branch appends the same with
    ``evals-only: true``: no duplicate-entry finding, they ask different things."""
    base = changelog(entry("b-vllm", link=1), flagged("1", f"{LINK}/2"))
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: base})
    repo.git("checkout", "-q", "-b", "feature")
    repo.write(LOG, appended(base, flagged("true")))
    done = run(repo, "verify", "--base", "main", "--format", "json")
    codes = [f["code"] for f in json.loads(done.stdout)["findings"]]
    assert "duplicate-entry" not in codes, done.stdout
    repo.write(LOG, appended(base, flagged("1")))  # the same value: still a copy
    again = run(repo, "verify", "--base", "main", "--format", "json")
    assert "duplicate-entry" in [f["code"] for f in json.loads(again.stdout)["findings"]]


def test_the_gate_takes_one_turned_true_in_an_old_entry_for_an_edit(repo: GitRepo) -> None:
    """Base and head entries are paired by identity: ``1`` -> ``true`` changes what
    the entry says, so it is an edit of history, not a reformatting."""
    base = changelog(entry("b-vllm", link=1), flagged("1", f"{LINK}/2"))
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: base})
    repo.git("checkout", "-q", "-b", "feature")
    repo.write(LOG, base.replace(b"evals-only: 1", b"evals-only: true"))
    done = run(repo, "verify", "--base", "main", "--format", "json")
    errors = [f["code"] for f in json.loads(done.stdout)["findings"] if f["severity"] == "error"]
    assert done.returncode == 1 and "history-modified" in errors, done.stdout


def test_a_rebase_keeps_the_branchs_true_beside_mains_one(repo: GitRepo) -> None:
    """main and the branch each append the entry, ``1`` on main, ``true`` on the
    branch: the driver keeps both, as neither is a copy of the other."""
    base = changelog(entry("b-vllm", link=1))
    repo.commit("base", **{LOG: base})
    assert run(repo, "install").returncode == 0
    repo.commit("mark the changelog for the merge driver")
    repo.git("checkout", "-q", "-b", "feature")
    own = flagged("true")
    repo.commit("branch entry", **{LOG: appended(base, own)})
    repo.git("checkout", "-q", "main")
    mains = appended(base, flagged("1", f"{LINK}/7"))
    repo.commit("main entry", **{LOG: mains})
    repo.git("checkout", "-q", "feature")
    env = {k: v for k, v in os.environ.items() if k != "GIT_REFLOG_ACTION"}
    done = subprocess.run(
        ["git", "rebase", "main"], cwd=repo.root, capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert repo.read(LOG) == appended(mains, own)
