"""``changelog install [--uninstall | --check] [--force]``: set up the merge driver in this clone
(``info/attributes``, ``.gitattributes``, the driver script, the local git config), each step
idempotent and confirmed by ``git check-attr``. See docs/usage.md, "Rebases and merges: the
merge driver, ``resolve``, ``sync``"."""

from __future__ import annotations

import argparse
import json
import os
import shlex
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format, adoption, driver_trial, install_files
from changelog_tool.confinement import confined
from changelog_tool.errors import ChangelogError, EnvironmentProblem
from changelog_tool.gitrepo import Repo, run_git, try_git
from changelog_tool.hints import relative
from changelog_tool.ledger import writer
from changelog_tool.merge.outcome import repo_path
from changelog_tool.merge.setup import (
    DRIVER,
    NAME,
    SCRIPT,
    attribute_line,
    driver_command,
    driver_script,
    is_isolated,
    script_python,
)


def configure(parser: argparse.ArgumentParser) -> None:
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--uninstall",
        action="store_true",
        help="remove this clone's driver: its git config and attribute lines (a tracked "
        ".gitattributes is left as it is, shared with every clone)",
    )
    what.add_argument(
        "--check",
        action="store_true",
        help="report whether the driver is configured, applied to the changelog, and runnable",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help="install in a repository that does not use perf-changelog (no changelog, "
        "no settings, no master config)",
    )
    add_format(parser)


def run(*, uninstall: bool, check: bool, format: str, force: bool = False) -> int:
    cwd = Path.cwd()
    with Repo.open(cwd) as repo:  # outside a repository: the one message that says so
        top, common = repo.root, repo.common_directory
    settings = settings_module.load(cwd)
    changelog = repo_path(settings.changelog_path, top)
    files = (common / "info" / "attributes", confined(top, ".gitattributes"))
    script = common / SCRIPT
    if check:
        steps, ok = _check(top, changelog, script)
    elif uninstall:
        steps = [*install_files.remove(top, files), _unset_config(top), _remove_script(script)]
        ok = True
    else:
        refusal = None if force else adoption.refusal(top, changelog, settings.source)
        if refusal is not None:
            raise EnvironmentProblem(refusal)
        steps = install_files.add(top, files, attribute_line(changelog), changelog)
        steps.append(_write_script(script))
        steps += [
            _set_config(top, f"merge.{DRIVER}.{k}", v)
            for k, v in (("name", NAME), ("driver", driver_command()))
        ]
        applied = _applied(top, changelog)
        if applied != DRIVER:
            raise ChangelogError(
                f"git does not apply the driver to {changelog} (`git check-attr merge` says "
                f"{applied or 'unspecified'}): an attribute file with higher priority may "
                "override it; check `git check-attr -a -- " + shlex.quote(changelog) + "`"
            )
        ok = True
    _report(steps, ok, format, uninstall=uninstall, check=check, changelog=changelog)
    return 0 if ok else 1


def _report(
    steps: list[dict[str, object]],
    ok: bool,
    fmt: str,
    *,
    uninstall: bool,
    check: bool,
    changelog: str,
) -> None:
    if fmt == "json":
        print(
            json.dumps(
                {"ok": ok, "installed": not uninstall and not check, "steps": steps}, indent=2
            )
        )
        return
    for step in steps:
        print(f"install: {step['what']}: {step['done']}")
    if check:
        print(
            "install: the driver is ready"
            if ok
            else "install: the driver is not ready; run `changelog install` to set it up again"
        )
    elif uninstall:
        kept = any(step.get("kept") for step in steps)
        print(
            f"install: the merge driver is off in this clone; git merges {changelog} as "
            "plain text again"
            + (
                " (the tracked .gitattributes still names it for every clone: see above)"
                if kept
                else ""
            )
        )
    else:
        print(
            f"install: done. In this clone (every worktree), rebases and merges now resolve "
            f"{changelog} themselves: the protected branch's bytes, then the branch's own new "
            "entries. Commit .gitattributes to share the attribute; every other clone runs "
            "`changelog install` once (git never copies merge-driver commands from a "
            "repository)."
        )


def _set_config(top: Path, key: str, value: str) -> dict[str, object]:
    current = try_git(top, "config", "--local", "--get", key)
    if current.returncode == 0 and current.stdout.rstrip("\n") == value:
        return {"what": f"git config {key}", "done": f"already {value!r}"}
    run_git(top, "config", "--local", key, value)
    was = f" (was {current.stdout.strip()!r})" if current.returncode == 0 else ""
    return {"what": f"git config {key}", "done": f"set to {value!r}{was}"}


def _write_script(script: Path) -> dict[str, object]:
    text, what = driver_script(), relative(script)
    old = script.read_text(encoding="utf-8", errors="replace") if script.is_file() else None
    if old == text:
        return {"what": what, "done": "already up to date"}
    script.parent.mkdir(parents=True, exist_ok=True)
    writer.replace(script, text.encode())
    was = f" (it ran {script_python(old)})" if old is not None and script_python(old) else ""
    return {"what": what, "done": f"written: runs {script_python(text)}{was}"}


def _remove_script(script: Path) -> dict[str, object]:
    if not script.is_file():
        return {"what": relative(script), "done": "was not there"}
    script.unlink()
    if not any(script.parent.iterdir()):
        script.parent.rmdir()
    return {"what": relative(script), "done": "removed"}


def _unset_config(top: Path) -> dict[str, object]:
    removed = try_git(top, "config", "--local", "--remove-section", f"merge.{DRIVER}")
    done = "removed" if removed.returncode == 0 else "was not set"
    return {"what": f"git config merge.{DRIVER}", "done": done}


def _applied(top: Path, changelog: str) -> str | None:
    """The merge driver git applies to the changelog (``git check-attr``)."""
    out = try_git(top, "check-attr", "-z", "merge", "--", changelog).stdout.split("\0")
    value = out[2] if len(out) > 2 else ""
    return None if value in ("", "unspecified", "unset") else value


def _python_flags(text: str) -> list[str] | None:
    """The flags of the ``<python> [flags] -m changelog_tool`` a line of ``text`` runs, or
    ``None`` for anything else."""
    for line in text.splitlines():
        try:
            words = shlex.split(line.rstrip().removesuffix("\\"))  # a continued line
        except ValueError:
            continue
        for at in range(1, len(words) - 1):
            if words[at : at + 2] == ["-m", "changelog_tool"]:
                start = at
                while start > 0 and words[start - 1].startswith("-"):
                    start -= 1
                return words[start:at] if start > 0 else None
    return None


def _script_step(script: Path) -> tuple[dict[str, object], str]:
    """Is the driver script there, and the Python it names? Its text (empty when missing)."""
    what = f"the driver script {relative(script)}"
    if not script.is_file():
        return {"what": what, "done": "missing", "ok": False}, ""
    text = script.read_text(encoding="utf-8", errors="replace")
    python = script_python(text)
    if python is None:
        return {"what": what, "done": "names no Python", "ok": False}, text
    if not os.access(python, os.X_OK):
        done = f"runs {python}, which is not there (the virtualenv was moved or deleted?)"
        return {"what": what, "done": done, "ok": False}, text
    return {"what": what, "done": f"runs {python}", "ok": True}, text


def _check(top: Path, changelog: str, script: Path) -> tuple[list[dict[str, object]], bool]:
    """Is the driver configured, applied to the changelog, and still runnable?"""
    steps: list[dict[str, object]] = []
    command = try_git(top, "config", "--get", f"merge.{DRIVER}.driver").stdout.strip()
    steps.append(
        {
            "what": f"git config merge.{DRIVER}.driver",
            "done": repr(command) if command else "not set",
            "ok": bool(command),
        }
    )
    applied = _applied(top, changelog)
    steps.append(
        {
            "what": f"git check-attr merge -- {changelog}",
            "done": applied or "unspecified",
            "ok": applied == DRIVER,
        }
    )
    runs, placed = command, {}
    if command == driver_command():
        step, runs = _script_step(script)
        steps.append(step)
        placed = {SCRIPT: runs.encode()} if runs else {}
    flags = _python_flags(runs) if runs else None
    if flags is not None:
        isolated = is_isolated(flags)
        steps.append(
            {
                "what": "the driver's Python",
                "done": "isolated from the work tree"
                if isolated
                else "not isolated: git runs it from the top of the work tree, where a "
                "branch's own modules (a changelog_tool/ folder, json.py) would be imported "
                "instead of the tool's",
                "ok": isolated,
            }
        )
    trial = driver_trial.run(command, placed) if command else None
    steps.append(
        {
            "what": "a trial merge through the driver command, as git runs it",
            "done": trial.said if trial is not None else "no command to run",
            "ok": trial is not None and trial.ok,
            "exit_code": trial.exit_code if trial is not None else None,
        }
    )
    return steps, all(step["ok"] is True for step in steps)
