"""`install --check`'s trial merge: the configured driver command, run as git runs it,
on a tiny three-way merge in a temporary repository.

Git (``ll-merge.c``) writes the three sides to temp files named ``.merge_file_XXXXXX``
at the top of the work tree, replaces ``%O`` ``%A`` ``%B`` with their names, ``%L``
with the conflict-marker size and ``%P`` with the path (single-quoted for the shell),
runs the result through the shell from the top of the work tree, and takes what
``%A`` then holds: exit 0 is a clean merge, anything else a conflict. The trial does
the same, as ``git merge feature`` on ``main`` would, and says what git would see:
the exit code, and whether ``%A`` holds the merge (main's entries, then the
branch's own). So a command that misses ``%P``, names a moved interpreter or
passes the files in the wrong order is never called ready, whatever it looks like.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from changelog_tool.gitrepo import run_git

PATH = "perf-changelog.yaml"
MARKER_SIZE = 7
"""Git's default conflict-marker size (``%L``)."""
SHELL_META = set("|&;<>()$`\\\"' \t\n*?[#~=%")
"""The characters that make git run a command through ``sh -c`` (``run-command.c``)."""
TIMEOUT = 60.0
"""Seconds the trial waits for the driver (a merge of three tiny files)."""
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
    """What git would see: the driver's exit code (``None``: it did not run to the
    end), whether ``%A`` holds the merge, and the words for it."""

    exit_code: int | None
    merged: bool
    said: str

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and self.merged


def sq_quote(text: str) -> str:
    """Git's ``sq_quote_buf``: single quotes around, ``'`` and ``!`` escaped."""
    return "'" + text.replace("'", "'\\''").replace("!", "'\\!'") + "'"


def expand(command: str, o: str, a: str, b: str, path: str) -> str:
    """The command line git runs for ``merge.<name>.driver``: ``%O %A %B`` the temp
    files, ``%L`` the marker size, ``%P`` the quoted path, ``%S %X %Y`` the quoted
    labels (the trial's: base, ours, theirs); any other ``%`` kept."""
    values = {
        "O": o,
        "A": a,
        "B": b,
        "L": str(MARKER_SIZE),
        "P": sq_quote(path),
        "S": sq_quote("base"),
        "X": sq_quote("ours"),
        "Y": sq_quote("theirs"),
    }
    out, at = [], 0
    while at < len(command):
        char, after = command[at], command[at + 1 : at + 2]
        if char == "%" and after and after in values:
            out.append(values[after])
            at += 2
            continue
        out.append(char)
        at += 1
    return "".join(out)


def shell_argv(line: str) -> list[str]:
    """How git starts a command line with ``use_shell``: directly when it holds no
    shell character, else through ``sh -c``."""
    return ["sh", "-c", line] if SHELL_META.intersection(line) else [line]


def run(command: str, git_files: Mapping[Path, bytes] | None = None) -> Trial:
    """The configured driver ``command`` run as git runs it in ``git merge feature``
    on ``main``, in a temporary repository that is removed afterwards, whose git
    directory holds ``git_files`` (the clone's driver script)."""
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}
    with tempfile.TemporaryDirectory(prefix="perf-changelog-check-") as folder:
        top = Path(folder).resolve()
        _repository(top, {**env, **IDENTITY})
        for relative, content in (git_files or {}).items():
            (top / ".git" / relative).parent.mkdir(parents=True, exist_ok=True)
            (top / ".git" / relative).write_bytes(content)
        names = []
        for data in (BASE, MAIN, BRANCH):
            handle, name = tempfile.mkstemp(prefix=".merge_file_", dir=top)
            with os.fdopen(handle, "wb") as file:
                file.write(data)
            names.append(Path(name).name)
        line = expand(command, names[0], names[1], names[2], PATH)
        git_env = {**env, "GIT_REFLOG_ACTION": "merge feature", "GIT_PREFIX": ""}
        try:
            done = subprocess.run(
                shell_argv(line),
                cwd=top,
                env=git_env,
                capture_output=True,
                text=True,
                timeout=TIMEOUT,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return Trial(None, False, f"did not finish within {TIMEOUT:.0f} s")
        except OSError as exc:
            return Trial(None, False, f"cannot start: {exc.strerror or exc}")
        result = (top / names[1]).read_bytes()
        if (top / IMPORTED).exists():
            return Trial(
                done.returncode,
                False,
                f"imports the work tree's own {WORK_TREE_MODULE}/ instead of the tool: its "
                "Python is not isolated, so a branch's modules would run inside every merge",
            )
    return _judge(done.returncode, result, done.stderr)


WORK_TREE_MODULE = "changelog_tool"
"""A package of that name at the top of the trial's work tree, as a branch could add:
a driver that imports it (a Python not isolated) leaves :data:`IMPORTED` behind."""
IMPORTED = "imported-from-the-work-tree"


def _repository(top: Path, env: dict[str, str]) -> None:
    """``main`` holding main's file, checked out, as the driver finds it in a merge,
    with a package of the tool's name in the work tree that only a driver not
    isolated from it would import."""
    package = top / WORK_TREE_MODULE
    package.mkdir()
    (package / "__init__.py").write_text(
        f"import sys\nopen({IMPORTED!r}, 'w').close()\nsys.exit(97)\n"
    )
    run_git(top, "init", "-q", env=env)
    run_git(top, "symbolic-ref", "HEAD", "refs/heads/main", env=env)
    (top / PATH).write_bytes(MAIN)
    run_git(top, "add", PATH, env=env)
    run_git(
        top,
        *("-c", "commit.gpgsign=false", "-c", f"core.hooksPath={os.devnull}"),
        *("commit", "-q", "--no-verify", "-m", "main"),
        env=env,
    )


def _judge(code: int, result: bytes, stderr: str) -> Trial:
    last = (stderr.strip().splitlines() or [""])[-1].strip()
    if code < 0:
        return Trial(code, False, f"killed by signal {-code}: git would see a conflict")
    holds = _holds(result)
    if code != 0:
        hint = {
            127: "the program was not found (the virtualenv was moved or deleted?)",
            126: "the program cannot be run",
        }
        said = "; ".join(filter(None, (hint.get(code), last)))
        return Trial(
            code,
            False,
            f"exits {code}{f' ({said})' if said else ''}: git would see a conflict where the "
            f"driver should merge, and %A {holds}",
        )
    merged = result == MERGED
    if merged:
        return Trial(0, True, "exits 0 and %A holds the merge: main's entries, then the branch's")
    return Trial(0, False, f"exits 0, but %A {holds}: git would commit that as the merge")


def _holds(result: bytes) -> str:
    """What the result file holds, in words."""
    if result == MERGED:
        return "holds the merge"
    if b"\n<<<<<<<" in b"\n" + result:
        return "holds conflict markers"
    named = {MAIN: "main's file unchanged", BRANCH: "the branch's file", BASE: "the merge base"}
    if result in named:
        return f"holds {named[result]}, not the merge"
    return "holds something other than the merge"
