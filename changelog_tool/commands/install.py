"""`changelog install [--uninstall | --check]`: set up the merge driver in this clone.

Three pieces, all idempotent: the attribute ``merge=perf-changelog`` on the
changelog in the clone's own ``info/attributes`` (in the common git directory,
so every worktree has it and the very first rebase uses the driver, before any
commit carries it), the same line in ``.gitattributes`` (commit it to share it;
it is harmless in clones without the driver, where git falls back to its usual
text merge), and the local git config that defines the driver. Git never takes
driver definitions from a repository (they run programs), so each clone runs
``changelog install`` once. The driver command is the absolute path of the
running interpreter, so it works inside git without an activated virtualenv;
``--check`` runs the configured command as git would, on a trial merge
(:mod:`changelog_tool.commands.driver_trial`), and calls it ready only when git
would get the merge (not after a moved venv, a missing ``%P``, swapped files).
Nothing is called done before ``git check-attr`` confirms git applies it.
``--uninstall`` touches this clone's state only: a tracked ``.gitattributes`` is
everyone's, so it is left as it is and the line to remove by hand is named.
"""

from __future__ import annotations

import argparse
import json
import shlex
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.commands import add_format, driver_trial
from changelog_tool.confinement import confined
from changelog_tool.errors import ChangelogError
from changelog_tool.gitrepo import Repo, run_git, try_git
from changelog_tool.hints import relative
from changelog_tool.ledger import writer
from changelog_tool.merge.attributes import attribute_lines, is_driver_line, line_ending
from changelog_tool.merge.outcome import repo_path
from changelog_tool.merge.setup import (
    DRIVER,
    NAME,
    attribute_line,
    driver_command,
    is_isolated,
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
    add_format(parser)


def run(*, uninstall: bool, check: bool, format: str) -> int:
    cwd = Path.cwd()
    with Repo.open(cwd) as repo:  # outside a repository: the one message that says so
        top, common = repo.root, repo.common_directory
    settings = settings_module.load(cwd)
    changelog = repo_path(settings.changelog_path, top)
    files = (common / "info" / "attributes", confined(top, ".gitattributes"))
    if check:
        steps, ok = _check(top, changelog)
    elif uninstall:
        steps, ok = [*_remove(top, files), _unset_config(top)], True
    else:
        steps = _add(files, attribute_line(changelog))
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


def _add(files: tuple[Path, ...], line: str) -> list[dict[str, object]]:
    """The attribute line in each file, replacing an older line for the driver; the
    other lines are kept as they are, and the new one ends as the file's lines do."""
    steps: list[dict[str, object]] = []
    olds = [attribute_lines(path) for path in files]  # all read (or refused) before any is written
    for path, old in zip(files, olds, strict=True):
        if line in (entry.rstrip("\r\n") for entry in old):
            steps.append({"what": relative(path), "done": f"already has {line!r}"})
            continue
        kept = [entry for entry in old if not is_driver_line(entry)]
        ending = line_ending(old)
        if kept and not kept[-1].endswith(("\n", "\r")):
            kept[-1] += ending  # the last line lacked its ending: the new line follows it
        path.parent.mkdir(parents=True, exist_ok=True)
        writer.replace(path, "".join([*kept, line + ending]).encode())
        older = " (replacing an older line)" if len(kept) < len(old) else ""
        steps.append({"what": relative(path), "done": f"added {line!r}{older}"})
    return steps


def _remove(top: Path, files: tuple[Path, ...]) -> list[dict[str, object]]:
    """The driver's line out of this clone's own attribute files. A ``.gitattributes``
    that git tracks is shared with everyone who clones: it is never changed here, and
    the step says which line to remove by hand, and why."""
    steps: list[dict[str, object]] = []
    olds = [attribute_lines(path) for path in files]  # all read (or refused) before any is written
    for path, old in zip(files, olds, strict=True):
        kept = [entry for entry in old if not is_driver_line(entry)]
        if len(kept) == len(old):
            steps.append({"what": relative(path), "done": "has no merge driver line"})
        elif path.name == ".gitattributes" and _tracked(top, path):
            lines = "; ".join(repr(e.rstrip("\r\n")) for e in old if is_driver_line(e))
            steps.append(
                {
                    "what": relative(path),
                    "done": f"left as it is: it is tracked, so shared with every clone; "
                    f"to stop the driver for everyone, remove {lines} by hand and commit "
                    "that (in this clone, without the driver's config, git merges the "
                    "file as plain text)",
                    "kept": True,
                }
            )
        elif any(entry.strip() for entry in kept) or path.name != ".gitattributes":
            writer.replace(path, "".join(kept).encode())  # the other lines byte for byte
            steps.append({"what": relative(path), "done": "removed the merge driver line"})
        else:
            path.unlink()
            steps.append({"what": relative(path), "done": "removed (it held only that line)"})
    return steps


def _tracked(top: Path, path: Path) -> bool:
    """Is ``path`` in git's index (committed or staged)?"""
    relative = path.relative_to(top).as_posix() if path.is_relative_to(top) else str(path)
    return try_git(top, "ls-files", "--error-unmatch", "--", relative).returncode == 0


def _unset_config(top: Path) -> dict[str, object]:
    removed = try_git(top, "config", "--local", "--remove-section", f"merge.{DRIVER}")
    done = "removed" if removed.returncode == 0 else "was not set"
    return {"what": f"git config merge.{DRIVER}", "done": done}


def _applied(top: Path, changelog: str) -> str | None:
    """The merge driver git applies to the changelog (``git check-attr``)."""
    out = try_git(top, "check-attr", "-z", "merge", "--", changelog).stdout.split("\0")
    value = out[2] if len(out) > 2 else ""
    return None if value in ("", "unspecified", "unset") else value


def _python_flags(command: str) -> list[str] | None:
    """The flags of the ``<python> [flags] -m changelog_tool`` the command runs, or
    ``None`` when it runs something else (a wrapper: the trial merge still checks
    that it does not import the work tree's modules)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    for at in range(1, len(words) - 1):
        if words[at : at + 2] == ["-m", "changelog_tool"]:
            start = at
            while start > 0 and words[start - 1].startswith("-"):
                start -= 1
            return words[start:at] if start > 0 else None
    return None


def _check(top: Path, changelog: str) -> tuple[list[dict[str, object]], bool]:
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
    flags = _python_flags(command) if command else None
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
    trial = driver_trial.run(command) if command else None
    steps.append(
        {
            "what": "a trial merge through the driver command, as git runs it",
            "done": trial.said if trial is not None else "no command to run",
            "ok": trial is not None and trial.ok,
            "exit_code": trial.exit_code if trial is not None else None,
        }
    )
    return steps, all(step["ok"] is True for step in steps)
