"""``add`` without a terminal and without ``--key``: the keys the add screen would
preselect (the branch's changed keys that need an entry), and every answer still
missing named in one message (real git, the real CLI)."""

from __future__ import annotations

from conftest import GitRepo
from projects import LOG, NVIDIA, NVIDIA_TEXT, key_block, run

from changelog_tool.authoring.rows import preselected, rows_for
from changelog_tool.authoring.session import diff_answer
from changelog_tool.settings import load


def _branch_changes_two_keys(project: GitRepo) -> None:
    changed = NVIDIA_TEXT.replace("vllm/vllm-openai:v1", "vllm/vllm-openai:v2")
    project.commit("bump", **{NVIDIA: changed + "\n" + key_block("c-vllm")})


def test_the_keys_are_the_ones_the_add_screen_preselects(project: GitRepo) -> None:
    _branch_changes_two_keys(project)
    changes = diff_answer(load(project.root), None)
    assert not isinstance(changes, str)
    screen = preselected(rows_for(changes))
    assert sorted(screen) == ["a-vllm", "b-vllm", "c-vllm"]
    before = project.read(LOG)
    done = run(project, "add", "--description", "Bump the image")
    assert done.returncode == 0, done.stderr
    added = project.read(LOG)[len(before) :].decode()
    assert added == "\n- config-keys:\n" + "".join(f"    - {k}\n" for k in screen) + (
        '  description:\n    - "Bump the image"\n  pr-link: XXX\n'
    )
    assert done.stderr == (
        "changelog: no --key given: the keys this branch changed that need an entry "
        f"(what the add screen preselects): {', '.join(screen)}\n"
    )


def test_every_missing_answer_is_named_in_one_message(project: GitRepo) -> None:
    """No changed key and no description: both are said at once, nothing written."""
    before = project.read(LOG)
    done = run(project, "add")
    assert done.returncode == 2
    assert done.stderr == (
        "changelog: missing a config key: pass --key KEY (repeatable; patterns allowed); "
        "and a description: pass --description TEXT (repeatable, one bullet each); "
        "nothing was written\n"
    )
    assert project.read(LOG) == before


def test_with_changed_keys_only_the_description_is_missing(project: GitRepo) -> None:
    _branch_changes_two_keys(project)
    before = project.read(LOG)
    done = run(project, "add", "--no-input")
    assert done.returncode == 2
    assert done.stderr == (
        "changelog: missing a description: pass --description TEXT (repeatable, one "
        "bullet each); nothing was written\n"
    )
    assert project.read(LOG) == before
