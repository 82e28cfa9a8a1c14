"""The verdict is the benchmark CI's own reading of `git diff BASE HEAD` of the
changelog: a deleted non-blank line refuses the change, the added lines must load
as the branch's own entries. Real git, real diffs."""

from __future__ import annotations

import pytest
from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, run
from test_verdict_classes import BUMPED, OWN, start, verify

from changelog_tool.ledger.reading import read_diff

LINK1 = "https://github.com/acme/bench/pull/1"


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ('"Add a"\n', '"Add a" \n'),  # a trailing space added (an editor, or a paste)
        ("    - a-vllm\n", "  - a-vllm\n"),  # a re-indent of the same value
        ("  description:\n", "  description:  # why\n"),  # a comment
    ],
)
def test_a_whitespace_or_comment_edit_of_an_old_entry_is_refused(
    repo: GitRepo, old: str, new: str
) -> None:
    start(repo)
    repo.commit("entry", **{LOG: HISTORY.replace(old, new, 1) + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1 and ("benchmark-refuses", "error") in codes, messages
    assert "whitespace" not in [c for c, _ in codes]
    assert "changelog sync" in messages[codes.index(("benchmark-refuses", "error"))]


def test_a_trailing_space_trimmed_from_an_old_line_is_refused(repo: GitRepo) -> None:
    """Trim-on-save in an editor, then `changelog add`."""
    spaced = HISTORY.replace('"Add b"\n', '"Add b"  \n')
    start(repo, spaced)
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1 and codes == [("benchmark-refuses", "error")], messages
    assert '"Add b"' in messages[0]


def test_a_plain_append_is_read_as_the_branch_appended_it(repo: GitRepo) -> None:
    start(repo)
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [], messages


def test_added_lines_that_begin_inside_an_entry_do_not_read_as_its_entries() -> None:
    """The push of a real merged pull request: the added lines began inside the
    entry and ended at the next entry's `- config-keys:`."""
    diff = (
        b"--- a/perf-changelog.yaml\n+++ b/perf-changelog.yaml\n@@ -5,3 +5,9 @@\n"
        b"   pr-link: x\n \n"
        b'+    - c-vllm\n+  description:\n+    - "C"\n+  pr-link: XXX\n+\n+- config-keys:\n'
        b"     - b-vllm\n"
    )
    reading = read_diff(diff)
    assert not reading.deleted
    assert reading.problem is not None and reading.first_added == 7


def test_the_readers_line_rules_are_the_benchmarks() -> None:
    """`---`/`+++` lines are headers to it, a blank or whitespace-only deletion is
    allowed, and the added text is loaded as PyYAML (YAML 1.1) reads it."""
    diff = (
        b"diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n"
        b"-\n-   \n"
        b"+- config-keys:\n+    - a\n+  description:\n+    - on\n"
    )
    reading = read_diff(diff)
    assert reading.deleted == [] and reading.problem is None
    assert reading.entries == [{"config-keys": ["a"], "description": [True]}]


def test_a_base_file_without_a_final_newline_makes_the_append_a_deleted_line(
    repo: GitRepo,
) -> None:
    """Git shows the old last line as deleted and added again with its newline: the
    reader refuses, and the entries of that push are never benchmarked."""
    start(repo, HISTORY.rstrip("\n"))
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN})
    code, codes, messages = verify(repo)
    assert code == 1 and ("benchmark-refuses", "error") in codes, messages
    assert "line break in a change of its own first" in " ".join(messages)


def test_giving_the_base_its_final_newline_alone_is_a_warning(repo: GitRepo) -> None:
    """Main's past: the one push that fixes it benchmarks nothing, and loses nothing."""
    start(repo, HISTORY.rstrip("\n"))
    repo.commit("newline", **{LOG: HISTORY, NVIDIA: NVIDIA_TEXT})
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("base-final-newline", "warning")], messages


def test_a_block_scalar_at_the_end_is_read_as_appended(repo: GitRepo) -> None:
    """The reader joins the added lines without a last line break: a ``|`` scalar
    that ends the file reads without its final newline, which is no misreading."""
    start(repo)
    own = "- config-keys:\n    - b-vllm\n  pr-link: XXX\n  description: |\n    Bump b\n"
    repo.commit("entry", **{LOG: HISTORY + "\n" + own})
    _, codes, messages = verify(repo)
    assert "benchmark-read" not in [c for c, _ in codes], messages


# --- corrections: a change of one entry's parsed pr-link value and nothing else -----------
@pytest.mark.parametrize(("setting", "severity"), [("", "warning"), ("error", "error")])
def test_a_correction_alone_is_a_warning_or_an_error_by_the_setting(
    repo: GitRepo, setting: str, severity: str
) -> None:
    start(repo, settings=f'correction = "{setting}"\n' if setting else "")
    repo.commit("relink", **{LOG: HISTORY.replace("pull/1\n", "pull/11\n"), NVIDIA: NVIDIA_TEXT})
    code, codes, messages = verify(repo)
    assert codes == [("correction", severity)], messages
    assert code == (1 if severity == "error" else 0)
    assert "benchmarks nothing" in messages[0]


def test_a_correction_is_read_on_gits_default_diff_whatever_the_clones_config(
    repo: GitRepo,
) -> None:
    """``diff.suppressBlankEmpty`` prints a blank context line as an empty line: the
    reader still counts it, so the deleted line is the corrected one."""
    short = '- config-keys: [b-vllm]\n  description: ["C"]\n  pr-link: XXX\n'
    start(repo, HISTORY + "\n" + short)
    repo.git("config", "diff.suppressBlankEmpty", "true")
    relinked = short.replace("XXX", "https://github.com/acme/bench/pull/3")
    repo.commit("relink", **{LOG: HISTORY + "\n" + relinked, NVIDIA: NVIDIA_TEXT})
    repo.git("config", "diff.orderFile", str(repo.root / "no-such-order-file"))
    code, codes, messages = verify(repo)
    assert (code, codes) == (0, [("correction", "warning")]), messages


def test_a_description_line_that_begins_with_pr_link_is_not_a_correction(repo: GitRepo) -> None:
    history = HISTORY.replace(
        '  description:\n    - "Add a"\n', "  description: |\n  pr-link: see #1\n", 1
    ).replace("  description: |\n  pr-link", "  description: |\n    pr-link", 1)
    start(repo, history)
    edited = history.replace("    pr-link: see #1", "    pr-link: see #9")
    repo.commit("edit", **{LOG: edited, NVIDIA: NVIDIA_TEXT})
    code, codes, _ = verify(repo)
    assert code == 1 and codes == [("history-modified", "error")]


def test_a_correction_that_does_not_load_is_an_edit(repo: GitRepo) -> None:
    start(repo)
    broken = HISTORY.replace(f"pr-link: {LINK1}\n", f'pr-link: "{LINK1}1\n')
    repo.commit("relink", **{LOG: broken, NVIDIA: NVIDIA_TEXT})
    code, codes, _ = verify(repo)
    assert code == 1 and ("history-modified", "error") in codes


def test_a_correction_onto_a_link_on_the_next_line_is_judged_by_its_value(repo: GitRepo) -> None:
    history = HISTORY.replace(f"pr-link: {LINK1}\n", f"pr-link:\n    {LINK1}\n")
    start(repo, history)
    fixed = history.replace("  pr-link:\n", "  pr-link: https://github.com/acme/bench/pull/11\n")
    repo.commit("relink", **{LOG: fixed, NVIDIA: NVIDIA_TEXT})
    code, codes, messages = verify(repo)
    assert code == 1 and ("pr-link", "error") in codes, messages
    assert "pull/11 https" in " ".join(messages)


def test_a_correction_mixed_with_an_entry_is_refused_on_every_path(repo: GitRepo) -> None:
    """A blank line added elsewhere in history takes the comparison by identity."""
    start(repo)
    relinked = HISTORY.replace("pull/1\n", "pull/11\n").replace("\n\n", "\n\n\n", 1)
    repo.commit("relink and entry", **{LOG: relinked + "\n" + OWN})
    code, codes, _ = verify(repo)
    assert code == 1 and ("mixed-correction", "error") in codes


# --- a branch behind the protected tip -----------------------------------------------------
def test_a_branch_behind_main_is_told_to_sync(repo: GitRepo) -> None:
    start(repo)
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN})
    repo.git("checkout", "-q", "main")
    repo.commit("main's entry", **{LOG: HISTORY + "\n" + entry("a-vllm", "Re-run a", LINK1)})
    repo.git("checkout", "-q", "feature")
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [("behind", "warning")], messages
    assert "changelog sync --commit" in messages[0]
    assert run(repo, "sync", "--onto", "main", "--commit").returncode == 0
    code, codes, messages = verify(repo)
    assert code == 0 and codes == [], messages
    assert BUMPED in (repo.root / NVIDIA).read_text()
