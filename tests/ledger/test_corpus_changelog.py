"""Real data: every historical perf-changelog.yaml, and every real append replayed.

Skipped when ../shared/corpus is absent. Nothing from the corpus is copied
into the project; the bundle is cloned into tmp at run time.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from changelog_tool import settings as settings_module
from changelog_tool.commands.add import append_entries
from changelog_tool.diff.masters import MasterFile, MasterSet
from changelog_tool.errors import ChangelogError
from changelog_tool.gate.acceptance import Rules, rejections
from changelog_tool.ledger.entry import normalize
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.yaml.strict import load_value

# Versions of the real file that really are broken, by first 9 hex digits of the
# replayed commit, with the error codes `verify --file` gives them:
KNOWN_BROKEN = {
    "dc991c38a": {"final-newline", "schema"},  # first version: no pr-link, descriptions as text
    "ee3cb25b2": {"schema"},  # ...the same old entry format, fixed over the next commits
    "00e5a06f9": {"schema"},
    "b4f582d22": {"schema"},
    "873412f76": {"final-newline"},
    "e38ddcfff": {"final-newline"},
    "0925c71fc": {"final-newline"},
    "770229c0e": {"final-newline"},
    "7d03ba63d": {"schema"},  # pr-link: test
    "9d3a8063d": {"schema"},  # an entry without pr-link, for six versions until fixed
    "cfcf5c2c1": {"schema"},
    "dd90765dd": {"schema"},
    "f029efd57": {"schema"},
    "17917bfd9": {"schema"},  # ...and a second one without pr-link
    "a1a90b6fb": {"schema"},
    "0e83fcb29": {"duplicate-yaml-key"},  # one entry with description and pr-link twice
    "7bf621fa8": {"yaml-syntax"},  # an entry whose list items lost their indentation
}
# Real appends `add` refuses: 19 whose own pr-link today's rules reject (the one real append
# with a pattern that matched no key at its commit, dc991c38a, has no pr-link either), and 4
# made after a version whose last entry fails the schema or that lacks its final newline:
# whatever is appended there fails CI, so `add` refuses until the file is fixed.
REFUSED_APPENDS = 23


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from conftest import CORPUS

    bundle = CORPUS / "inferencex-data.bundle"
    if not bundle.is_file():
        pytest.skip("../shared/corpus is absent")
    target = tmp_path_factory.mktemp("corpus") / "inferencex"
    subprocess.run(["git", "clone", "-q", str(bundle), str(target)], check=True)
    return target


class Blobs:
    """Reads files at commits through one `git cat-file --batch` process."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            ["git", "cat-file", "--batch"], cwd=root, stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )

    def read(self, rev: str, path: str = "perf-changelog.yaml") -> bytes | None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(f"{rev}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if header[-1] == b"missing":
            return None
        data = self.proc.stdout.read(int(header[2]))
        self.proc.stdout.read(1)
        return data

    def close(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture(scope="module")
def blobs(clone: Path) -> Iterator[Blobs]:
    reader = Blobs(clone)
    yield reader
    reader.close()


def changelog_commits(clone: Path) -> list[str]:
    out = subprocess.run(
        ["git", "log", "--reverse", "--format=%H", "--", "perf-changelog.yaml"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return out.split()


def test_every_historical_version_passes_verify_file_unless_really_broken(
    clone: Path, blobs: Blobs
) -> None:
    broken: dict[str, set[str]] = {}
    commits = changelog_commits(clone)
    for sha in commits:
        data = blobs.read(sha)
        assert data is not None
        report = check_file(data, "perf-changelog.yaml")
        errors = {f.code for f in report.findings if f.severity == "error"}
        if errors:
            broken[sha[:9]] = errors
    assert len(commits) > 500
    assert broken == KNOWN_BROKEN


def test_every_real_append_replayed_with_add_meets_the_contract(
    clone: Path, blobs: Blobs, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from conftest import CORPUS

    settings = settings_module.load(tmp_path)
    replayed = refused = 0
    for line in (CORPUS / "commits.jsonl").read_text().splitlines():
        record = json.loads(line)
        entries = record["changelog"]["appended_entries"]
        if not entries:
            continue
        parent = blobs.read(f"{record['replay_sha']}^")
        if parent is None:
            continue
        sha = record["replay_sha"]
        rules = Rules(settings, masters_at(clone, blobs, sha), slug=None)
        valid = [normalize(e) for e in entries]
        found = [r for e in valid for r in rejections(e, rules)]
        if found:
            # The entry itself breaks today's rules: no pr-link at all, 'test', or the
            # placeholder spelled XXXX, which the existing CI does not accept; or a
            # pattern that matched no key when it was appended.
            dangling = record["coverage"]["dangling_patterns"]
            patterns = [r.text for r in found if r.code == "dangling-pattern"]
            assert all(p in dangling for p in patterns), (sha, patterns)
            assert patterns or any("pr-link" in str(r) for r in found), (sha, found)
            refused += 1
            continue
        target = tmp_path / "perf-changelog.yaml"
        target.write_bytes(parent)
        try:
            append_entries(valid, path=target, dry_run=False, init=False, as_json=True)
        except ChangelogError as exc:
            # only a parent whose last entry is itself broken may be refused
            assert "refusing to append" in str(exc), record["replay_sha"]
            refused += 1
            continue
        capsys.readouterr()
        new = target.read_bytes()
        suffix = new[len(parent) :]
        assert new.startswith(parent)
        expected_start = b"- config-keys:" if parent.endswith(b"\n\n") else b"\n- config-keys:"
        if not parent.endswith(b"\n"):
            expected_start = b"\n\n- config-keys:"
        assert suffix.startswith(expected_start)
        assert new.endswith(b"\n") and not new.endswith(b"\n\n")
        appended = load_value(suffix)
        assert appended == valid
        assert appended == [{k: v for k, v in e.items()} for e in entries]
        assert suffix.count(b"\n- config-keys:") + suffix.startswith(b"- config-keys:") == len(
            entries
        )
        assert b"\n\n\n" not in suffix
        assert ci_count(new) == ci_count(parent) + len(entries)
        replayed += 1
    assert replayed > 400
    assert refused == REFUSED_APPENDS


def ci_count(data: bytes) -> int:
    """Lines that begin with ``- config-keys:``: how the existing CI counts entries."""
    return len(re.findall(rb"^- config-keys:", data, re.MULTILINE))


def masters_at(clone: Path, blobs: Blobs, sha: str) -> MasterSet:
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", sha, "configs", ".github/configs"],
        cwd=clone,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    paths = [p for p in names if p.endswith("-master.yaml") and "/deprecated/" not in p]
    return MasterSet(MasterFile(p, blobs.read(sha, p) or b"") for p in paths)
