"""Work-tree `verify --base` (the pre-commit hook) also judges what the next commit
records: the index. A changelog deleted or edited in the index is caught even when
the work tree's file is fine."""

from __future__ import annotations

from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, codes, entry, make_project, verify


def test_a_staged_deletion_of_the_changelog_is_history_modified(repo) -> None:
    project = make_project(repo)
    project.git("rm", "-q", "--cached", LOG)
    assert (project.root / LOG).is_file()
    code, document = verify(project)
    assert code == 1 and codes(document) == ["history-modified"]
    message = document["findings"][0]["message"]
    assert "deleted in the index" in message and f"`git add {LOG}`" in message


def test_a_changelog_deleted_in_an_earlier_commit_and_restored_untracked_is_caught(repo) -> None:
    project = make_project(repo)
    project.git("rm", "-q", LOG)
    project.git("commit", "-q", "-m", "drop the changelog")
    project.write(LOG, HISTORY)
    code, document = verify(project)
    assert code == 1 and codes(document) == ["history-modified"]


def test_a_staged_history_edit_is_caught_when_the_work_tree_file_is_clean(repo) -> None:
    project = make_project(repo)
    project.write(LOG, HISTORY.replace('"Add b"', '"Add B"'))
    project.git("add", LOG)
    project.write(LOG, HISTORY)
    code, document = verify(project)
    assert code == 1 and codes(document) == ["history-modified"]
    finding = document["findings"][0]
    assert "staged" in finding["message"] and f"`git add {LOG}`" in finding["message"]
    assert finding["line"] == HISTORY.splitlines().index('    - "Add b"') + 1


def test_an_unstaged_entry_over_a_clean_index_is_judged_as_the_work_tree_has_it(repo) -> None:
    project = make_project(repo)
    project.commit("bump", **{NVIDIA: NVIDIA_TEXT.replace("v1", "v2", 1)})
    project.write(LOG, HISTORY + "\n" + entry("a-vllm", "Bump a"))
    code, document = verify(project)
    assert (code, codes(document)) == (0, [])


def test_a_new_changelog_not_yet_added_is_read_as_its_next_commit_adds_it(repo) -> None:
    """The benchmark reads the commit, where the new file's lines are all added."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, ".perf-changelog.toml": 'repository = "a/b"\n'})
    repo.git("checkout", "-q", "-b", "feature")
    repo.write(NVIDIA, NVIDIA_TEXT.replace("v1", "v2", 1))
    repo.write(LOG, entry("a-vllm", "Bump a"))
    code, document = verify(repo)
    assert (code, codes(document)) == (0, []), document["findings"]
