"""Main's past is never the next pull request's fault: a flaw in an entry the
protected branch already holds (a real InferenceX entry's pr-link ended in
``/changes``) is a warning with the fix in `verify --file`, `add` and the TUI's
save; the same flaw in an entry the branch adds is an error, and with no protected
branch to compare with every entry is judged as new."""

from __future__ import annotations

import json
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
    """Every public state of InferenceX's main, checked out on main: `verify --file`
    and `add`'s check refuse only the states whose bytes are damaged (no final
    newline, broken YAML), never one for a flaw in an entry main holds."""
    import subprocess

    import pytest
    from conftest import CORPUS

    from changelog_tool.errors import ChangelogError
    from changelog_tool.findings import has_errors
    from changelog_tool.ledger.filecheck import as_history, check_appendable, check_file
    from changelog_tool.ledger.streams import MemorySource

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
    refused: dict[str, set[str]] = {}
    for sha in shas:
        data = subprocess.run(
            ["git", "show", f"{sha}:{LOG}"], cwd=clone, capture_output=True, check=True
        ).stdout

        def everything(data: bytes = data) -> int:
            return data.count(b"\n") + 1

        findings = as_history(check_file(data, LOG).findings, everything)
        if has_errors(findings):
            refused[sha] = {f.code for f in findings if f.severity == "error"}
        try:
            check_appendable(MemorySource(data), LOG, everything)
        except ChangelogError:
            refused.setdefault(sha, set()).add("add")
    assert len(shas) > 500
    assert all(codes - {"add"} <= STRUCTURAL and codes - {"add"} for codes in refused.values())
    assert len(refused) <= 7, sorted(refused)


def test_held_lines_are_the_whole_lines_main_has_too(repo: GitRepo) -> None:
    """Main's file read in chunks: lines equal to main's count, a line that differs
    or is cut short does not, and a file that is only the start of main's (a
    branch that dropped main's newest entries) is no error."""
    from changelog_tool.gate import held

    main = b"".join(b"- config-keys: [k%d]\n" % n for n in range(150_000))  # over 1 chunk
    repo.commit("main", **{LOG: main.decode()})
    path = repo.root / LOG
    assert held.held_lines(path, ["main"]) == 150_000
    cut = main.index(b"k140000]") + 3  # mid-line: the line is not held
    path.write_bytes(main[:cut])
    assert held.held_lines(path, ["main"]) == 140_000
    path.write_bytes(main[:cut] + b"X" + main[cut + 1 :])
    assert held.held_lines(path, ["main"]) == 140_000
    path.write_bytes(main + b"- config-keys: [new]\n")
    assert held.held_lines(path, ["main"]) == 150_000
    assert held.held_lines(path, ["no-such-ref", "main"]) == 150_000
    assert held.held_lines(path, ["no-such-ref"]) == 0
