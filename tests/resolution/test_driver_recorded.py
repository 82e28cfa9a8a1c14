"""Real rebases, merges, pulls and cherry-picks on the cases real branches hit: the
branch's own entry left between main's entries by an earlier hand merge, a blank
line changed in history (both merged: main's bytes, then the branch's own
entries), and main's own placeholder entry edited by the branch (refused, whether
``origin/main`` is fresh, stale or absent: git's record says the entry is main's)."""

from __future__ import annotations

from collections.abc import Callable
from subprocess import CompletedProcess

import pytest
from conftest import GitRepo
from merge_helpers import appended, changelog, changelog_tool, entry
from test_driver_git import BASE, LOG, OLD, OWN, git

from changelog_tool.merge.conflict import resolved_to

MAIN_NEW = [entry(f"main-key-{n}", link=3000 + n) for n in range(1, 3)]
DRAFT = entry("main-draft-key", "Published by main with a placeholder")  # pr-link: XXX
FILLED = DRAFT.replace(
    b"pr-link: XXX", b"pr-link: https://github.com/SemiAnalysisAI/InferenceX/pull/999"
)


def start(repo: GitRepo, data: bytes = BASE) -> None:
    """main with the changelog ``data``, the driver installed, and the protected ref
    set to ``origin/main`` alone (so "absent" means no protected ref at all)."""
    repo.commit("base", **{LOG: data, ".perf-changelog.toml": 'protected-ref = ["origin/main"]\n'})
    assert changelog_tool(repo.root, "install").returncode == 0
    repo.commit("mark the changelog for the merge driver")


Operation = Callable[[GitRepo], CompletedProcess[str]]


def rebase(repo: GitRepo) -> CompletedProcess[str]:
    repo.git("checkout", "-q", "feature")
    return git(repo, "rebase", "main")


def merge_main(repo: GitRepo) -> CompletedProcess[str]:
    repo.git("checkout", "-q", "feature")
    return git(repo, "merge", "-q", "--no-edit", "main")


def pull_rebase(repo: GitRepo) -> CompletedProcess[str]:
    repo.git("checkout", "-q", "feature")
    return git(repo, "pull", "-q", "--rebase", ".", "main")


def cherry_pick(repo: GitRepo) -> CompletedProcess[str]:
    commits = repo.git("rev-list", "--reverse", "main..feature").split()
    repo.git("checkout", "-q", "main")
    return git(repo, "cherry-pick", *commits)


OPERATIONS: dict[str, Operation] = {
    "rebase": rebase,
    "merge": merge_main,
    "pull --rebase": pull_rebase,
    "cherry-pick": cherry_pick,
}


def told(result: CompletedProcess[str]) -> str:
    return result.stderr


# --- the branch's own entry where an earlier hand merge left it ---------------------
def test_merging_main_again_re_appends_the_entry_a_hand_merge_left_between_mains(
    repo: GitRepo,
) -> None:
    start(repo)
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("own entry", **{LOG: appended(BASE, OWN[0])})
    repo.git("checkout", "-q", "main")
    repo.commit("main 1", **{LOG: appended(BASE, MAIN_NEW[0])})
    repo.git("checkout", "-q", "feature")
    # the earlier hand merge: the branch's entry stays where it was, main's after it
    repo.git("merge", "-q", "--no-commit", "-s", "ours", "main")
    repo.commit("Merge main by hand", **{LOG: appended(BASE, OWN[0], MAIN_NEW[0])})
    repo.git("checkout", "-q", "main")
    main = appended(BASE, *MAIN_NEW)
    repo.commit("main 2", **{LOG: main})
    result = merge_main(repo)
    assert result.returncode == 0, result.stderr
    assert repo.read(LOG) == appended(main, OWN[0])
    assert "re-appended 1 entry of this branch that stood before main's newer entries" in told(
        result
    )


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_an_entry_the_branch_inserted_mid_history_is_appended_after_mains(
    repo: GitRepo, operation: str
) -> None:
    start(repo)
    repo.git("checkout", "-q", "-b", "feature")
    inserted = changelog(*OLD[:2], OWN[0], *OLD[2:])
    repo.commit("own entry, before the last two", **{LOG: inserted})
    repo.git("checkout", "-q", "main")
    main = appended(BASE, *MAIN_NEW)
    repo.commit("main", **{LOG: main})
    result = OPERATIONS[operation](repo)
    assert result.returncode == 0, result.stderr
    assert repo.read(LOG) == appended(main, OWN[0])
    assert "re-appended 1 entry of this branch" in told(result)


@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_a_blank_line_changed_in_history_is_not_an_edit(repo: GitRepo, operation: str) -> None:
    start(repo)
    repo.git("checkout", "-q", "-b", "feature")
    reshaped = appended(BASE.replace(OLD[1], b"\n" + OLD[1], 1), OWN[0])
    repo.commit("own entry, and one more blank line in history", **{LOG: reshaped})
    repo.git("checkout", "-q", "main")
    main = appended(BASE, *MAIN_NEW)
    repo.commit("main", **{LOG: main})
    result = OPERATIONS[operation](repo)
    assert result.returncode == 0, result.stderr
    assert repo.read(LOG) == appended(main, OWN[0])


# --- main's own placeholder entry, edited by the branch ----------------------------
@pytest.mark.parametrize("ref", ["fresh", "stale", "absent"])
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_a_branch_that_edits_mains_own_placeholder_entry_is_refused(
    repo: GitRepo, operation: str, ref: str
) -> None:
    start(repo)
    before = repo.git("rev-parse", "HEAD")  # main before it published the entry
    repo.commit("main publishes an entry with a placeholder", **{LOG: appended(BASE, DRAFT)})
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("fill in main's pr-link", **{LOG: appended(BASE, FILLED)})
    repo.commit("own entry", **{LOG: appended(BASE, FILLED, OWN[0])})
    repo.git("checkout", "-q", "main")
    # main moves but still ends with its entry: it drops the old duplicate
    main = appended(changelog(*OLD[:3]), DRAFT)
    repo.commit("Remove duplicate qwen3.5-fp8-mi355x-atom entry", **{LOG: main})
    if ref != "absent":
        target = "main" if ref == "fresh" else before
        repo.git("update-ref", "refs/remotes/origin/main", repo.git("rev-parse", target))
    result = OPERATIONS[operation](repo)
    assert result.returncode != 0, result.stderr
    assert "history-modified" in told(result)
    assert LOG in git(repo, "diff", "--name-only", "--diff-filter=U").stdout
    protected = "theirs" if operation == "merge" else "ours"
    assert resolved_to(repo.read(LOG), protected).startswith(main)  # main's entry intact
