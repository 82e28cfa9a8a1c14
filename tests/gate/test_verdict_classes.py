"""The verdict by meaning, one class of real InferenceX pull request each: form is a
warning naming `changelog sync` (an error with ``format = "error"``), what changes
what the benchmark runs or what history says is an error. Each case is a real
append or a real merge of main in a git repository."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, run

SETTINGS = ".perf-changelog.toml"
OWN = entry("b-vllm", "Bump b's image", "https://github.com/acme/bench/pull/7")
MAINS = entry("a-vllm", "Re-run a", "https://github.com/acme/bench/pull/5")
BUMPED = NVIDIA_TEXT.replace(key_block("b-vllm"), key_block("b-vllm", image="vllm/vllm-openai:v2"))


def start(repo: GitRepo, history: str = HISTORY, settings: str = "") -> None:
    """main: the master file and ``history``; checked out: branch feature, where
    b-vllm's image is bumped."""
    assert BUMPED != NVIDIA_TEXT
    repo.commit(
        "base",
        **{NVIDIA: NVIDIA_TEXT, LOG: history, SETTINGS: f'repository = "acme/bench"\n{settings}'},
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit("bump b", **{NVIDIA: BUMPED})


def verify(repo: GitRepo, *args: str) -> tuple[int, list[tuple[str, str]], list[str]]:
    done = run(repo, "verify", "--base", "main", "--pr-number", "7", "--format", "json", *args)
    findings = json.loads(done.stdout)["findings"]
    return (
        done.returncode,
        [(f["code"], f["severity"]) for f in findings],
        [f["message"] for f in findings],
    )


def test_an_own_entry_left_mid_file_by_a_merge_of_main_covers_its_key(repo: GitRepo) -> None:
    """The branch appended, main appended meanwhile, and the conflict of `git merge
    main` was resolved with the branch's entry first: it is read wherever it stands."""
    start(repo)
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN})
    repo.git("checkout", "-q", "main")
    repo.commit("main's entry", **{LOG: HISTORY + "\n" + MAINS})
    repo.git("checkout", "-q", "feature")
    repo.git("merge", "-q", "main", check=False)  # both appended: a conflict
    repo.commit("merge main", **{LOG: HISTORY + "\n" + OWN + "\n" + MAINS})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("entry-order", "warning")], messages
    assert "changelog sync" in messages[0]


def test_a_whitespace_line_before_the_appended_entry_is_a_warning(repo: GitRepo) -> None:
    """Main's file ends with a line of spaces; the branch put its entry after it with
    no empty line of its own."""
    start(repo, HISTORY + "  \n")
    repo.commit("entry", **{LOG: HISTORY + "  \n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("separator", "warning")], messages
    assert "changelog sync" in messages[0]


def test_a_trailing_empty_line_is_a_warning(repo: GitRepo) -> None:
    start(repo)
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN + "\n"})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("separator", "warning")], messages
    assert "ends with an empty line" in messages[0] and "changelog sync" in messages[0]


def test_no_empty_line_before_the_entry_is_a_warning(repo: GitRepo) -> None:
    start(repo)
    repo.commit("entry", **{LOG: HISTORY + OWN})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("separator", "warning")], messages


def test_a_doubled_empty_line_before_the_entry_is_a_warning(repo: GitRepo) -> None:
    start(repo)
    repo.commit("entry", **{LOG: HISTORY + "\n\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("separator", "warning")], messages


def test_whitespace_in_old_entries_is_refused_as_the_benchmark_reads_it(repo: GitRepo) -> None:
    """Trailing spaces on an old entry's line, and a blank line between old entries
    doubled: the same entries, but the benchmark's reader refuses the deleted line."""
    start(repo)
    reformatted = HISTORY.replace('"Add a"\n', '"Add a"   \n', 1).replace("\n\n", "\n\n\n", 1)
    assert reformatted != HISTORY
    repo.commit("entry", **{LOG: reformatted + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1, messages
    assert set(codes) == {("benchmark-refuses", "error"), ("separator", "warning")}
    refused = next(m for m in messages if "refuses" in m)
    assert "changelog sync" in refused and "Add a" in refused


def test_a_reindented_old_entry_is_refused(repo: GitRepo) -> None:
    """Another indentation of the same value is not an edit, but a deleted line."""
    start(repo)
    reindented = HISTORY.replace("    - a-vllm\n", "  - a-vllm\n", 1)
    repo.commit("entry", **{LOG: reindented + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1 and codes == [("benchmark-refuses", "error")], messages


def test_a_re_land_keeps_its_first_link_with_a_warning(repo: GitRepo) -> None:
    """The entry of a reverted pull request comes back with that pull request's link."""
    start(repo)
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN.replace("pull/7", "pull/6")})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("re-land", "warning")], messages
    assert "changelog finalize --pr-number 7" in messages[0]


def test_format_error_makes_form_an_error(repo: GitRepo) -> None:
    """Read from the base, like every setting."""
    start(repo, settings='format = "error"\n')
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN + "\n"})
    code, codes, _ = verify(repo)
    assert code == 1 and codes == [("separator", "error")]


def test_an_edited_old_entry_is_still_an_error(repo: GitRepo) -> None:
    start(repo)
    edited = HISTORY.replace('"Add a"', '"Add a, tuned"', 1)
    repo.commit("entry", **{LOG: edited + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1 and codes == [("history-modified", "error")], messages
    assert "changed entry 1" in messages[0]


def test_a_removed_old_entry_is_an_error_wherever_the_own_entry_stands(repo: GitRepo) -> None:
    start(repo)
    first = HISTORY.split("\n\n")[0] + "\n"
    repo.commit("entry", **{LOG: first + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1 and codes == [("history-modified", "error")], messages
    assert "removed entry 2" in messages[0]


def test_a_copy_of_an_old_entry_left_between_old_entries_is_an_error(repo: GitRepo) -> None:
    """Left by a hand merge of main: it would run and publish twice."""
    start(repo)
    first, second = (e if e.startswith("-") else "-" + e for e in HISTORY.split("\n-"))
    repo.commit("entry", **{LOG: first + "\n" + first + "\n" + second + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1 and ("duplicate-entry", "error") in codes, messages
    assert "left between the base's entries" in " ".join(messages)


def test_a_copy_appended_at_the_tail_is_a_re_run_and_a_warning(repo: GitRepo) -> None:
    """Re-appending an entry, link and all, is how a sweep is re-run on purpose."""
    start(repo)
    second = "- config-keys:" + HISTORY.split("- config-keys:")[2]
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN + "\n" + second})
    code, codes, messages = verify(repo)
    assert code == 0, messages
    assert sorted(codes) == [("duplicate-entry", "warning"), ("re-land", "warning")]
    assert "identical to the entry on line 7" in " ".join(messages)


def test_a_changed_key_no_entry_selects_is_still_an_error(repo: GitRepo) -> None:
    start(repo)
    code, codes, _ = verify(repo)
    assert code == 1 and codes == [("uncovered-key", "error")]
