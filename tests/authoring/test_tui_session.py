"""The add screen's logic without Textual: rows, preselection, preview lines, problems."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GitRepo
from projects import NVIDIA, NVIDIA_TEXT, key_block, make_project

from changelog_tool import settings as settings_module
from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.rows import KeyRow, preselected, rows_for, suggested_scenarios
from changelog_tool.authoring.session import AddSession, preview_lines
from changelog_tool.diff.keychange import ChangeSet, KeyChange
from changelog_tool.errors import ConcurrentChange
from changelog_tool.gate.acceptance import rejections
from changelog_tool.settings import Settings

BOTH = ("fixed-seq-len", "agentic-coding")


def changes() -> ChangeSet:
    return ChangeSet(
        base="b" * 40,
        head="WORKTREE",
        keys=[
            KeyChange("gone-key", "removed"),
            KeyChange(
                "smaller-key",
                "modified",
                ("scenarios.fixed-seq-len",),
                ("fixed-seq-len",),
                reduced=True,
            ),
            KeyChange("recipe-key", "recipe", recipes=("benchmarks/r/a.yaml",)),
            KeyChange("mod-key", "modified", ("image",), ("agentic-coding",), kinds=BOTH),
            KeyChange(
                "one-key",
                "modified",
                ("scenarios.agentic-coding",),
                ("agentic-coding",),
                kinds=BOTH,
            ),
            KeyChange("new-key", "added", scenarios=("fixed-seq-len",), kinds=("fixed-seq-len",)),
        ],
        appended=[{"config-keys": ["recipe-*"], "description": ["x"], "pr-link": "XXX"}],
    )


def test_rows_put_keys_needing_an_entry_first_and_preselect_the_uncovered_ones() -> None:
    rows = rows_for(changes())
    assert [r.key for r in rows] == [
        "new-key",
        "mod-key",
        "one-key",
        "recipe-key",
        "smaller-key",
        "gone-key",
    ]
    assert preselected(rows) == ["new-key", "mod-key", "one-key"]
    assert rows[3].covered and rows[3].detail().startswith("covered; recipe a.yaml")
    assert "reduced" in rows[4].detail() and "removed" in rows[5].detail()
    # every scenario type of the new key changed: none is named (every type runs)
    assert suggested_scenarios(rows, ["new-key"]) == []
    # mod-key's image changed: all its scenarios run again, so no scenario type is named
    assert suggested_scenarios(rows, ["new-key", "mod-key"]) == []
    # only one-key's agentic-coding scenario changed: exactly that type is named
    assert suggested_scenarios(rows, ["one-key"]) == ["agentic-coding"]
    assert suggested_scenarios(rows, ["new-key", "one-key"]) == list(BOTH)


def test_a_hand_added_pattern_row_says_how_many_keys_it_matches() -> None:
    assert KeyRow("a-*").detail(3) == "pattern: 3 keys"
    assert KeyRow("typo-key").detail(0) == "not a master key"


def test_preview_lines_number_the_tail_and_mark_the_new_lines() -> None:
    assert preview_lines(b"a\nb\nc\n", b"\n- x\n") == [
        (2, "b", False),
        (3, "c", False),
        (4, "", True),
        (5, "- x", True),
    ]
    assert preview_lines(b"a\nb", b"\n\n- x\n")[-2:] == [(3, "", True), (4, "- x", True)]
    assert preview_lines(b"", b"- x\n") == [(1, "- x", True)]


def test_problems_name_the_field_to_fix(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_text(
        '- config-keys:\n    - k\n  description:\n    - "d"\n'
        "  pr-link: https://github.com/o/r/pull/1\n"
    )
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "nvidia-master.yaml").write_text("k:\n  image: i\n")
    session = AddSession(Settings(root=tmp_path), path)
    assert session.problems(Draft()) == [
        "config-keys: choose at least one key or pattern",
        "description: write at least one line (one bullet per line)",
    ]
    bad = Draft(
        keys=["k"],
        description=["d"],
        pr_link="https://github.com/x/y/pull/2",
        flags=["append-only", "evals-only"],
    )
    found = session.problems(bad)
    assert any("append-only cannot be combined" in p for p in found)
    assert any(p.startswith("pr-link:") and "not this repository (o/r)" in p for p in found)
    preview = session.preview(Draft(keys=["k"], description=["d2"]))
    assert not preview.problems and preview.appended.startswith(b"\n- config-keys:\n    - k\n")


def refused_keys(session: AddSession, pattern: str) -> bool:
    """Whether the acceptance rule refuses ``pattern`` as matching no master key."""
    entry = {"config-keys": [pattern], "description": ["d"], "pr-link": "XXX"}
    return any(r.code == "dangling-pattern" for r in rejections(entry, session.rules))


@pytest.mark.parametrize("diff", ["loads", "fails"])
def test_completion_offers_exactly_the_keys_the_check_accepts(repo: GitRepo, diff: str) -> None:
    """One source of master keys for the whole screen: a key added in the work tree
    is offered and accepted, before the diff loads and after, even when the diff
    cannot run (no protected branch to compare with): the keys come from the
    acceptance rules, not from the diff."""
    make_project(repo)
    repo.write(NVIDIA, NVIDIA_TEXT + "\n" + key_block("c-new"))
    if diff == "fails":
        repo.git("branch", "-q", "-D", "main")
    settings = settings_module.load(repo.root)
    session = AddSession(settings, settings.changelog_path)
    keys = ["a-vllm", "b-vllm", "c-new", "m-rocm"]
    assert session.master_keys == keys  # before the diff
    loaded = session.load()
    assert (loaded.problem is None) == (diff == "loads")
    assert session.master_keys == keys
    assert sorted(session.rules.masters.owner) == keys
    for pattern in [*keys, "*-vllm", "c-*", "*", "d-*", "a-vlm", "c-new-*"]:
        matched = session.pattern_matches(pattern)
        assert set(matched) <= set(keys)
        assert bool(matched) != refused_keys(session, pattern), pattern


def test_the_history_is_parsed_on_first_use_and_read_again_after_a_reload(repo: GitRepo) -> None:
    """The history pane's entries are not the diff's (the keys do not wait for them):
    parsed when first asked for, kept, and parsed again from the new bytes once the
    session reloads the file (another program appended meanwhile)."""
    make_project(repo)
    settings = settings_module.load(repo.root)
    session = AddSession(settings, settings.changelog_path)
    session.load()
    before = session.history()
    assert before and session.history() is before
    assert [(a.line, a.entry) for a in session.history_for(["a-vllm"])] == [
        e for e in before if "a-vllm" in e[1]["config-keys"]
    ]
    path = settings.changelog_path
    path.write_bytes(
        path.read_bytes() + b"\n- config-keys:\n    - a-vllm\n  description:\n    - late\n"
        b"  pr-link: XXX\n"
    )
    session.reload()
    after = session.history()
    assert len(after) == len(before) + 1 and after[-1][1]["description"] == ["late"]


def test_the_session_starts_without_git_and_asks_it_for_the_first_preview(
    repo: GitRepo, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Before the first frame, the screen needs the file and the master configs only:
    the branch and the remote (three git processes, ~10 ms of the first paint) are
    read when the first preview checks an entry."""
    make_project(repo)
    settings = settings_module.load(repo.root)
    trace = tmp_path / "git-trace"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    session = AddSession(settings, settings.changelog_path)
    assert session.master_keys and session.pattern_matches("a-*") == ["a-vllm"]
    assert not trace.exists() or "git" not in trace.read_text()
    session.preview(Draft(keys=["a-vllm"], description=["d"]))
    assert " git " in trace.read_text() or "git-" in trace.read_text()


def _session_on(tmp_path: Path, init: bool = False) -> AddSession:
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "nvidia-master.yaml").write_text("k:\n  image: i\n")
    return AddSession(Settings(root=tmp_path), tmp_path / "perf-changelog.yaml", init=init)


def test_a_save_after_the_file_changed_since_the_preview_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "perf-changelog.yaml"
    path.write_text('- config-keys:\n    - k\n  description:\n    - "d"\n  pr-link: XXX\n')
    session = _session_on(tmp_path)
    changed = (
        path.read_bytes()
        + b'\n- config-keys:\n    - k\n  description:\n    - "e"\n  pr-link: XXX\n'
    )
    path.write_bytes(changed)
    with pytest.raises(ConcurrentChange, match="changed since it was read"):
        session.save(Draft(keys=["k"], description=["d2"]))
    assert path.read_bytes() == changed


def test_init_creates_the_file_but_never_appends_to_one_made_meanwhile(tmp_path: Path) -> None:
    session = _session_on(tmp_path, init=True)
    path = tmp_path / "perf-changelog.yaml"
    made = b'- config-keys:\n    - k\n  description:\n    - "other"\n  pr-link: XXX\n'
    path.write_bytes(made)
    with pytest.raises(ConcurrentChange):
        session.save(Draft(keys=["k"], description=["d2"]))
    assert path.read_bytes() == made
    path.unlink()
    done = session.save(Draft(keys=["k"], description=["d2"]))
    assert path.read_bytes().startswith(b"- config-keys:\n    - k\n") and done.entry_lines == (1,)
