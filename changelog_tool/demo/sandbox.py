"""A throwaway, realistic benchmark repository built in code with real git.

Used by ``changelog demo`` (and its tests): two master configs of about a
dozen keys each, a recipe tree referenced via ``CONFIG_FILE=recipes/...``, a
changelog with some history on ``main``, and a checked-out branch that adds a
key, changes another key's image and scenarios, and edits a recipe.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.demo.content import (
    DSR1_GB200,
    DSR1_GB200_AGENTIC,
    HISTORY,
    KIMI_B200,
    KIMI_B300,
    RECIPES,
    SLUG,
    TRT_B200,
    amd,
    generic_recipe,
    nvidia,
    recipe,
)
from changelog_tool.errors import UsageError
from changelog_tool.gitrepo import run_git

BRANCH = "kimik3-b300-agentic"
BASE = "main"


@dataclass(frozen=True)
class Sandbox:
    root: Path
    branch: str = BRANCH
    base: str = BASE

    @property
    def changelog(self) -> Path:
        return self.root / "perf-changelog.yaml"


# --- building ---------------------------------------------------------------------


def _env(day: int) -> dict[str, str]:
    env = dict(os.environ)
    date = f"2026-06-{day:02d}T12:00:00+00:00"
    env.update(
        {
            "GIT_AUTHOR_NAME": "Demo Contributor",
            "GIT_AUTHOR_EMAIL": "demo@example.invalid",
            "GIT_COMMITTER_NAME": "Demo Contributor",
            "GIT_COMMITTER_EMAIL": "demo@example.invalid",
            "GIT_AUTHOR_DATE": date,
            "GIT_COMMITTER_DATE": date,
        }
    )
    return env


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _commit(root: Path, message: str, day: int, files: dict[str, str]) -> None:
    _write(root, files)
    run_git(root, "add", "-A")
    run_git(
        root,
        "-c",
        "commit.gpgsign=false",
        "commit",
        "-q",
        "--no-verify",
        "-m",
        message,
        env=_env(day),
    )


def build(dest: Path) -> Sandbox:
    """Create the demo repository in ``dest`` (missing or empty) and check out the branch."""
    if dest.exists() and any(dest.iterdir()):
        raise UsageError(f"{dest} is not empty; name a new directory for the demo repository")
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    run_git(root, "init", "-q")
    run_git(root, "symbolic-ref", "HEAD", f"refs/heads/{BASE}")
    changelog = ""
    recipes = {
        f"{RECIPES}/{KIMI_B200}": recipe("kimi-k3-agg-b200-tp8pp2-agentic", "b200"),
        f"{RECIPES}/{DSR1_GB200}": generic_recipe("sglang/deepseek-r1/1k1k"),
        f"{RECIPES}/{DSR1_GB200_AGENTIC}": generic_recipe("sglang/deepseek-r1/agentic"),
        f"{RECIPES}/{TRT_B200}": generic_recipe("trtllm/b200-fp4/1k1k"),
    }
    first = {
        "configs/nvidia-master.yaml": nvidia(branch=False),
        "configs/amd-master.yaml": amd(branch=False),
        ".perf-changelog.toml": f'repository = "{SLUG}"\n',
        "README.md": "# inferencex-demo\n\nA throwaway repository built by `changelog demo`.\n",
        **recipes,
    }
    for day, (message, entries) in enumerate(HISTORY, 1):
        changelog += ("\n" if changelog else "") + "\n".join(entries)
        files = dict(first) if day == 1 else {}
        files["perf-changelog.yaml"] = changelog
        _commit(root, message, day, files)
    run_git(root, "checkout", "-q", "-b", BRANCH)
    _commit(
        root,
        "Add Kimi-K3 B300 agentic; GPT-OSS MI355X nightly image with agentic sweep",
        10,
        {
            "configs/nvidia-master.yaml": nvidia(branch=True),
            "configs/amd-master.yaml": amd(branch=True),
            f"{RECIPES}/{KIMI_B300}": recipe("kimi-k3-agg-b300-tp8pp2-agentic", "b300"),
            f"{RECIPES}/{KIMI_B200}": recipe(
                "kimi-k3-agg-b200-tp8pp2-agentic", "b200", max_num_seqs=512
            ),
        },
    )
    return Sandbox(root)
