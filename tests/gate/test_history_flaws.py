"""Main's past is never the next pull request's fault: a flaw in an entry the
protected branch already holds (a real InferenceX entry's pr-link ended in
``/changes``) is a warning with the fix in `verify --file`, `add` and the TUI's
save; the same flaw in an entry the branch adds is an error, and with no protected
branch to compare with every entry is judged as new."""

from __future__ import annotations

import json
from collections.abc import Container
from pathlib import Path

from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, run

FLAWED = entry("a-vllm", "Re-run a", "https://github.com/acme/bench/pull/2305/changes")
"""An entry whose pr-link is not a bare pull-request link (what main once accepted)."""


def main_holds_the_flaw(repo: GitRepo) -> bytes:
    held = (HISTORY + "\n" + FLAWED).encode()
    repo.commit("main", **{NVIDIA: NVIDIA_TEXT, LOG: held.decode()})
    repo.git("checkout", "-q", "-b", "feature")
    return held


def test_a_flaw_main_holds_is_a_warning_with_the_fix(repo: GitRepo) -> None:
    main_holds_the_flaw(repo)
    done = run(repo, "verify", "--file", LOG, "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    [finding] = json.loads(done.stdout)["findings"]
    assert finding["severity"] == "warning" and finding["code"] == "schema"
    assert "already holds: correct it in a pull request of its own" in finding["message"]


def test_add_appends_after_a_flawed_entry_main_holds_and_says_so(repo: GitRepo) -> None:
    held = main_holds_the_flaw(repo)
    dry = run(
        repo,
        "add",
        "--json",
        "--dry-run",
        stdin='{"config-keys": ["b-vllm"], "description": ["x"]}',
    )
    assert dry.returncode == 0, dry.stderr
    assert json.loads(dry.stdout)["warnings"][0]["severity"] == "warning"
    done = run(repo, "add", "--key", "b-vllm", "--description", "Re-run b", "--no-input")
    assert done.returncode == 0, done.stderr
    assert "changelog: warning:" in done.stderr and "pr-link" in done.stderr
    assert repo.read(LOG).startswith(held) and len(repo.read(LOG)) > len(held)


def test_the_same_flaw_in_the_branchs_own_entry_is_an_error(repo: GitRepo) -> None:
    repo.commit("main", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY})
    repo.git("checkout", "-q", "-b", "feature")
    repo.write(LOG, HISTORY + "\n" + FLAWED)
    done = run(repo, "verify", "--file", LOG)
    assert done.returncode == 1 and "pr-link" in done.stdout
    before = repo.read(LOG)
    refused = run(repo, "add", "--key", "b-vllm", "--description", "Re-run b", "--no-input")
    assert refused.returncode == 1 and "refusing to append" in refused.stderr
    assert repo.read(LOG) == before


def test_with_no_protected_branch_every_entry_is_judged_as_new(tmp_path: Path) -> None:
    path = tmp_path / LOG
    path.write_text(HISTORY + "\n" + FLAWED)
    done = run(tmp_path, "verify", "--file", str(path))
    assert done.returncode == 1 and "already holds" not in done.stdout


def test_damage_to_the_file_still_refuses_whoever_made_it(repo: GitRepo) -> None:
    broken = HISTORY + "\n- config-keys: [unclosed\n"
    repo.commit("main", **{NVIDIA: NVIDIA_TEXT, LOG: broken})
    done = run(repo, "verify", "--file", LOG)
    assert done.returncode == 1


def test_an_empty_changelog_is_a_valid_history_of_no_entries(repo: GitRepo) -> None:
    repo.commit("main", **{NVIDIA: NVIDIA_TEXT, LOG: ""})
    assert run(repo, "verify", "--file", LOG).returncode == 0
    repo.git("checkout", "-q", "-b", "feature")
    done = run(repo, "verify", "--base", "main")
    assert done.returncode == 0, done.stdout + done.stderr
    (repo.root / LOG).write_text("# no entries yet\n")
    assert run(repo, "verify", "--file", LOG).returncode == 0


STRUCTURAL = {"final-newline", "yaml-syntax", "duplicate-yaml-key", "encoding"}


def test_no_real_main_state_is_refused_for_an_entry_flaw(tmp_path: Path) -> None:
    """Every public state of InferenceX's main, judged against today's main (which
    corrected old pr-links since, so an old state is no byte prefix of it): `verify
    --file` and `add`'s check refuse only the states whose bytes are damaged (no final
    newline, broken YAML), never one for a flaw in an entry main holds."""
    import subprocess

    import pytest
    from conftest import CORPUS

    from changelog_tool.errors import ChangelogError
    from changelog_tool.findings import has_errors
    from changelog_tool.gate.held import held_in
    from changelog_tool.ledger.filecheck import as_history, check_file
    from changelog_tool.ledger.writer import check_appendable

    bundle = CORPUS / "inferencex-data.bundle"
    if not bundle.is_file():
        pytest.skip("../shared/corpus is absent")
    clone = tmp_path / "corpus"
    subprocess.run(["git", "clone", "-q", str(bundle), str(clone)], check=True)
    shas = subprocess.run(
        ["git", "rev-list", "HEAD", "--", LOG],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    today = (clone / LOG).read_bytes()
    refused: dict[str, set[str]] = {}
    for sha in shas:
        data = subprocess.run(
            ["git", "show", f"{sha}:{LOG}"], cwd=clone, capture_output=True, check=True
        ).stdout

        def held(data: bytes = data) -> Container[int]:
            return held_in(today, data)

        findings = as_history(check_file(data, LOG).findings, held)
        if has_errors(findings):
            refused[sha] = {f.code for f in findings if f.severity == "error"}
        try:
            check_appendable(data, LOG, held)
        except ChangelogError:
            refused.setdefault(sha, set()).add("add")
    assert len(shas) > 500
    flawed = {sha[:10] for sha, codes in refused.items() if codes - {"add"} - STRUCTURAL}
    # entries today's main no longer holds, by any link: the first file's two
    # entries without a pr-link (main rewrote them), and a "test" entry it removed
    assert flawed == REWRITTEN_SINCE, sorted(flawed)
    assert len(refused) <= 7 + len(REWRITTEN_SINCE), sorted(refused)


REWRITTEN_SINCE = {"b4f582d221", "00e5a06f9d", "ee3cb25b24", "dc991c38ad", "7d03ba63d8"}


def test_held_lines_are_the_lines_of_entries_main_holds_wherever(repo: GitRepo) -> None:
    """An entry is main's by its content, wherever it stands in the file: its lines
    and the blank lines after it are held, an entry main lacks (or holds otherwise
    but for its pr-link) is not."""
    from changelog_tool.gate import held

    entries = [
        entry(f"k{n}-vllm", f"Run {n}", f"https://github.com/acme/bench/pull/{n}")
        for n in range(1, 4)
    ]
    repo.commit("main", **{LOG: "\n".join(entries)})
    path = repo.root / LOG
    mine = "\n".join([entries[0], entry("new-vllm", "New", "XXX"), entries[2], entries[1]])
    path.write_text(mine)
    lines = held.held_lines(path, ["main"])
    new_first = mine.index("- config-keys:\n    - new-vllm")
    new_line = mine.count("\n", 0, new_first) + 1
    assert 1 in lines and new_line not in lines and new_line - 1 in lines
    assert all(n in lines for n in range(new_line + 6, mine.count("\n") + 1))
    assert held.held_lines(path, ["no-such-ref", "main"]) == lines
    assert not held.held_lines(path, ["no-such-ref"])


def test_a_broken_new_entry_on_a_branch_behind_main_is_an_error(repo: GitRepo) -> None:
    """The branch's new entry begins with the same bytes as main's next entry (its
    first three lines); it is not main's for that: its flaw (no pr-link) is an error."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY})
    repo.git("checkout", "-q", "-b", "feature")
    repo.git("checkout", "-q", "main")
    repo.commit(
        "main moves on",
        **{
            LOG: HISTORY
            + "\n"
            + entry("b-vllm", "Re-run b", "https://github.com/acme/bench/pull/3")
        },
    )
    repo.git("checkout", "-q", "feature")
    repo.write(LOG, HISTORY + '\n- config-keys:\n    - b-vllm\n  description:\n    - "Tune b"\n')
    done = run(repo, "verify", "--file", LOG, "--format", "json")
    assert done.returncode == 1, done.stdout
    [finding] = json.loads(done.stdout)["findings"]
    assert finding["code"] == "schema" and finding["severity"] == "error"
    assert "pr-link" in finding["message"] and "already holds" not in finding["message"]


def test_a_main_state_whose_old_link_main_corrected_later_still_passes(repo: GitRepo) -> None:
    """Main corrected an old entry's placeholder link after this state: the state is
    no byte prefix of today's main, yet its flawed newer entry is still main's own."""
    old = entry("a-vllm", "Add a", "XXX") + "\n" + entry("b-vllm", "Add b") + "\n" + FLAWED
    repo.commit("main", **{NVIDIA: NVIDIA_TEXT, LOG: old})
    corrected = old.replace("pr-link: XXX", "pr-link: https://github.com/acme/bench/pull/1", 1)
    repo.commit("correct a link", **{LOG: corrected})
    repo.write(LOG, old)  # the older main state, checked on today's main
    done = run(repo, "verify", "--file", LOG, "--format", "json")
    assert done.returncode == 0, done.stdout
    codes = {(f["code"], f["severity"]) for f in json.loads(done.stdout)["findings"]}
    assert ("schema", "warning") in codes
