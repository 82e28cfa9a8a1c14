"""A config put back exactly as the newest entry covering it had it benchmarked (a
revert of a change no entry benchmarked) needs no entry: a notice naming that
entry, not uncovered-key. Real history."""

from __future__ import annotations

import json

from conftest import GitRepo, run_within_cpu
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, run

from changelog_tool.gitrepo import Repo

V2 = NVIDIA_TEXT.replace(key_block("a-vllm"), key_block("a-vllm", image="vllm/vllm-openai:v2"))
V3 = NVIDIA_TEXT.replace(key_block("a-vllm"), key_block("a-vllm", image="vllm/vllm-openai:v3"))
LINK = "https://github.com/acme/bench/pull/3"


def history_with_an_unbenchmarked_change(repo: GitRepo) -> None:
    """main: a-vllm at v1 with its entry, then bumped to v2 with none; checked out:
    branch feature from there."""
    assert V2 != NVIDIA_TEXT != V3
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY})
    repo.commit("a, benchmarked", **{LOG: HISTORY + "\n" + entry("a-vllm", "Tune a", LINK)})
    repo.commit("a to v2, no entry", **{NVIDIA: V2})
    repo.git("checkout", "-q", "-b", "feature")


def verify(repo: GitRepo) -> tuple[int, list[dict]]:
    done = run(repo, "verify", "--base", "main", "--format", "json")
    return done.returncode, json.loads(done.stdout)["findings"]


def test_a_revert_to_the_benchmarked_state_is_a_notice(repo: GitRepo) -> None:
    history_with_an_unbenchmarked_change(repo)
    repo.commit("revert a", **{NVIDIA: NVIDIA_TEXT})
    code, findings = verify(repo)
    assert code == 0, findings
    assert [(f["code"], f["severity"]) for f in findings] == [("restored", "notice")]
    assert "line 13 of the base" in findings[0]["message"] and "pull/3" in findings[0]["message"]


def test_another_state_still_needs_an_entry(repo: GitRepo) -> None:
    history_with_an_unbenchmarked_change(repo)
    repo.commit("a to v3", **{NVIDIA: V3})
    code, findings = verify(repo)
    assert code == 1 and [f["code"] for f in findings] == ["uncovered-key"]


def test_the_origin_of_an_entry_is_looked_up_within_a_bounded_history(repo: GitRepo) -> None:
    """Past the last ``depth`` commits that changed the changelog git cannot tell: no
    notice is made on a guess."""
    history_with_an_unbenchmarked_change(repo)
    for n in range(3):
        repo.commit(f"entry {n}", **{LOG: HISTORY + "\n" + entry("b-vllm", f"Run {n}", LINK)})
    with Repo.open(repo.root) as git:
        written = git.line_origin("HEAD", LOG, 1)
        assert written is not None and written == repo.git("rev-list", "--max-parents=0", "HEAD")
        assert git.line_origin("HEAD", LOG, 1, depth=2) is None
        assert git.line_origin("HEAD", LOG, 16, depth=2) == repo.git("rev-parse", "HEAD")


def test_many_uncovered_keys_over_a_long_history_read_it_once(repo: GitRepo) -> None:
    """Each key's lookup walks the same entries from the end: they are parsed once for
    all the keys, so 40 uncovered keys over 6,000 entries stay within the hostile-input
    CPU bound (parsed once per key, they took minutes)."""
    keys = [f"zz-key-{n}" for n in range(40)]
    history = "\n".join(entry(f"old-{n}", "Old", LINK) for n in range(6000))
    masters = "".join(f"{key}:\n  image: v1\n" for key in keys)
    repo.commit("base", **{NVIDIA: masters, LOG: history})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("bump every key", **{NVIDIA: masters.replace("v1", "v2")})
    done = run_within_cpu(repo.root, "verify", "--base", "main")
    assert done.returncode == 1 and done.stdout.count(b"uncovered-key") == 40


def test_history_lines_that_are_not_entries_are_passed_over_once(repo: GitRepo) -> None:
    """A history of 20,000 blocks that are not mappings (``- a``) and 6,000 uncovered
    keys: the walk from the end keeps only the entries, so each key's lookup does not
    pass those blocks again (it did: minutes of CPU)."""
    keys = [f"zz-key-{n}" for n in range(6000)]
    masters = "".join(f"{key}:\n  image: v1\n" for key in keys)
    repo.commit("base", **{NVIDIA: masters, LOG: "- a\n" * 20_000})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("bump every key", **{NVIDIA: masters.replace("v1", "v2")})
    done = run_within_cpu(repo.root, "verify", "--base", "main")
    assert done.returncode == 1 and done.stdout.count(b"uncovered-key") == 6000
