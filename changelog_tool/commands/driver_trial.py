"""``install --check``'s trial merge: git itself runs the configured driver in ``git merge
feature`` in a temporary repository; trace2 gives its exit code and the work tree what ``%A``
held. See docs/usage.md."""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.gitrepo import run_git

PATH = "perf-changelog.yaml"
TRIAL_DRIVER = "perf-changelog-trial"
TIMEOUT = 60.0
"""Seconds the trial waits for the merge (of three tiny files)."""
SCRUBBED = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CEILING_DIRECTORIES",
)
"""Variables that would point the trial's git (and the driver) at another repository."""
IDENTITY = {
    "GIT_AUTHOR_NAME": "perf-changelog install --check",
    "GIT_AUTHOR_EMAIL": "check@example.invalid",
    "GIT_COMMITTER_NAME": "perf-changelog install --check",
    "GIT_COMMITTER_EMAIL": "check@example.invalid",
}
WORK_TREE_MODULE = "changelog_tool"
"""A package of that name at the top of the trial's work tree, as a branch could add:
a driver that imports it (a Python not isolated) leaves :data:`IMPORTED` behind."""
IMPORTED = "imported-from-the-work-tree"


def _entry(key: str, number: int) -> bytes:
    return (
        f'- config-keys:\n    - {key}\n  description:\n    - "Add {key}"\n'
        f"  pr-link: https://github.com/acme/bench/pull/{number}\n"
    ).encode()


BASE = _entry("a-vllm", 1)
MAIN = BASE + b"\n" + _entry("b-vllm", 2)
"""``%A``: the protected branch's file, which the merge writes."""
BRANCH = BASE + b"\n" + _entry("c-vllm", 3)
"""``%B``: the branch's file, with its own new entry."""
MERGED = MAIN + b"\n" + _entry("c-vllm", 3)
"""What a working driver leaves in ``%A``: main's bytes, then the branch's own entry."""


@dataclass(frozen=True)
class Trial:
    """What git would see: the driver's exit code (``None``: did not finish), whether it exits 0
    with the merge in ``%A``, and the words for it."""

    exit_code: int | None
    ok: bool
    said: str


NOTHING_TO_RUN = Trial(None, False, "no command to run")


def run(command: str, git_files: Mapping[Path, bytes] | None = None) -> Trial:
    """The driver ``command`` run by git in a trial merge in a temporary repository whose git
    directory holds ``git_files``."""
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    with tempfile.TemporaryDirectory(prefix="perf-changelog-check-") as folder:
        top = Path(folder).resolve()
        _repository(top, {**env, **IDENTITY}, command)
        for relative, content in (git_files or {}).items():
            (top / ".git" / relative).parent.mkdir(parents=True, exist_ok=True)
            (top / ".git" / relative).write_bytes(content)
        trace = top / ".git" / "trace2.json"
        try:
            done = subprocess.run(
                ["git", "-c", f"core.hooksPath={os.devnull}", "merge", "--no-commit", "feature"],
                cwd=top,
                env={**env, "GIT_TRACE2_EVENT": str(trace)},
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Trial(None, False, f"did not finish within {TIMEOUT:.0f} s")
        started = _driver_exit(trace)
        if started is None:
            return Trial(None, False, f"git did not run it: {done.stderr.strip()}")
        code, line = started
        result = (top / PATH).read_bytes()
        if (top / IMPORTED).exists():
            return Trial(
                code,
                False,
                f"imports the work tree's own {WORK_TREE_MODULE}/ instead of the tool: its "
                "Python is not isolated, so a branch's modules would run inside every merge",
            )
    # the shell names itself by the command line, temp file names and all
    return _judge(code, result, done.stderr.replace(f"{line}: ", "sh: "))


def _driver_exit(trace: Path) -> tuple[int, str] | None:
    """The driver's exit code and command line, from the merge's own trace2 events."""
    events = [json.loads(line) for line in trace.read_text().splitlines()] if trace.exists() else []
    own = [e for e in events if e["sid"] == events[0]["sid"]]
    shell = {
        e["child_id"]: e["argv"][0] for e in own if e["event"] == "child_start" and e["use_shell"]
    }
    ended = [
        (e["code"], shell[e["child_id"]])
        for e in own
        if e["event"] == "child_exit" and e["child_id"] in shell
    ]
    return ended[0] if ended else None


def _repository(top: Path, env: dict[str, str], command: str) -> None:
    """``main`` and ``feature`` each adding an entry, ``command`` the merge driver, and a decoy
    package only a non-isolated driver would import."""
    run_git(top, "init", "-q", env=env)
    run_git(top, "symbolic-ref", "HEAD", "refs/heads/main", env=env)
    run_git(top, "config", f"merge.{TRIAL_DRIVER}.driver", command, env=env)
    (top / ".git" / "info" / "attributes").write_text(f"{PATH} merge={TRIAL_DRIVER} -text\n")

    def commit(data: bytes, message: str) -> None:
        (top / PATH).write_bytes(data)
        run_git(top, "add", PATH, env=env)
        run_git(
            top,
            *("-c", "commit.gpgsign=false", "-c", f"core.hooksPath={os.devnull}"),
            *("commit", "-q", "--no-verify", "-m", message),
            env=env,
        )

    commit(BASE, "base")
    run_git(top, "checkout", "-q", "-b", "feature", env=env)
    commit(BRANCH, "feature")
    run_git(top, "checkout", "-q", "main", env=env)
    commit(MAIN, "main")
    package = top / WORK_TREE_MODULE
    package.mkdir()
    (package / "__init__.py").write_text(
        f"import sys\nopen({IMPORTED!r}, 'w').close()\nsys.exit(97)\n"
    )


def _judge(code: int, result: bytes, stderr: str) -> Trial:
    if code == 0 and result == MERGED:
        return Trial(0, True, "exits 0 and %A holds the merge: main's entries, then the branch's")
    if code == 0:
        return Trial(
            0, False, f"exits 0, but %A {_holds(result)}: git would commit that as the merge"
        )
    hint = {
        127: "the program was not found (the virtualenv was moved or deleted?)",
        126: "the program cannot be run",
    }.get(code)
    last = (stderr.strip().splitlines() or [""])[-1].strip()
    said = "; ".join(filter(None, (hint, last)))
    return Trial(
        code,
        False,
        f"exits {code}{f' ({said})' if said else ''}: git would see a conflict where the "
        f"driver should merge, and %A {_holds(result)}",
    )


def _holds(result: bytes) -> str:
    if result == MERGED:
        return "holds the merge"
    if b"\n<<<<<<<" in b"\n" + result:
        return "holds conflict markers"
    named = {MAIN: "main's file unchanged", BRANCH: "the branch's file", BASE: "the merge base"}
    if result in named:
        return f"holds {named[result]}, not the merge"
    return "holds something other than the merge"
