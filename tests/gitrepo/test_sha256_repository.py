"""A SHA-256 repository is read as a SHA-1 one is: refs, the merge-base, trees and
blobs (object ids 64 hex digits wide), and the merge driver's read of the protected
ref. GitPython's readers take 40-digit ids only, which is why the tool's own
``cat-file`` reader stays (docs/design.md)."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import GitRepo
from projects import AMD, AMD_TEXT, HISTORY, LOG, NVIDIA, NVIDIA_TEXT, entry, key_block, run

from changelog_tool.gitrepo import Repo, protected_blob


def _sha256_project(tmp_path: Path) -> GitRepo:
    repo = GitRepo(tmp_path / "repo")
    repo.root.mkdir()
    repo.git("init", "-q", "-b", "main", "--object-format=sha256")
    repo.commit("base", **{NVIDIA: NVIDIA_TEXT, AMD: AMD_TEXT, LOG: HISTORY})
    repo.git("checkout", "-q", "-b", "feature")
    bumped = NVIDIA_TEXT.replace(key_block("b-vllm"), key_block("b-vllm", "vllm/vllm-openai:v2"))
    repo.commit("bump", **{NVIDIA: bumped, LOG: HISTORY + "\n" + entry("b-vllm", "Bump b")})
    return repo


def test_verify_reads_a_sha256_repositorys_commits(tmp_path: Path) -> None:
    repo = _sha256_project(tmp_path)
    done = run(repo, "verify", "--base", "main", "--head", "HEAD", "--format", "json")
    assert done.returncode == 0, done.stdout + done.stderr
    document = json.loads(done.stdout)
    assert document["changed"]["modified"] == {"b-vllm": ["image"]}


def test_the_protected_refs_blob_and_trees_of_a_sha256_repository(tmp_path: Path) -> None:
    repo = _sha256_project(tmp_path)
    assert protected_blob(repo.root, ["origin/main", "main"], LOG) == ("main", HISTORY.encode())
    with Repo.open(repo.root) as opened:
        head = opened.resolve("HEAD")
        assert len(head) == 64 and opened.merge_base("main", head) == repo.git("rev-parse", "main")
        files = opened.tree_files(head, ["configs/*.yaml"])
        assert files == {
            AMD: repo.git("rev-parse", f"HEAD:{AMD}"),
            NVIDIA: repo.git("rev-parse", f"HEAD:{NVIDIA}"),
        }
        assert opened.read(head, NVIDIA) == repo.read(NVIDIA)
