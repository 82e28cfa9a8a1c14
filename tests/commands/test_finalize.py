"""`changelog finalize --pr-number N [--onto REF] [--commit]`: the branch's placeholder
pr-links become PR N's link, nothing else changes, and main's CI then accepts the
merged result (real git, the real CLI)."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import HISTORY, LOG, entry, make_project, run

LINK = "https://github.com/acme/bench/pull"


def branch_with_placeholders(repo: GitRepo) -> bytes:
    make_project(repo)
    data = HISTORY + "\n" + entry("a-vllm", "Bump a") + "\n" + entry("b-vllm", "Bump b")
    repo.commit("own entries", **{LOG: data})
    return data.encode()


def test_finalize_rewrites_only_the_placeholder_lines_and_main_ci_accepts_the_merge(
    repo: GitRepo,
) -> None:
    before = branch_with_placeholders(repo)
    done = run(repo, "finalize", "--pr-number", "7", "--commit")
    assert done.returncode == 0, done.stdout + done.stderr
    after = repo.read(LOG)
    assert after == before.replace(b"pr-link: XXX", f"pr-link: {LINK}/7".encode())
    assert after.count(b"pr-link: XXX") == 0 and "2 placeholder pr-link(s)" in done.stdout
    assert repo.git("status", "--porcelain") == ""
    gate = run(repo, "verify", "--base", "main", "--pr-number", "7", "--format", "json")
    assert gate.returncode == 0, gate.stdout
    repo.git("checkout", "-q", "main")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge #7", "feature")
    main_ci = run(repo, "verify", "--base", "HEAD~1", "--head", "HEAD", "--format", "json")
    assert main_ci.returncode == 0, main_ci.stdout  # no placeholder reaches main


def test_finalize_twice_changes_nothing(repo: GitRepo) -> None:
    branch_with_placeholders(repo)
    assert run(repo, "finalize", "--pr-number", "7").returncode == 0
    once = repo.read(LOG)
    again = run(repo, "finalize", "--pr-number", "7", "--format", "json")
    assert again.returncode == 0
    document = json.loads(again.stdout)
    assert document["rewritten"] == [] and document["written"] is False
    assert repo.read(LOG) == once


def test_an_entry_linking_another_pull_request_is_refused_and_nothing_written(
    repo: GitRepo,
) -> None:
    make_project(repo)
    data = HISTORY + "\n" + entry("a-vllm", "Bump a") + "\n" + entry("b-vllm", "b", f"{LINK}/5")
    repo.commit("own entries", **{LOG: data})
    done = run(repo, "finalize", "--pr-number", "7")
    assert done.returncode == 1
    assert f"links '{LINK}/5', not {LINK}/7" in done.stderr
    assert repo.read(LOG) == data.encode()


def test_a_branch_that_edits_history_is_refused(repo: GitRepo) -> None:
    make_project(repo)
    data = HISTORY.replace("Add a", "Add A") + "\n" + entry("a-vllm", "Bump a")
    repo.commit("edit", **{LOG: data})
    done = run(repo, "finalize", "--pr-number", "7")
    assert done.returncode == 1 and "does not only append" in done.stderr
    assert repo.read(LOG) == data.encode()


def test_the_refusal_of_an_edit_of_history_gives_the_recipe_that_works(
    repo: GitRepo,
) -> None:
    """`sync` refuses to carry an edit of the base's bytes, so finalize names the
    restore-and-add recipe, with the base commit, as `verify` does."""
    make_project(repo)
    base = repo.git("rev-parse", "main")[:12]
    data = HISTORY.replace("Add a", "Add A") + "\n" + entry("a-vllm", "Bump a")
    repo.commit("edit", **{LOG: data})
    done = run(repo, "finalize", "--pr-number", "7")
    assert done.returncode == 1
    assert f"`git checkout {base} -- {LOG}`" in done.stderr
    assert "`changelog add`" in done.stderr and "changelog sync" not in done.stderr
    gate = run(repo, "verify", "--base", "main", "--format", "json")
    messages = [f["message"] for f in json.loads(gate.stdout)["findings"]]
    assert any(m in done.stderr for m in messages)  # the same words as the gate's
    assert repo.read(LOG) == data.encode()


def test_commit_with_nothing_to_fill_says_so_and_commits_nothing(repo: GitRepo) -> None:
    make_project(repo)
    own = HISTORY + "\n" + entry("a-vllm", "Bump a", f"{LINK}/7")
    repo.commit("own", **{LOG: own})
    head = repo.git("rev-parse", "HEAD")
    data = own + "\n" + entry("b-vllm", "Bump b", f"{LINK}/7")
    (repo.root / LOG).write_text(data)  # not yet committed, and no placeholder in it
    done = run(repo, "finalize", "--pr-number", "7", "--commit")
    assert done.returncode == 0, done.stderr
    assert "nothing to fill" in done.stdout and "nothing committed" in done.stdout
    assert repo.git("rev-parse", "HEAD") == head
    assert repo.read(LOG) == data.encode()
    assert repo.git("diff", "--cached", "--name-only") == ""  # nothing staged either


def test_onto_rebuilds_on_main_and_commits_a_merge(repo: GitRepo) -> None:
    branch_with_placeholders(repo)
    repo.git("checkout", "-q", "main")
    main = HISTORY + "\n" + entry("b-vllm", "Main moved", f"{LINK}/6")
    repo.commit("main moves", **{LOG: main})
    repo.git("checkout", "-q", "feature")
    done = run(
        repo, "finalize", "--pr-number", "7", "--onto", "main", "--commit", "--format", "json"
    )
    assert done.returncode == 0, done.stdout + done.stderr
    document = json.loads(done.stdout)
    assert document["ok"] and document["commit"]
    expected = (
        main
        + "\n"
        + entry("a-vllm", "Bump a", f"{LINK}/7")
        + "\n"
        + entry("b-vllm", "Bump b", f"{LINK}/7")
    ).encode()
    assert repo.read(LOG) == expected
    parents = repo.git("rev-list", "--parents", "-n", "1", "HEAD").split()[1:]
    assert repo.git("rev-parse", "main") in parents
    assert run(repo, "verify", "--base", "main", "--pr-number", "7").returncode == 0


def test_the_pr_gate_passes_a_placeholder_with_a_warning_naming_the_link_and_finalize(
    repo: GitRepo,
) -> None:
    branch_with_placeholders(repo)
    done = run(repo, "verify", "--base", "main", "--pr-number", "7", "--format", "json")
    assert done.returncode == 0, done.stdout
    warnings = [f for f in json.loads(done.stdout)["findings"] if f["code"] == "pr-link"]
    assert len(warnings) == 2 and all(f["severity"] == "warning" for f in warnings)
    assert f"it must be {LINK}/7" in warnings[0]["message"]
    assert "`changelog finalize --pr-number 7`" in warnings[0]["message"]


def test_a_merge_that_stops_on_another_file_is_said_in_text_with_what_to_do(
    repo: GitRepo,
) -> None:
    branch_with_placeholders(repo)
    repo.commit("branch notes", **{"notes.txt": "branch\n"})
    repo.git("checkout", "-q", "main")
    repo.commit("main moves", **{LOG: HISTORY + "\n" + entry("b-vllm", "Main", f"{LINK}/6")})
    repo.commit("main notes", **{"notes.txt": "main\n"})
    repo.git("checkout", "-q", "feature")
    done = run(repo, "finalize", "--pr-number", "7", "--onto", "main", "--commit")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "still in progress, nothing is committed" in done.stdout
    assert "(notes.txt)" in done.stdout and "git commit" in done.stdout
    assert "committed " not in done.stdout.replace("nothing is committed", "")
    assert (repo.root / ".git" / "MERGE_HEAD").exists()


def test_own_entries_above_the_bases_and_spaces_in_old_entries_are_finalized(
    repo: GitRepo,
) -> None:
    """Form is no edit (the one comparison of entries): with trailing spaces on an old
    entry and an own entry standing above the base's last, both own entries get the
    link and nothing else changes."""
    make_project(repo)
    first, second = HISTORY.split("\n\n")
    spaced = first.replace('"Add a"', '"Add a"   ')
    assert spaced != first
    data = spaced + "\n\n" + entry("a-vllm", "Bump a") + "\n" + second + "\n" + entry("b-vllm")
    repo.commit("own entries", **{LOG: data})
    done = run(repo, "finalize", "--pr-number", "7")
    assert done.returncode == 0, done.stdout + done.stderr
    assert repo.read(LOG) == data.replace("pr-link: XXX", f"pr-link: {LINK}/7").encode()
    assert "2 placeholder pr-link(s)" in done.stdout


def test_an_appended_entry_that_does_not_read_is_named_and_nothing_written(
    repo: GitRepo,
) -> None:
    """A YAML problem met while the writer's lock is held is a refusal naming the
    line, never an internal error."""
    make_project(repo)
    data = HISTORY + "\n" + entry("a-vllm", "Bump a") + "  extra: [unclosed\n"
    repo.commit("own entry", **{LOG: data})
    for extra in ((), ("--commit",)):
        done = run(repo, "finalize", "--pr-number", "7", *extra)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "internal error" not in done.stderr
        assert "cannot read them all (line 19: did not find expected ',' or ']')" in done.stderr
        assert "`changelog verify --file`" in done.stderr
        assert repo.read(LOG) == data.encode()
    assert repo.git("status", "--porcelain") == ""


def test_a_merge_stopped_on_the_changelog_is_refused_with_its_lines(repo: GitRepo) -> None:
    branch_with_placeholders(repo)
    repo.git("checkout", "-q", "main")
    repo.commit("main moves", **{LOG: HISTORY + "\n" + entry("b-vllm", "Main", f"{LINK}/6")})
    repo.git("checkout", "-q", "feature")
    stop = repo.git("merge", "main", check=False)
    assert "CONFLICT (content): Merge conflict in perf-changelog.yaml" in stop
    stopped = repo.read(LOG)
    assert b"<<<<<<<" in stopped
    done = run(repo, "finalize", "--pr-number", "7")
    assert done.returncode == 1, done.stdout + done.stderr
    assert "internal error" not in done.stderr
    assert "cannot read them all (line " in done.stderr
    assert repo.read(LOG) == stopped
