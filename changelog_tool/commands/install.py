"""`changelog install [--uninstall]`: set up the merge driver in this clone.

Two pieces, both idempotent: a ``.gitattributes`` line that marks the changelog
``merge=perf-changelog`` (commit it; it is harmless in clones without the
driver, where git falls back to its usual text merge), and the local git
config that defines that driver. Git never takes driver definitions from a
repository (they run programs), so each clone runs ``changelog install`` once.
The driver command is the absolute path of the running interpreter, so it
works inside git even when the virtualenv is not activated.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DRIVER = "perf-changelog"
NAME = "perf-changelog.yaml: protected branch's bytes, then the branch's own new entries"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--uninstall",
        action="store_true",
        help="remove the .gitattributes line and the git config entries",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")


def driver_command() -> str:
    import shlex

    return f"{shlex.quote(sys.executable)} -m changelog_tool merge-driver %O %A %B %P"


def attribute_line(changelog: str) -> str:
    return f"/{changelog} merge={DRIVER}"


def run(*, uninstall: bool, format: str) -> int:
    from changelog_tool import settings as settings_module
    from changelog_tool.gitrepo import run_git
    from changelog_tool.merge.outcome import repo_path

    top = Path(run_git(Path.cwd(), "rev-parse", "--show-toplevel"))
    settings = settings_module.load(Path.cwd())
    changelog = repo_path(settings.changelog_path, top)
    steps = _uninstall(top) if uninstall else _install(top, changelog)
    if format == "json":
        import json

        print(json.dumps({"installed": not uninstall, "steps": steps}, indent=2))
        return 0
    for step in steps:
        print(f"install: {step['what']}: {step['done']}")
    if uninstall:
        print(
            "install: the merge driver is off; git merges perf-changelog.yaml as plain text "
            "again (commit the .gitattributes change to share it)"
        )
    else:
        print(
            f"install: done. In this clone, rebases and merges now resolve {changelog} "
            "themselves: the protected branch's bytes, then the branch's own new entries. "
            "Commit .gitattributes; every other clone runs `changelog install` once "
            "(git never copies merge-driver commands from a repository)."
        )
    return 0


def _install(top: Path, changelog: str) -> list[dict[str, str]]:
    from changelog_tool.ledger import writer

    steps = []
    attributes = top / ".gitattributes"
    line = attribute_line(changelog)
    old = attributes.read_text(encoding="utf-8") if attributes.is_file() else ""
    if line in old.splitlines():
        done = f"already has {line!r}"
    else:
        kept = [entry for entry in old.splitlines() if f"merge={DRIVER}" not in entry]
        writer.replace(attributes, "".join(f"{entry}\n" for entry in [*kept, line]).encode())
        done = f"added {line!r}" + (
            " (replacing an older line)" if len(kept) < len(old.splitlines()) else ""
        )
    steps.append({"what": str(attributes), "done": done})
    for key, value in (("name", NAME), ("driver", driver_command())):
        steps.append(_set_config(top, f"merge.{DRIVER}.{key}", value))
    return steps


def _set_config(top: Path, key: str, value: str) -> dict[str, str]:
    from changelog_tool.gitrepo import run_git, try_git

    current = try_git(top, "config", "--local", "--get", key)
    if current.returncode == 0 and current.stdout.rstrip("\n") == value:
        return {"what": f"git config {key}", "done": f"already {value!r}"}
    run_git(top, "config", "--local", key, value)
    was = f" (was {current.stdout.strip()!r})" if current.returncode == 0 else ""
    return {"what": f"git config {key}", "done": f"set to {value!r}{was}"}


def _uninstall(top: Path) -> list[dict[str, str]]:
    from changelog_tool.gitrepo import try_git
    from changelog_tool.ledger import writer

    steps = []
    attributes = top / ".gitattributes"
    old = attributes.read_text(encoding="utf-8") if attributes.is_file() else ""
    kept = [entry for entry in old.splitlines() if f"merge={DRIVER}" not in entry]
    if len(kept) == len(old.splitlines()):
        steps.append({"what": str(attributes), "done": "has no merge driver line"})
    elif any(entry.strip() for entry in kept):
        writer.replace(attributes, "".join(f"{entry}\n" for entry in kept).encode())
        steps.append({"what": str(attributes), "done": "removed the merge driver line"})
    else:
        attributes.unlink()
        steps.append({"what": str(attributes), "done": "removed (it held only that line)"})
    removed = try_git(top, "config", "--local", "--remove-section", f"merge.{DRIVER}")
    done = "removed" if removed.returncode == 0 else "was not set"
    steps.append({"what": f"git config merge.{DRIVER}", "done": done})
    return steps
