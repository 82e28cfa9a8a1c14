"""The gate's comparisons among the branch's own entries stay linear: a branch that
creates a changelog of 3,000 entries is judged within the hostile-input CPU bound
(compared pairwise, it took 38 s)."""

from __future__ import annotations

from conftest import GitRepo, run_within_cpu
from projects import LOG, NVIDIA, entry


def test_a_new_changelog_of_3000_entries_is_judged_within_the_bound(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: "a-vllm:\n  image: v1\n"})
    repo.git("checkout", "-q", "-b", "feature")
    entries = "\n".join(entry("a-vllm", f"Run {n}") for n in range(3000))
    repo.commit("a changelog", **{LOG: entries})
    done = run_within_cpu(repo.root, "verify", "--base", "main")
    assert done.returncode == 0, done.stdout[-2000:]
    assert done.stdout.count(b"duplicate-entry") == 2999  # each names the first entry
