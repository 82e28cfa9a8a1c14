"""A throwaway benchmark repository for ``changelog demo``: package data under ``history/``
committed with real git."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

from changelog_tool.errors import UsageError
from changelog_tool.gitrepo import run_git

BRANCH = "kimik3-b300-agentic"
BASE = "main"
MAIN = [  # (folder under history/, day of June 2026, message)
    ("1", 1, "Add DeepSeek-R1, GPT-OSS, Llama and Kimi-K3 configs (#101)"),
    ("2", 2, "Add Kimi-K3 TP8 x PP2 aggregated agentic recipe on B200 (#103)"),
    ("3", 3, "[AMD] Bump SGLang ROCm image for DeepSeek-R1 FP4 MI355X (#104)"),
]
ON_BRANCH = "Add Kimi-K3 B300 agentic; GPT-OSS MI355X nightly image with agentic sweep"


@dataclass(frozen=True)
class Sandbox:
    root: Path
    branch: str = BRANCH
    base: str = BASE

    @property
    def changelog(self) -> Path:
        return self.root / "perf-changelog.yaml"


# --- building ---------------------------------------------------------------------


def _commit(root: Path, folder: str, day: int, message: str) -> None:
    source = str(files("changelog_tool.demo") / "history" / folder)
    shutil.copytree(source, root, copy_function=shutil.copyfile, dirs_exist_ok=True)
    env = dict(os.environ)
    for role in ("AUTHOR", "COMMITTER"):
        env[f"GIT_{role}_NAME"] = "Demo Contributor"
        env[f"GIT_{role}_EMAIL"] = "demo@example.invalid"
        env[f"GIT_{role}_DATE"] = f"2026-06-{day:02d}T12:00:00+00:00"
    run_git(root, "add", "-A")
    run_git(
        root, "-c", "commit.gpgsign=false", "commit", "-q", "--no-verify", "-m", message, env=env
    )


def build(dest: Path) -> Sandbox:
    """Create the demo repository in ``dest`` (missing or empty) and check out the branch."""
    if dest.exists() and any(dest.iterdir()):
        raise UsageError(f"{dest} is not empty; name a new directory for the demo repository")
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    run_git(root, "init", "-q")
    run_git(root, "symbolic-ref", "HEAD", f"refs/heads/{BASE}")
    for folder, day, message in MAIN:
        _commit(root, folder, day, message)
    run_git(root, "checkout", "-q", "-b", BRANCH)
    _commit(root, "4", 10, ON_BRANCH)
    return Sandbox(root)
