"""Every YAML file the project ships or writes is YAML as GitHub and pre-commit read
it, and every action it uses is pinned by commit with its tag beside it, the same pin
everywhere. (``.ci/run`` checks the same files against their schemas with
``check-jsonschema`` and audits them with ``zizmor``.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from conftest import ROOT, GitRepo
from projects import NVIDIA, NVIDIA_TEXT, run

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*.yml"))
SHIPPED = [*WORKFLOWS, *EXAMPLES, ROOT / "action.yml", ROOT / ".pre-commit-hooks.yaml"]
USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(?P<value>.*)$")
PINNED = re.compile(
    r"(?P<action>[A-Za-z0-9_.-]+/[A-Za-z0-9_./-]+)@(?P<sha>[0-9a-f]{40}) # (?P<tag>v\d+(?:\.\d+)*)"
)
SOURCE = "https://github.com/acme/perf-changelog@v1.2.3"


def written_workflow(repo: GitRepo) -> str:
    """The workflow ``changelog init`` writes, in a throwaway repository."""
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT})
    done = run(repo, "init", "--source", SOURCE)
    assert done.returncode == 0, done.stderr
    return (repo.root / ".github" / "workflows" / "perf-changelog.yml").read_text()


def uses_lines(text: str) -> list[str]:
    return [m["value"].strip() for line in text.splitlines() if (m := USES.match(line))]


def test_the_files_are_found() -> None:
    assert [p.name for p in WORKFLOWS] == ["ci.yml", "release.yml"]
    assert [p.name for p in EXAMPLES] == ["perf-changelog-finalize.yml"]


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_each_shipped_file_is_yaml_as_github_reads_it(path: Path) -> None:
    """PyYAML's YAML 1.1 reader: a ``name:`` with an unquoted ``: `` inside is refused
    here as GitHub refuses the whole workflow."""
    assert yaml.safe_load(path.read_text(encoding="utf-8"))


def test_the_workflow_init_writes_is_yaml_and_fetches_no_whole_history(repo: GitRepo) -> None:
    """The Action fetches the base and deepens a shallow clone itself."""
    text = written_workflow(repo)
    workflow = yaml.safe_load(text)
    (checkout,) = [s for s in workflow["jobs"]["gate"]["steps"] if "checkout" in s["uses"]]
    assert "fetch-depth" not in checkout.get("with", {})
    assert "fetch-depth" not in text


def pins(text: str, where: str, external_only: bool = True) -> dict[str, tuple[str, str]]:
    found: dict[str, tuple[str, str]] = {}
    for value in uses_lines(text):
        if external_only and value.startswith("acme/perf-changelog@"):
            continue  # the tool's own Action, at the ref `init --source` was given
        match = PINNED.fullmatch(value)
        assert match, f"{where}: `uses: {value}` is not pinned by commit with its tag"
        found[match["action"]] = (match["sha"], match["tag"])
    return found


def test_every_action_is_pinned_by_commit_with_its_tag_and_the_same_everywhere(
    repo: GitRepo,
) -> None:
    seen: dict[str, tuple[str, str, str]] = {}
    texts = {p.relative_to(ROOT).as_posix(): p.read_text() for p in SHIPPED}
    texts["init's workflow"] = written_workflow(repo)
    for where, text in texts.items():
        for action, (sha, tag) in pins(text, where).items():
            first = seen.setdefault(action, (sha, tag, where))
            assert first[:2] == (sha, tag), f"{action}: {where} and {first[2]} differ"
    assert {"actions/checkout", "actions/setup-python", "actions/cache"} <= set(seen)
    assert "actions/create-github-app-token" in seen
