"""`changelog init [--dry-run]`: adopt the tool in a repository in one command.

It finds the changelog and the master configs, then writes only what is missing,
each step idempotent: settings (``.perf-changelog.toml``) only where the defaults
do not fit, the ``.gitattributes`` line for the merge driver, a GitHub workflow
that runs the gate through the Action, and a pre-commit hook entry. ``--dry-run``
prints the exact bytes each file would get and writes nothing. Afterwards
``changelog verify`` works with no further step; each clone still runs
``changelog install`` once for the merge driver's local config.
"""

from __future__ import annotations

import argparse
import fnmatch
from collections.abc import Sequence
from pathlib import Path

from changelog_tool import HOME, __version__
from changelog_tool.commands import add_format
from changelog_tool.records import record

WORKFLOW = ".github/workflows/perf-changelog.yml"
PRE_COMMIT = ".pre-commit-config.yaml"
SETTINGS = ".perf-changelog.toml"
SKIP = {".git", ".venv", "node_modules", "__pycache__"}


@record(frozen=True)
class Step:
    path: str
    action: str  # "create", "append", "keep"
    text: str = ""


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the exact bytes each file would get; write nothing",
    )
    add_format(parser)


def run(*, dry_run: bool, format: str) -> int:
    from changelog_tool.commands.install import attribute_line
    from changelog_tool.errors import EnvironmentProblem
    from changelog_tool.gitrepo import run_git
    from changelog_tool.settings import DEFAULT_MASTER_GLOBS

    top = Path(run_git(Path.cwd(), "rev-parse", "--show-toplevel"))
    files = _tracked_or_present(top)
    changelog = _changelog(top, files)
    masters = [f for f in files if fnmatch.fnmatch(f, "*-master.yaml")]
    if not masters:
        raise EnvironmentProblem(
            f"no master config (*-master.yaml) found in {top}; add one, or write "
            f'{SETTINGS} with `master-configs = ["<glob>"]` by hand'
        )
    settings = []
    if changelog != "perf-changelog.yaml":
        settings.append(f'changelog = "{changelog}"')
    read = _matching(top, DEFAULT_MASTER_GLOBS)
    if not read:
        globs = sorted({str(Path(m).parent / "*-master.yaml") for m in masters})
        settings.append("master-configs = [" + ", ".join(f'"{g}"' for g in globs) + "]")
        read = _matching(top, globs)
    steps = [
        _file(top, SETTINGS, "".join(f"{line}\n" for line in settings))
        if settings
        else Step(SETTINGS, "keep", "the defaults fit: no settings needed"),
        _line(top, ".gitattributes", attribute_line(changelog)),
        _file(top, WORKFLOW, _workflow()),
        _pre_commit(top),
    ]
    if not dry_run:
        from changelog_tool.ledger import writer

        for step in steps:
            target = top / step.path
            if step.action == "create":
                target.parent.mkdir(parents=True, exist_ok=True)
                writer.replace(target, step.text.encode())
            elif step.action == "append":
                old = target.read_bytes()
                writer.replace(target, old + step.text.encode(), expected=old)
    _report(steps, dry_run, format, changelog, read)
    return 0


def _matching(top: Path, globs: Sequence[str]) -> list[str]:
    """The files the tool reads as master configs under these globs."""
    from changelog_tool.diff.local import master_paths

    return [path.relative_to(top).as_posix() for path in master_paths(top, globs)]


def _tracked_or_present(top: Path) -> list[str]:
    out = []
    for path in sorted(top.rglob("*.y*ml")):
        rel = path.relative_to(top)
        if not SKIP.intersection(rel.parts) and path.is_file():
            out.append(rel.as_posix())
    return out


def _changelog(top: Path, files: list[str]) -> str:
    if (top / "perf-changelog.yaml").is_file() or not files:
        return "perf-changelog.yaml"
    for name in files:
        if name.endswith("perf-changelog.yaml"):
            return name
    return "perf-changelog.yaml"


def _file(top: Path, path: str, text: str) -> Step:
    return (
        Step(path, "keep", "exists; left as it is")
        if (top / path).exists()
        else Step(path, "create", text)
    )


def _line(top: Path, path: str, line: str) -> Step:
    target = top / path
    old = target.read_text(encoding="utf-8") if target.is_file() else ""
    if line in old.splitlines():
        return Step(path, "keep", f"already has {line!r}")
    if not target.exists():
        return Step(path, "create", line + "\n")
    return Step(path, "append", ("" if old.endswith("\n") or not old else "\n") + line + "\n")


def _pre_commit(top: Path) -> Step:
    hook = (
        f"  - repo: https://github.com/{HOME}\n    rev: v{__version__}\n"
        "    hooks:\n      - id: perf-changelog\n"
    )
    target = top / PRE_COMMIT
    if not target.is_file():
        return Step(PRE_COMMIT, "create", "repos:\n" + hook)
    old = target.read_text(encoding="utf-8")
    if "id: perf-changelog" in old:
        return Step(PRE_COMMIT, "keep", "already has the perf-changelog hook")
    lines = old.rstrip("\n").splitlines()
    top_keys = [
        n
        for n, line in enumerate(lines)
        if line and not line[0].isspace() and not line.startswith("#")
    ]
    if top_keys and lines[top_keys[-1]].startswith("repos:"):
        return Step(PRE_COMMIT, "append", ("" if old.endswith("\n") else "\n") + hook)
    return Step(
        PRE_COMMIT, "keep", "has `repos:` before other keys: add this entry to it by hand:\n" + hook
    )


def _workflow() -> str:
    return (
        "name: perf-changelog\n"
        "on:\n  pull_request:\n"
        # labeled/unlabeled: adding or removing the opt-out label re-runs the gate
        "    types: [opened, synchronize, reopened, labeled, unlabeled]\n"
        "  push:\n    branches: [main]\n"
        "permissions:\n  contents: read\n"
        "jobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n        with:\n          fetch-depth: 0\n"
        f"      - uses: {HOME}@v{__version__}\n"
    )


def _report(steps: list[Step], dry_run: bool, fmt: str, changelog: str, masters: list[str]) -> None:
    if fmt == "json":
        import json

        print(
            json.dumps(
                {
                    "ok": True,
                    "dry_run": dry_run,
                    "changelog": changelog,
                    "master_configs": masters,
                    "steps": [step.__dict__ for step in steps],
                },
                indent=2,
            )
        )
        return
    print(f"init: changelog {changelog}; master configs {', '.join(masters)}")
    for step in steps:
        if step.action == "keep":
            print(f"init: {step.path}: {step.text}")
            continue
        verb = {
            "create": "would create" if dry_run else "created",
            "append": "would append to" if dry_run else "appended to",
        }[step.action]
        print(f"init: {verb} {step.path}:")
        print("".join(f"    {line}\n" for line in step.text.splitlines()), end="")
    if any(step.path == SETTINGS and step.action != "keep" for step in steps):
        print(
            f"init: commit {SETTINGS} to the protected branch first: `verify --base` reads "
            "the settings from the base, never from the branch it judges"
        )
    print(
        "init: "
        + (
            "nothing written (--dry-run)"
            if dry_run
            else "done; commit these files, and run `changelog install` in each clone "
            "for the merge driver"
        )
    )
