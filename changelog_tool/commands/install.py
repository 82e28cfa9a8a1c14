"""``changelog install [--uninstall | --check] [--force]``: set up the merge driver in this clone
(``info/attributes``, ``.gitattributes``, the driver script, the local git config), each step
idempotent and confirmed by ``git check-attr``. See docs/usage.md."""

from __future__ import annotations

import argparse
import json
import os
import shlex
import tempfile
from collections.abc import Callable
from pathlib import Path

from changelog_tool.commands import add_format, driver_trial, init_files
from changelog_tool.confinement import confined
from changelog_tool.errors import ChangelogError, EnvironmentProblem, relative
from changelog_tool.gitrepo import run_git, try_git
from changelog_tool.ledger import writer
from changelog_tool.merge.setup import (
    DRIVER,
    NAME,
    SCRIPT,
    attribute_line,
    attribute_lines,
    driver_command,
    driver_script,
    is_driver_line,
    is_isolated,
    line_ending,
    script_python,
)
from changelog_tool.resolution.here import changelog_here

Step = dict[str, object]


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
    with changelog_here() as (repo, settings, changelog):
        top, common = repo.root, repo.common_directory
    files = (common / "info" / "attributes", confined(top, ".gitattributes"))
    script = common / SCRIPT
    ok = True
    if check:
        steps, ok = _check(top, changelog, script)
        said = (
            "the driver is ready"
            if ok
            else "the driver is not ready; run `changelog install` to set it up again"
        )
    elif uninstall:
        steps = _each_file(files, lambda path, old: _remove_line(top, path, old))
        removed = try_git(top, "config", "--local", "--remove-section", f"merge.{DRIVER}")
        done = "removed" if removed.returncode == 0 else "was not set"
        steps += [{"what": f"git config merge.{DRIVER}", "done": done}, _remove_script(script)]
        said = f"the merge driver is off in this clone; git merges {changelog} as plain text again"
        if any(step.get("kept") for step in steps):
            said += " (the tracked .gitattributes still names it for every clone: see above)"
    else:
        refusal = None if force else init_files.refusal(top, changelog, settings.source)
        if refusal is not None:
            raise EnvironmentProblem(refusal)
        line = attribute_line(changelog)
        steps = _each_file(files, lambda path, old: _add_line(top, path, old, line, changelog))
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
        said = (
            f"done. In this clone (every worktree), rebases and merges now resolve "
            f"{changelog} themselves: the protected branch's bytes, then the branch's own new "
            "entries. Commit .gitattributes to share the attribute; every other clone runs "
            "`changelog install` once (git never copies merge-driver commands from a "
            "repository)."
        )
    if format == "json":
        installed = not uninstall and not check
        print(json.dumps({"ok": ok, "installed": installed, "steps": steps}, indent=2))
    else:
        for step in steps:
            print(f"install: {step['what']}: {step['done']}")
        print(f"install: {said}")
    return 0 if ok else 1


def _set_config(top: Path, key: str, value: str) -> Step:
    current = try_git(top, "config", "--local", "--get", key)
    if current.returncode == 0 and current.stdout.rstrip("\n") == value:
        return {"what": f"git config {key}", "done": f"already {value!r}"}
    run_git(top, "config", "--local", key, value)
    was = f" (was {current.stdout.strip()!r})" if current.returncode == 0 else ""
    return {"what": f"git config {key}", "done": f"set to {value!r}{was}"}


def _write_script(script: Path) -> Step:
    text, what = driver_script(), relative(script)
    old = script.read_text(encoding="utf-8", errors="replace") if script.is_file() else None
    if old == text:
        return {"what": what, "done": "already up to date"}
    script.parent.mkdir(parents=True, exist_ok=True)
    writer.replace(script, text.encode())
    was = f" (it ran {script_python(old)})" if old is not None and script_python(old) else ""
    return {"what": what, "done": f"written: runs {script_python(text)}{was}"}


def _remove_script(script: Path) -> Step:
    if not script.is_file():
        return {"what": relative(script), "done": "was not there"}
    script.unlink()
    if not any(script.parent.iterdir()):
        script.parent.rmdir()
    return {"what": relative(script), "done": "removed"}


def _applied(top: Path, changelog: str) -> str | None:
    """The merge driver git applies to the changelog (``git check-attr``)."""
    out = try_git(top, "check-attr", "-z", "merge", "--", changelog).stdout.split("\0")
    value = out[2] if len(out) > 2 else ""
    return None if value in ("", "unspecified", "unset") else value


def _python_flags(text: str) -> list[str] | None:
    """The flags of the ``<python> [flags] -m changelog_tool`` a line of ``text`` runs."""
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


def _check(top: Path, changelog: str, script: Path) -> tuple[list[Step], bool]:
    command = try_git(top, "config", "--get", f"merge.{DRIVER}.driver").stdout.strip()
    applied = _applied(top, changelog)
    steps: list[Step] = [
        {
            "what": f"git config merge.{DRIVER}.driver",
            "done": repr(command) if command else "not set",
            "ok": bool(command),
        },
        {
            "what": f"git check-attr merge -- {changelog}",
            "done": applied or "unspecified",
            "ok": applied == DRIVER,
        },
    ]
    runs, placed = command, {}
    if command == driver_command():  # the script there, and the Python it names
        runs = script.read_text(encoding="utf-8", errors="replace") if script.is_file() else ""
        python = script_python(runs) if runs else None
        ok = python is not None and os.access(python, os.X_OK)
        if not script.is_file():
            done = "missing"
        elif python is None:
            done = "names no Python"
        else:
            done = f"runs {python}" + (
                "" if ok else ", which is not there (the virtualenv was moved or deleted?)"
            )
        steps.append({"what": f"the driver script {relative(script)}", "done": done, "ok": ok})
        placed = {SCRIPT: runs.encode()} if runs else {}
    flags = _python_flags(runs)
    if flags is not None:
        isolated = is_isolated(flags)
        done = "isolated from the work tree" if isolated else NOT_ISOLATED
        steps.append({"what": "the driver's Python", "done": done, "ok": isolated})
    trial = driver_trial.run(command, placed) if command else driver_trial.NOTHING_TO_RUN
    steps.append(
        {
            "what": "a trial merge through the driver command, as git runs it",
            "done": trial.said,
            "ok": trial.ok,
            "exit_code": trial.exit_code,
        }
    )
    return steps, all(step["ok"] is True for step in steps)


NOT_ISOLATED = (
    "not isolated: git runs it from the top of the work tree, where a branch's own modules "
    "(a changelog_tool/ folder, json.py) would be imported instead of the tool's"
)


def _each_file(
    files: tuple[Path, ...], edit: Callable[[Path, list[str]], list[Step]]
) -> list[Step]:
    """``edit`` of each attribute file, all read (or refused) before any is written."""
    olds = [attribute_lines(path) for path in files]
    return [step for path, old in zip(files, olds, strict=True) for step in edit(path, old)]


def _add_line(top: Path, path: Path, old: list[str], line: str, changelog: str) -> list[Step]:
    """The attribute line in a file not yet applying the driver, replacing an older driver
    line, ending as the file's lines do."""
    if line in (entry.rstrip("\r\n") for entry in old):
        return [{"what": relative(path), "done": f"already has {line!r}"}]
    drivers = [entry.rstrip("\r\n") for entry in old if is_driver_line(entry)]
    if drivers and _applies(top, old, changelog):
        said = "; ".join(repr(entry) for entry in drivers)
        done = f"left as it is: git already applies the driver to {changelog} through {said}"
        return [{"what": relative(path), "done": done}]
    kept = [entry for entry in old if not is_driver_line(entry)]
    ending = line_ending(old)
    if kept and not kept[-1].endswith(("\n", "\r")):
        kept[-1] += ending  # the last line lacked its ending: the new line follows it
    path.parent.mkdir(parents=True, exist_ok=True)
    writer.replace(path, "".join([*kept, line + ending]).encode())
    older = " (replacing an older line)" if len(kept) < len(old) else ""
    return [{"what": relative(path), "done": f"added {line!r}{older}"}]


def _applies(top: Path, lines: list[str], changelog: str) -> bool:
    """Do these lines alone make git apply the driver? Asked of git in a bare repository."""
    ignorecase = try_git(top, "config", "--bool", "core.ignorecase").stdout.strip() or "false"
    env = {k: v for k, v in os.environ.items() if k not in driver_trial.SCRUBBED}
    with tempfile.TemporaryDirectory(prefix="perf-changelog-attributes-") as folder:
        where = Path(folder)
        run_git(where, "init", "-q", "--bare", "probe.git", env=env)
        info = where / "probe.git" / "info"
        info.mkdir(exist_ok=True)
        (info / "attributes").write_bytes("".join(lines).encode())
        out = run_git(
            where,
            *("--git-dir", "probe.git", "-c", f"core.ignorecase={ignorecase}"),
            *("check-attr", "-z", "merge", "--", changelog),
            env=env,
        )
    values = out.split("\0")
    return len(values) > 2 and values[2] == DRIVER


def _remove_line(top: Path, path: Path, old: list[str]) -> list[Step]:
    """The driver's lines out of an attribute file of this clone; from a tracked
    ``.gitattributes``, only those its index lacks."""
    in_tree = path.name == ".gitattributes"  # not git's own info/attributes
    tracked = (
        in_tree and try_git(top, "ls-files", "--error-unmatch", "--", path.name).returncode == 0
    )
    indexed = try_git(top, "cat-file", "blob", f":{path.name}").stdout if tracked else ""
    shared = {line.rstrip("\r\n") for line in indexed.splitlines()}
    drop = [e for e in old if is_driver_line(e) and e.rstrip("\r\n") not in shared]
    left = [e.rstrip("\r\n") for e in old if is_driver_line(e) and e not in drop]
    kept = [entry for entry in old if entry not in drop]
    own = in_tree and not tracked  # deleted once empty
    steps: list[Step] = []
    if drop and (not own or any(e.strip() for e in kept)):
        writer.replace(path, "".join(kept).encode())  # the other lines byte for byte
        steps.append({"what": relative(path), "done": "removed the merge driver line"})
    elif drop:
        path.unlink()
        steps.append({"what": relative(path), "done": "removed (it held only that line)"})
    if left:
        lines = "; ".join(repr(entry) for entry in left)
        steps.append(
            {
                "what": relative(path),
                "done": f"left {lines} as it is: it is tracked, so shared with every "
                "clone; to stop the driver for everyone, remove it by hand and commit "
                "that (in this clone, without the driver's config, git merges the file "
                "as plain text)",
                "kept": True,
            }
        )
    elif not drop:
        steps.append({"what": relative(path), "done": "has no merge driver line"})
    return steps
