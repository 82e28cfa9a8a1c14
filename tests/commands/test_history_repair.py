"""A branch that edited the base's history is told how to undo it, and the advice
works when followed: an edit of the base's entries (which `changelog sync` refuses to
carry) gets `git checkout <base> -- FILE` and a new `changelog add` (real git)."""

from __future__ import annotations

import shlex
import subprocess

from conftest import GitRepo
from projects import LOG, NVIDIA, NVIDIA_TEXT, key_block, run


def hinted(message: str) -> list[list[str]]:
    """Every command the message names between backticks."""
    return [shlex.split(part) for part in message.split("`")[1::2]]


def test_an_edited_entry_gets_the_checkout_recipe_and_it_works(project: GitRepo) -> None:
    project.commit("add z", **{NVIDIA: NVIDIA_TEXT + key_block("z-vllm")})
    history = project.read(LOG).decode()
    edited = history.replace("Add a", "Add a (reworded)")
    project.write(
        LOG, edited + '\n- config-keys:\n    - z-vllm\n  description:\n    - "z"\n  pr-link: XXX\n'
    )
    judged = run(project, "verify", "--base", "main")
    assert judged.returncode == 1 and "history-modified" in judged.stdout
    [line] = [text for text in judged.stdout.splitlines() if "history-modified" in text]
    assert "changelog sync" not in line  # sync refuses this edit
    assert run(project, "sync").returncode == 1
    checkout, add = hinted(line)
    assert checkout[:2] == ["git", "checkout"] and checkout[-2:] == ["--", LOG]
    assert add == ["changelog", "add"]
    subprocess.run(checkout, cwd=project.root, check=True, capture_output=True)
    added = run(project, "add", "--key", "z-vllm", "--description", "z", "--no-input")
    assert added.returncode == 0, added.stderr
    assert run(project, "verify", "--base", "main").returncode == 0


def test_an_entry_placed_among_the_bases_is_form_and_points_to_sync(project: GitRepo) -> None:
    history = project.read(LOG).decode()
    first, second = history.split("\n- ", 1)
    own = '- config-keys:\n    - a-vllm\n  description:\n    - "own"\n  pr-link: XXX\n'
    project.write(LOG, first + "\n" + own + "\n- " + second)
    judged = run(project, "verify", "--base", "main")
    assert "history-modified" not in judged.stdout
    [line] = [text for text in judged.stdout.splitlines() if "entry-order" in text]
    assert "warning" in line and "`changelog sync`" in line
    assert run(project, "sync").returncode == 0
    assert run(project, "verify", "--base", "main").returncode == 0
