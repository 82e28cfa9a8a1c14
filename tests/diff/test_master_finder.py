"""One master-config finder: `add` (the work tree's masters) and `verify` (the diff
engine's walk) find the same files, and refuse a symbolic link where a master config
is looked for alike, so `add` never appends what the committed result's gate fails."""

from __future__ import annotations

from pathlib import Path

from conftest import GitRepo
from projects import AMD, AMD_TEXT, HISTORY, LOG, NVIDIA, NVIDIA_TEXT, run


def test_a_symlinked_master_config_is_refused_by_add_and_verify_alike(
    repo: GitRepo, tmp_path: Path
) -> None:
    real = repo.root / "elsewhere" / "nvidia.yaml"
    real.parent.mkdir()
    real.write_text(NVIDIA_TEXT)
    repo.commit("base", **{AMD: AMD_TEXT, LOG: HISTORY, "elsewhere/nvidia.yaml": NVIDIA_TEXT})
    (repo.root / NVIDIA).symlink_to(Path("..") / "elsewhere" / "nvidia.yaml")
    repo.git("add", NVIDIA)
    repo.git("commit", "-q", "-m", "the nvidia master is a link")
    repo.git("checkout", "-q", "-b", "feature")
    before = repo.read(LOG)
    added = run(repo, "add", "--key", "a-vllm", "--description", "Bump a", "--no-input")
    assert added.returncode == 2, added.stdout + added.stderr
    assert f"{NVIDIA} is a symbolic link where a master config is looked for" in added.stderr
    assert repo.read(LOG) == before
    verified = run(repo, "verify", "--base", "main")
    assert verified.returncode != 0
    assert f"{NVIDIA} is a symbolic link where a master config is looked for" in verified.stdout
