"""``changelog init [--dry-run]``: adopt the tool in one command, writing only what is missing;
each file it writes is read back as its own tool reads it (YAML 1.1, ``tomllib``), else kept
with what to add by hand. See README.md, "Adopt it in your repository"."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from pathlib import Path

from changelog_tool.commands import add_format, init_files
from changelog_tool.commands.init_files import (
    PRE_COMMIT,
    UNKNOWN_SOURCE,
    Source,
    Step,
    installed_source,
    parse_source,
    toml_settings,
    workflow_reads_back,
    workflow_text,
)
from changelog_tool.confinement import confined
from changelog_tool.diff.local import master_paths
from changelog_tool.errors import ChangelogError, EnvironmentProblem, os_error
from changelog_tool.gitrepo import Repo, try_git
from changelog_tool.gitrepo.process import remote_names
from changelog_tool.ledger import writer
from changelog_tool.merge.setup import attribute_line, attribute_lines, line_ending
from changelog_tool.refnames import USUAL_REMOTES, branch_name
from changelog_tool.settings import DEFAULT_MASTER_GLOBS, DOTFILE, PYPROJECT, find, load

WORKFLOW = ".github/workflows/perf-changelog.yml"


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the exact bytes each file would get; write nothing",
    )
    parser.add_argument(
        "--source",
        metavar="URL@REF",
        help="where the workflow and the pre-commit entry take perf-changelog from: its "
        "git repository and a tag or commit (default: the git URL and commit this copy "
        "was installed from, when pip recorded them)",
    )
    add_format(parser)


def run(*, dry_run: bool, format: str, source: str | None = None) -> int:
    origin = parse_source(source) if source is not None else installed_source()
    with Repo.open(Path.cwd()) as repo:  # outside a repository: the one message for it
        top = repo.root
    files = init_files.yaml_files(top)
    # perf-changelog.yaml at the top, else the first file so named, else the default
    named = [name for name in files if name.endswith("perf-changelog.yaml")]
    changelog = named[0] if named and "perf-changelog.yaml" not in named else "perf-changelog.yaml"
    masters = init_files.master_configs(files)
    if not masters:
        raise EnvironmentProblem(
            f"{init_files.no_master_config(top)}; add one, or write "
            f'{DOTFILE} with `master-configs = ["<glob>"]` by hand'
        )
    settings: dict[str, str | list[str]] = {}
    if changelog != "perf-changelog.yaml":
        settings["changelog"] = changelog
    read = _matching(top, DEFAULT_MASTER_GLOBS)
    if not read:
        globs = sorted({str(Path(m).parent / init_files.MASTER) for m in masters})
        settings["master-configs"] = globs
        read = _matching(top, globs)
    current = load(top)
    branch, refs = _protected(top, current.protected_ref)
    if refs:
        settings["protected-ref"] = refs
    steps = [
        Step(changelog, "keep", "exists; left as it is")
        if _target(top, changelog).exists()
        else Step(changelog, "create", ""),
        _settings(top, settings, current.source),
        _line(top, ".gitattributes", attribute_line(changelog)),
        _workflow_step(top, branch, origin),
        init_files.pre_commit(_target(top, PRE_COMMIT), origin),
    ]
    if not dry_run:
        _write(top, steps)
    _report(steps, dry_run, format, changelog, read)
    return 0


def _target(top: Path, path: str) -> Path:
    """Where ``path`` is read and written: confined to the repository, never a directory."""
    target = confined(top, path)
    if target.is_dir():
        raise ChangelogError(f"{path} is a directory; init writes a file there: move it away")
    return target.resolve() if target.is_symlink() else target


def _write(top: Path, steps: list[Step]) -> None:
    """Every planned file written whole (temp file, rename); a failure says which were written."""
    done: list[str] = []
    for step in steps:
        if step.action == "keep":
            continue
        target = _target(top, step.path)
        try:
            if step.action == "create":
                target.parent.mkdir(parents=True, exist_ok=True)
                writer.replace(target, step.text.encode())
            else:
                old = target.read_bytes()
                writer.replace(target, old + step.text.encode(), expected=old)
        except OSError as exc:
            written = ", ".join(done) if done else "nothing"
            reason = os_error(exc).removesuffix("; nothing was changed")
            raise ChangelogError(
                f"{step.path}: {reason}; {step.path} was not changed, written before it: "
                f"{written}. Fix the cause and run `changelog init` again (each step is "
                "idempotent)"
            ) from None
        done.append(step.path)


def _protected(top: Path, refs: Sequence[str]) -> tuple[str, list[str]]:
    """The protected branch the workflow runs on and the ``protected-ref`` setting it needs
    (empty when the settings name a ref here); else the remote ``HEAD``'s branch, ``master``,
    or the current branch."""

    def exists(ref: str) -> bool:
        return try_git(top, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode == 0

    remotes = remote_names(top)
    for ref in refs:
        if exists(ref):
            return branch_name(ref, remotes), []
    names = remotes()
    remote = next((r for r in (*USUAL_REMOTES, *sorted(names)) if r in names), "origin")
    remote_head = try_git(top, "symbolic-ref", "--quiet", "--short", f"refs/remotes/{remote}/HEAD")
    candidates = [
        branch_name(remote_head.stdout.strip(), remotes),  # "" when it has none
        "master",
        try_git(top, "branch", "--show-current").stdout.strip(),
    ]
    for name in candidates:
        if name and (exists(name) or exists(f"{remote}/{name}") or name == candidates[-1]):
            return name, [f"{remote}/{name}", name]
    raise EnvironmentProblem(
        f"none of the protected refs ({' or '.join(refs)}) exists in this clone and HEAD "
        f"is on no branch; check out the protected branch and run `changelog init` again, "
        f'or set `protected-ref = ["<branch>"]` in {DOTFILE}'
    )


def _matching(top: Path, globs: Sequence[str]) -> list[str]:
    """The files the tool reads as master configs under these globs."""
    return [path.relative_to(top).as_posix() for path in master_paths(top, globs)]


def _settings(top: Path, settings: dict[str, str | list[str]], source: str | None) -> Step:
    """The settings file where defaults do not fit, never shadowing those in pyproject.toml."""
    if not settings:
        return Step(DOTFILE, "keep", "the defaults fit: no settings needed")
    text = toml_settings(settings)
    hand = "".join(f"    {line}\n" for line in text.splitlines())
    if source is not None and find(top).file == PYPROJECT:
        return Step(
            DOTFILE,
            "keep",
            f"not written: the settings are in {source}, which a {DOTFILE} would "
            f"override; set these there by hand:\n{hand}",
        )
    if _target(top, DOTFILE).exists():
        return Step(DOTFILE, "keep", f"exists; left as it is: set these in it by hand:\n{hand}")
    return Step(DOTFILE, "create", text)


def _line(top: Path, path: str, line: str) -> Step:
    """The attribute line appended to ``.gitattributes``, read as ``install`` reads it."""
    target = _target(top, path)
    old = attribute_lines(target)
    if line in (entry.rstrip("\r\n") for entry in old):
        return Step(path, "keep", f"already has {line!r}")
    ending = line_ending(old)
    lead = "" if not old or old[-1].endswith(("\n", "\r")) else ending
    return Step(path, "append" if target.exists() else "create", lead + line + ending)


def _workflow_step(top: Path, branch: str, origin: Source | None) -> Step:
    """The workflow, when missing: the Action pinned by commit (tag in a comment), else by tag
    with the command finding its commit."""
    if _target(top, WORKFLOW).exists():
        return Step(WORKFLOW, "keep", "exists; left as it is")
    if origin is None:
        return Step(WORKFLOW, "keep", UNKNOWN_SOURCE)
    action = origin.action
    if action is None:
        return Step(
            WORKFLOW,
            "keep",
            f"not written: {origin.url} is not a GitHub repository, so a workflow cannot "
            "use its Action; run `changelog verify --base origin/<branch> --format "
            "github` in your CI instead",
        )
    comment = f" # {origin.tag}" if origin.pinned and origin.tag else ""
    text = workflow_text(branch, action + comment)
    if not workflow_reads_back(text, branch, action):
        return Step(
            WORKFLOW,
            "keep",
            f"not written: the branch name {branch!r} does not read back from it; write "
            "the workflow by hand (see the README)",
        )
    note = (
        ""
        if origin.pinned
        else f"{origin.ref} is not a commit, so the Action is pinned by a name that can "
        f"be moved (zizmor reports it as unpinned-uses); its commit is the last line's "
        f"first field of `{origin.find_commit()}`: put it in place of {origin.ref}, "
        f"followed by `# {origin.ref}`, or run init with --source {origin.url}@<commit>"
    )
    return Step(WORKFLOW, "create", text, note)


def _report(steps: list[Step], dry_run: bool, fmt: str, changelog: str, masters: list[str]) -> None:
    if fmt == "json":
        document = {
            "ok": True,
            "dry_run": dry_run,
            "changelog": changelog,
            "master_configs": masters,
            "steps": [step.__dict__ for step in steps],
        }
        print(json.dumps(document, indent=2))
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
        if not step.text:
            print(f"init: {verb} {step.path} (empty: `changelog add` appends the first entry)")
            continue
        print(f"init: {verb} {step.path}:")
        print("".join(f"    {line}\n" for line in step.text.splitlines()), end="")
        if step.note:
            print(f"init: {step.path}: {step.note}")
    if any(step.path == DOTFILE and step.action != "keep" for step in steps):
        print(
            f"init: commit {DOTFILE} to the protected branch first: `verify --base` reads "
            "the settings from the base, never from the branch it judges"
        )
    done = (
        "done; commit these files, and run `changelog install` in each clone for the merge driver"
    )
    print(f"init: {'nothing written (--dry-run)' if dry_run else done}")
