"""`verify` while git has stopped in a rebase: it says so first, and gives no advice
to append while a commit still to replay changes the changelog (following it would
leave two entries). Two entries one branch appends for the same selection: a
warning naming both lines. A real `git rebase`."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, run

OWN = entry("b-vllm", "Bump b's image")


def test_a_rebase_stopped_on_a_master_config_gives_no_advice_to_append(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY})
    repo.git("checkout", "-q", "-b", "feature")
    mine = key_block("b-vllm", image="vllm/vllm-openai:v2")
    repo.commit("bump b", **{NVIDIA: NVIDIA_TEXT.replace(key_block("b-vllm"), mine)})
    repo.commit("entry", **{LOG: HISTORY + "\n" + OWN})
    repo.git("checkout", "-q", "main")
    theirs = key_block("b-vllm", image="vllm/vllm-openai:v3")
    repo.commit("main bumps b", **{NVIDIA: NVIDIA_TEXT.replace(key_block("b-vllm"), theirs)})
    repo.git("checkout", "-q", "feature")
    stopped = repo.git("rebase", "main", check=False)
    assert b"<<<<<<<" in (repo.root / NVIDIA).read_bytes(), stopped
    done = run(repo, "verify", "--base", "main", "--format", "json")
    document = json.loads(done.stdout)
    findings = document["findings"]
    assert findings[0]["code"] == "in-progress"
    assert "rebase is in progress" in findings[0]["message"]
    assert (
        "1 commit(s) still to replay, 1 of them changing perf-changelog.yaml"
        in (findings[0]["message"])
    )
    assert "git rebase --continue" in findings[0]["message"]
    assert "suggested_entry" not in document
    assert not any("append one" in f["message"] for f in findings)
    text = run(repo, "verify", "--base", "main")
    assert "suggested entry" not in text.stdout


def test_two_entries_of_one_branch_for_the_same_selection_are_named(repo: GitRepo) -> None:
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, LOG: HISTORY})
    repo.git("checkout", "-q", "-b", "feature")
    twice = HISTORY + "\n" + OWN + "\n" + entry("b-vllm", "Bump b again")
    repo.commit("entries", **{LOG: twice})
    done = run(repo, "verify", "--base", "main", "--format", "json")
    findings = json.loads(done.stdout)["findings"]
    doubled = [f for f in findings if f["code"] == "duplicate-entry"]
    assert len(doubled) == 1 and doubled[0]["severity"] == "warning"
    assert doubled[0]["line"] == 19 and "line 13" in doubled[0]["message"]
