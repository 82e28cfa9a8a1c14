"""What `add` refuses in its input, by the rule every other path uses: a key or a
scenario type listed twice, a pull-request number that is not one (leading zero,
zero, past GitHub's range; `--pr-number` too), a `--file` link that leads out of the
checkout or into `.git`; and what a second `finalize` says (real git, the real CLI)."""

from __future__ import annotations

import json
import os

import pytest
from conftest import GitRepo
from projects import HISTORY, LOG, codes, entry, make_project, run, verify

from changelog_tool import settings as settings_module
from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.session import AddSession
from changelog_tool.ledger.entry import MAX_PR_NUMBER, pr_number_problem

SLUG_LINK = "https://github.com/acme/bench/pull"


# --- a key or scenario type listed twice ---------------------------------------------


def test_a_key_given_twice_is_refused_by_flags_json_and_the_tui(repo: GitRepo) -> None:
    make_project(repo)
    done = run(repo, "add", "--key", "a-vllm", "--key", "a-vllm", "--description", "d")
    assert done.returncode == 1
    assert "config-keys/1: 'a-vllm' is listed twice (also config-keys/0)" in done.stderr
    twice = {"config-keys": ["b-vllm", "a-vllm", "b-vllm"], "description": ["d"]}
    done = run(repo, "add", "--json", stdin=json.dumps(twice))
    assert done.returncode == 1 and "config-keys/2: 'b-vllm' is listed twice" in done.stdout
    kinds = ("--scenario-type", "fixed-seq-len")
    done = run(repo, "add", "--key", "a-vllm", "--description", "d", *kinds, *kinds)
    assert (
        done.returncode == 1 and "scenario-type/1: 'fixed-seq-len' is listed twice" in done.stderr
    )
    assert repo.read(LOG) == HISTORY.encode()
    settings = settings_module.load(repo.root)
    session = AddSession(settings, settings.changelog_path)
    found = session.problems(Draft(keys=["a-vllm", "a-vllm"], description=["d"]))
    assert any("'a-vllm' is listed twice" in p for p in found)


def test_verify_base_reports_a_key_listed_twice_in_an_appended_entry(repo: GitRepo) -> None:
    make_project(repo)
    doubled = entry("a-vllm", "Twice").replace("    - a-vllm\n", "    - a-vllm\n    - a-vllm\n")
    repo.commit("doubled", **{LOG: HISTORY + "\n" + doubled})
    code, document = verify(repo)
    assert code == 1 and "repeated-key" in codes(document)
    [finding] = [f for f in document["findings"] if f["code"] == "repeated-key"]
    assert finding["line"] == HISTORY.count("\n") + 4  # the second copy's line


# --- the pull-request number ------------------------------------------------------------


@pytest.mark.parametrize(
    ("number", "why"),
    [
        ("012", "has a leading zero (write 12)"),
        ("0", "is below 1"),
        ("00", "is below 1"),
        ("99999999999999999999", f"is above {MAX_PR_NUMBER}"),
        (str(MAX_PR_NUMBER + 1), f"is above {MAX_PR_NUMBER}"),
        ("\uff11\uff12", "is not written in decimal digits"),  # fullwidth digits
        ("-3", "is not written in decimal digits"),
    ],
)
def test_a_number_that_is_no_pull_request_number(number: str, why: str) -> None:
    assert why in (pr_number_problem(number) or "")


def test_the_largest_pull_request_number_is_one() -> None:
    assert pr_number_problem("1") is None
    assert pr_number_problem(str(MAX_PR_NUMBER)) is None


@pytest.mark.parametrize("number", ["012", "0", "99999999999999999999"])
def test_add_and_verify_refuse_a_pr_link_whose_number_is_no_number(
    repo: GitRepo, number: str
) -> None:
    make_project(repo)
    link = f"{SLUG_LINK}/{number}"
    done = run(repo, "add", "--key", "a-vllm", "--description", "d", "--pr-link", link)
    assert done.returncode == 1 and "is not a pull-request link: its number" in done.stderr
    assert repo.read(LOG) == HISTORY.encode()
    repo.commit("by hand", **{LOG: HISTORY + "\n" + entry("a-vllm", "d", link)})
    code, document = verify(repo)
    assert code == 1 and codes(document) == ["pr-link"]
    assert "its number" in document["findings"][0]["message"]


@pytest.mark.parametrize("command", [["verify", "--base", "main"], ["finalize"]])
@pytest.mark.parametrize("number", ["99999999999999999999", "012"])
def test_pr_number_takes_the_same_rule(repo: GitRepo, command: list[str], number: str) -> None:
    make_project(repo)
    done = run(repo, *command, "--pr-number", number)
    assert done.returncode == 2
    assert "must be a pull request number (1 or more)" in done.stderr
    assert (pr_number_problem(number) or "?") in done.stderr


# --- --file: no link out of the checkout or into .git --------------------------------


@pytest.mark.parametrize("where", ["outside", "git directory"])
def test_add_file_through_a_link_that_leads_out_is_refused(
    repo: GitRepo, tmp_path, where: str
) -> None:
    make_project(repo)
    if where == "outside":
        target = tmp_path / "elsewhere.yaml"
        target.write_text(HISTORY)
    else:
        target = repo.root / ".git" / "perf-changelog.yaml"
        target.write_text(HISTORY)
    os.symlink(target, repo.root / "link.yaml")
    done = run(repo, "add", "--file", "link.yaml", "--key", "a-vllm", "--description", "d")
    assert done.returncode == 2, done
    assert "symbolic link that leads" in done.stderr
    assert target.read_text() == HISTORY


def test_add_file_through_a_link_inside_the_checkout_writes_its_target(repo: GitRepo) -> None:
    make_project(repo)
    os.symlink(LOG, repo.root / "link.yaml")
    done = run(repo, "add", "--file", "link.yaml", "--key", "a-vllm", "--description", "d")
    assert done.returncode == 0, done.stderr
    assert (repo.root / "link.yaml").is_symlink()
    assert repo.read(LOG).startswith(HISTORY.encode()) and b'"d"' in repo.read(LOG)


# --- finalize, a second time ------------------------------------------------------------


@pytest.mark.parametrize("commit", [[], ["--commit"]])
def test_a_second_finalize_says_only_that_there_is_nothing_to_fill(
    repo: GitRepo, commit: list[str]
) -> None:
    make_project(repo)
    repo.commit("own", **{LOG: HISTORY + "\n" + entry("a-vllm", "Bump a")})
    first = run(repo, "finalize", "--pr-number", "9", *commit)
    assert first.returncode == 0 and "1 placeholder pr-link(s) now" in first.stdout
    if not commit:
        repo.commit("finalized")
    again = run(repo, "finalize", "--pr-number", "9", *commit)
    assert again.returncode == 0
    done = "nothing committed" if commit else "nothing written"
    assert again.stdout == (
        f"finalize: {LOG}: nothing to fill (no entry of this branch has a placeholder "
        f"pr-link); {done}\n"
    )
    document = json.loads(
        run(repo, "finalize", "--pr-number", "9", *commit, "--format", "json").stdout
    )
    assert document["written"] is False and document["rewritten"] == []
