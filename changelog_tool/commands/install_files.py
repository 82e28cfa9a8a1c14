"""``install``'s edits of ``info/attributes`` and ``.gitattributes``. A file whose lines already
make git apply the driver is left as is; ``--uninstall`` removes only the lines the index does
not hold (a committed line is named, never changed)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from changelog_tool.commands.driver_trial import SCRUBBED
from changelog_tool.gitrepo import run_git, try_git
from changelog_tool.hints import relative
from changelog_tool.ledger import writer
from changelog_tool.merge.setup import DRIVER, attribute_lines, is_driver_line, line_ending

Step = dict[str, object]


def add(top: Path, files: tuple[Path, ...], line: str, changelog: str) -> list[Step]:
    """The attribute line in each file not yet applying the driver, replacing an older driver
    line, ending as the file's lines do."""
    steps: list[Step] = []
    olds = [attribute_lines(path) for path in files]  # all read (or refused) before any is written
    for path, old in zip(files, olds, strict=True):
        if line in (entry.rstrip("\r\n") for entry in old):
            steps.append({"what": relative(path), "done": f"already has {line!r}"})
            continue
        drivers = [entry.rstrip("\r\n") for entry in old if is_driver_line(entry)]
        if drivers and applies(top, old, changelog):
            said = "; ".join(repr(entry) for entry in drivers)
            steps.append(
                {
                    "what": relative(path),
                    "done": f"left as it is: git already applies the driver to {changelog} "
                    f"through {said}",
                }
            )
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


def applies(top: Path, lines: list[str], changelog: str) -> bool:
    """Do these lines alone make git apply the driver to the changelog? Asked of git in a
    temporary bare repository."""
    ignorecase = try_git(top, "config", "--bool", "core.ignorecase").stdout.strip() or "false"
    env = {k: v for k, v in os.environ.items() if k not in SCRUBBED}  # never the clone's
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


def remove(top: Path, files: tuple[Path, ...]) -> list[Step]:
    """The driver's lines out of this clone's attribute files; from a tracked ``.gitattributes``,
    only those its index lacks."""
    steps: list[Step] = []
    olds = [attribute_lines(path) for path in files]  # all read (or refused) before any is written
    for path, old in zip(files, olds, strict=True):
        tracked = path.name == ".gitattributes" and _indexed(top, path)
        shared = set(tracked or ())
        drop = [e for e in old if is_driver_line(e) and e.rstrip("\r\n") not in shared]
        left = [e.rstrip("\r\n") for e in old if is_driver_line(e) and e not in drop]
        kept = [entry for entry in old if entry not in drop]
        own = tracked is None and path.name == ".gitattributes"  # deleted once empty
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


def _indexed(top: Path, path: Path) -> list[str] | None:
    """The lines of ``path`` as git's index holds it; ``None`` when it is not tracked."""
    name = path.relative_to(top).as_posix() if path.is_relative_to(top) else str(path)
    if try_git(top, "ls-files", "--error-unmatch", "--", name).returncode != 0:
        return None
    shown = try_git(top, "cat-file", "blob", f":{name}")
    return [line.rstrip("\r\n") for line in shown.stdout.splitlines()]
