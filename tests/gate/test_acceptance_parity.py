"""One rule, every path: the same candidate entry gets the same verdict from `add`
with flags, `add --json`, the TUI's session (preview and save) and `verify --base`
on the entry appended by hand (real git, the real CLI)."""

from __future__ import annotations

import json

import pytest
from conftest import GitRepo
from projects import run

from changelog_tool import settings as settings_module
from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.session import AddSession
from changelog_tool.errors import ChangelogError
from changelog_tool.ledger import writer
from changelog_tool.ledger.emitter import emit
from changelog_tool.ledger.entry import normalize

LINK = "https://github.com/acme/bench/pull"
MASTER = (
    "k-vllm:\n  image: a\n  scenarios:\n    fixed-seq-len:\n    - {isl: 1024, osl: 1024}\n"
    "j-vllm:\n  image: a\n  scenarios:\n    agentic-coding:\n    - {users: 8}\n"
)
OLD = f'- config-keys:\n    - k-vllm\n  description:\n    - "old"\n  pr-link: {LINK}/1\n'

CANDIDATES = {
    # name: (draft, checked-out branch, accepted?)
    "valid": (Draft(["k-vllm"], ["fixed-seq-len"], ["Bump"], f"{LINK}/2"), "feature", True),
    "pattern": (Draft(["*-vllm"], [], ["Bump all"]), "feature", True),
    "placeholder-on-branch": (Draft(["k-vllm"], [], ["Bump"]), "feature", True),
    "dangling-pattern": (Draft(["k-vlm"], [], ["Typo"], f"{LINK}/2"), "feature", False),
    "scenario-mismatch": (
        Draft(["k-vllm"], ["agentic-coding"], ["x"], f"{LINK}/2"),
        "feature",
        False,
    ),
    "schema": (
        Draft(["k-vllm"], [], ["x"], f"{LINK}/2", flags=["evals-only", "append-only"]),
        "feature",
        False,
    ),
    "other-repository": (
        Draft(["k-vllm"], [], ["x"], "https://github.com/evil/fork/pull/2"),
        "feature",
        False,
    ),
    "placeholder-on-protected": (Draft(["k-vllm"], [], ["Bump"]), "main", False),
}


@pytest.fixture
def parity_project(repo: GitRepo) -> GitRepo:
    repo.commit(
        "base",
        **{
            "configs/nvidia-master.yaml": MASTER,
            "perf-changelog.yaml": OLD,
            ".perf-changelog.toml": 'repository = "acme/bench"\n',
        },
    )
    repo.git("branch", "feature")
    return repo


def flag_args(draft: Draft) -> list[str]:
    args = [a for key in draft.keys for a in ("--key", key)]
    args += [a for kind in draft.scenario_types for a in ("--scenario-type", kind)]
    args += [a for text in draft.description for a in ("--description", text)]
    args += ["--pr-link", draft.pr_link] if draft.pr_link else []
    args += [f"--{flag}" for flag in draft.flags]
    return args


def verdicts(parity_project: GitRepo, draft: Draft) -> dict[str, bool]:
    root, path = parity_project.root, parity_project.root / "perf-changelog.yaml"
    found: dict[str, bool] = {}
    done = run(root, "add", "--no-input", *flag_args(draft))
    assert done.returncode in (0, 1), done.stderr
    found["add flags"] = done.returncode == 0
    path.write_text(OLD)
    entry = normalize(draft.to_entry("XXX"))
    done = run(root, "add", "--json", stdin=json.dumps(entry))
    assert done.returncode in (0, 1), done.stderr
    found["add --json"] = done.returncode == 0
    path.write_text(OLD)
    session = AddSession(settings_module.load(root), path)
    preview = session.preview(draft)
    found["tui preview"] = bool(preview.appended) and not preview.problems
    try:
        session.save(draft)
        found["tui save"] = True
    except ChangelogError:
        found["tui save"] = False
    path.write_text(OLD)
    path.write_bytes(OLD.encode() + writer.plan_append(OLD.encode(), [emit(entry)]))
    done = run(root, "verify", "--base", "main", "--format", "json")
    assert done.returncode in (0, 1), done.stderr
    found["verify"] = done.returncode == 0
    path.write_text(OLD)
    return found


@pytest.mark.parametrize("name", sorted(CANDIDATES))
def test_every_path_gives_the_same_verdict(
    parity_project: GitRepo, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    draft, branch, accepted = CANDIDATES[name]
    parity_project.git("checkout", "-q", branch)
    monkeypatch.chdir(parity_project.root)
    found = verdicts(parity_project, draft)
    assert found == dict.fromkeys(found, accepted), found
