"""``changelog init [--dry-run]``: adopt the tool in one command, writing only what is missing;
each file it writes is read back as its own tool reads it (YAML 1.1, ``tomllib``), else kept
with what to add by hand. See README.md, "Adopt it in your repository"."""

from __future__ import annotations

import argparse
import json
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from ruamel.yaml.error import YAMLError

from changelog_tool.commands import add_format, adoption
from changelog_tool.confinement import confined
from changelog_tool.diff.local import master_paths
from changelog_tool.errors import ChangelogError, EnvironmentProblem, os_error
from changelog_tool.gitrepo import Repo, git
from changelog_tool.gitrepo.process import remote_names
from changelog_tool.ledger import writer
from changelog_tool.merge.setup import attribute_line, attribute_lines, line_ending
from changelog_tool.provenance import Source, installed_source, parse_source
from changelog_tool.refnames import USUAL_REMOTES, branch_name
from changelog_tool.settings import DEFAULT_MASTER_GLOBS, PYPROJECT, find, load
from changelog_tool.yaml import yaml11
from changelog_tool.yaml.limits import YamlRefused

WORKFLOW = ".github/workflows/perf-changelog.yml"
PRE_COMMIT = ".pre-commit-config.yaml"
SETTINGS = adoption.SETTINGS
YAML_WORDS = {"y", "yes", "n", "no", "on", "off", "true", "false", "null", "~"}
HOOK_ID = "perf-changelog"


@dataclass(frozen=True)
class Step:
    path: str
    action: str  # "create", "append", "keep"
    text: str = ""
    note: str = ""  # said after the file's text


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


UNKNOWN_SOURCE = (
    "not written: where perf-changelog comes from is unknown (this copy was not "
    "installed from a git URL); run `changelog init --source URL@REF` with its git "
    "repository and a tag or commit, e.g. https://github.com/OWNER/NAME@<tag>"
)


def run(*, dry_run: bool, format: str, source: str | None = None) -> int:
    origin = parse_source(source) if source is not None else installed_source()
    with Repo.open(Path.cwd()) as repo:  # outside a repository: the one message for it
        top = repo.root
    files = adoption.yaml_files(top)
    changelog = _changelog(top, files)
    masters = adoption.master_configs(files)
    if not masters:
        raise EnvironmentProblem(
            f"{adoption.no_master_config(top)}; add one, or write "
            f'{SETTINGS} with `master-configs = ["<glob>"]` by hand'
        )
    settings: dict[str, str | list[str]] = {}
    if changelog != "perf-changelog.yaml":
        settings["changelog"] = changelog
    read = _matching(top, DEFAULT_MASTER_GLOBS)
    if not read:
        globs = sorted({str(Path(m).parent / adoption.MASTER) for m in masters})
        settings["master-configs"] = globs
        read = _matching(top, globs)
    current = load(top)
    branch, refs = _protected(top, current.protected_ref)
    if refs:
        settings["protected-ref"] = refs
    settings_step = _settings(top, settings, current.source)
    steps = [
        _file(top, changelog, ""),
        settings_step,
        _line(top, ".gitattributes", attribute_line(changelog)),
        _workflow_step(top, branch, origin),
        _pre_commit(top, origin),
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
        return git(top, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}").returncode == 0

    remotes = remote_names(top)
    for ref in refs:
        if exists(ref):
            return branch_name(ref, remotes), []
    names = remotes()
    remote = next((r for r in (*USUAL_REMOTES, *sorted(names)) if r in names), "origin")
    remote_head = git(top, "symbolic-ref", "--quiet", "--short", f"refs/remotes/{remote}/HEAD")
    candidates = [
        branch_name(remote_head.stdout.decode("utf-8", "replace").strip(), remotes)
        if remote_head.returncode == 0
        else "",
        "master",
        git(top, "branch", "--show-current").stdout.decode("utf-8", "replace").strip(),
    ]
    for name in candidates:
        if name and (exists(name) or exists(f"{remote}/{name}") or name == candidates[-1]):
            return name, [f"{remote}/{name}", name]
    raise EnvironmentProblem(
        f"none of the protected refs ({' or '.join(refs)}) exists in this clone and HEAD "
        f"is on no branch; check out the protected branch and run `changelog init` again, "
        f'or set `protected-ref = ["<branch>"]` in {SETTINGS}'
    )


def _matching(top: Path, globs: Sequence[str]) -> list[str]:
    """The files the tool reads as master configs under these globs."""
    return [path.relative_to(top).as_posix() for path in master_paths(top, globs)]


def _changelog(top: Path, files: list[str]) -> str:
    """``perf-changelog.yaml`` at the top, else the first file so named, else the default."""
    if (top / "perf-changelog.yaml").is_file():
        return "perf-changelog.yaml"
    return next(
        (name for name in files if name.endswith("perf-changelog.yaml")), "perf-changelog.yaml"
    )


def _file(top: Path, path: str, text: str) -> Step:
    return (
        Step(path, "keep", "exists; left as it is")
        if _target(top, path).exists()
        else Step(path, "create", text)
    )


def _settings(top: Path, settings: dict[str, str | list[str]], source: str | None) -> Step:
    """The settings file where defaults do not fit, never shadowing those in pyproject.toml."""
    if not settings:
        return Step(SETTINGS, "keep", "the defaults fit: no settings needed")
    text = toml_settings(settings)
    hand = "".join(f"    {line}\n" for line in text.splitlines())
    if source is not None and find(top).file == PYPROJECT:
        return Step(
            SETTINGS,
            "keep",
            f"not written: the settings are in {source}, which a {SETTINGS} would "
            f"override; set these there by hand:\n{hand}",
        )
    step = _file(top, SETTINGS, text)
    if step.action == "keep":
        return Step(SETTINGS, "keep", f"exists; left as it is: set these in it by hand:\n{hand}")
    return step


def _line(top: Path, path: str, line: str) -> Step:
    """The attribute line appended to ``.gitattributes``, read as ``install`` reads it."""
    target = _target(top, path)
    old = attribute_lines(target)
    if line in (entry.rstrip("\r\n") for entry in old):
        return Step(path, "keep", f"already has {line!r}")
    if not target.exists():
        return Step(path, "create", line + "\n")
    ending = line_ending(old)
    lead = "" if not old or old[-1].endswith(("\n", "\r")) else ending
    return Step(path, "append", lead + line + ending)


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
    text = _workflow(branch, action + comment)
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


CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"
"""The checkout the written workflow uses: the commit of the tag, the same pin as this
repository's own workflows (a test holds every pin of the project to one)."""


def _workflow(branch: str, action: str) -> str:
    return (
        "name: perf-changelog\n"
        "on:\n  pull_request:\n"
        # labeled/unlabeled: adding or removing the opt-out label re-runs the gate
        "    types: [opened, synchronize, reopened, labeled, unlabeled]\n"
        f"  push:\n    branches: [{flow(branch)}]\n"
        "  merge_group:\n"
        "permissions:\n  contents: read\n"
        "jobs:\n  gate:\n    runs-on: ubuntu-latest\n    steps:\n"
        # pinned by commit (the tag in the comment); a shallow checkout, because the
        # Action fetches the base and deepens the history itself; the credentials stay
        # for that fetch (a private repository's)
        f"      - uses: {CHECKOUT}\n        with:\n          persist-credentials: true\n"
        f"      - uses: {action}\n"
    )


def _report(steps: list[Step], dry_run: bool, fmt: str, changelog: str, masters: list[str]) -> None:
    if fmt == "json":
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
        if not step.text:
            print(f"init: {verb} {step.path} (empty: `changelog add` appends the first entry)")
            continue
        print(f"init: {verb} {step.path}:")
        print("".join(f"    {line}\n" for line in step.text.splitlines()), end="")
        if step.note:
            print(f"init: {step.path}: {step.note}")
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


def flow(name: str) -> str:
    """A name as a YAML scalar, quoted where a YAML 1.1 reader would read something else."""
    plain = re.fullmatch(r"[A-Za-z][A-Za-z0-9_./-]*", name) and name.lower() not in YAML_WORDS
    return name if plain else json.dumps(name, ensure_ascii=False)


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (every character TOML makes escape, escaped)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04X}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def toml_settings(settings: dict[str, str | list[str]]) -> str:
    """The settings file's text, proved to read back as ``settings``."""
    lines = []
    for name, value in settings.items():
        shown = (
            toml_string(value)
            if isinstance(value, str)
            else "[" + ", ".join(toml_string(v) for v in value) + "]"
        )
        lines.append(f"{name} = {shown}\n")
    text = "".join(lines)
    if tomllib.loads(text) != settings:  # every value is quoted: a failure is a bug here
        raise AssertionError(f"the settings init writes do not read back: {text!r}")
    return text


def read_yaml(data: bytes) -> tuple[object, str | None]:
    """The document's value as a YAML 1.1 safe reader builds it, or why it cannot."""
    try:
        return yaml11.load(data), None
    except (yaml11.Unreadable, YamlRefused, YAMLError, UnicodeDecodeError) as exc:
        return None, " ".join(str(exc).split())


def _hook(origin: Source, indent: int) -> str:
    pad = " " * indent
    # a commit with its tag in the comment pre-commit's own `autoupdate --freeze` writes
    frozen = f"  # frozen: {origin.tag}" if origin.pinned and origin.tag else ""
    return (
        f"{pad}- repo: {flow(origin.url)}\n{pad}  rev: {flow(origin.ref)}{frozen}\n"
        f"{pad}  hooks:\n{pad}    - id: {HOOK_ID}\n"
    )


def _has_hook(repos: object) -> bool:
    return isinstance(repos, list) and any(
        isinstance(repo, dict)
        and isinstance(repo.get("hooks"), list)
        and any(isinstance(h, dict) and h.get("id") == HOOK_ID for h in repo["hooks"])
        for repo in repos
    )


HAS_HOOK = "already has the perf-changelog hook"
INSTALL_TYPES_KEY = "default_install_hook_types"
INSTALL_TYPES = ["pre-commit", "pre-push"]
INSTALL_TYPES_LINE = f"{INSTALL_TYPES_KEY}: [{', '.join(INSTALL_TYPES)}]\n"
"""What makes a plain ``pre-commit install`` install the push hook too: the coverage
hook runs at pre-push, and pre-commit installs only the commit hook by default."""


def _pre_commit(top: Path, origin: Source | None) -> Step:
    """The perf-changelog hook added to ``.pre-commit-config.yaml`` as a block item (with hook
    types when it sets none), proved by reading back."""
    target = _target(top, PRE_COMMIT)
    old = target.read_bytes() if target.is_file() else None
    value, problem = read_yaml(old) if old is not None else (None, None)
    repos = value.get("repos") if isinstance(value, dict) else None
    if origin is None:
        return Step(PRE_COMMIT, "keep", HAS_HOOK if _has_hook(repos) else UNKNOWN_SOURCE)
    alone, _ = read_yaml(("repos:\n" + _hook(origin, 2)).encode())
    item = alone["repos"][0] if isinstance(alone, dict) else None
    by_hand = "add this item to its `repos:` list by hand:\n" + _hook(origin, 2).rstrip("\n")
    if old is None:
        text = INSTALL_TYPES_LINE + "repos:\n" + _hook(origin, 2)
        return _proved(b"", text, {INSTALL_TYPES_KEY: INSTALL_TYPES, "repos": [item]}, "create")
    if problem is not None:
        return Step(
            PRE_COMMIT, "keep", f"does not parse as YAML ({problem}); nothing written: {by_hand}"
        )
    if value is not None and not isinstance(value, dict):
        return Step(PRE_COMMIT, "keep", f"is not a mapping of settings; nothing written: {by_hand}")
    if repos is not None and not isinstance(repos, list):
        return Step(PRE_COMMIT, "keep", f"its `repos:` is not a list; nothing written: {by_hand}")
    ending = "\r\n" if b"\n" in old and old.split(b"\n", 1)[0].endswith(b"\r") else "\n"
    lead = "" if not old or old.endswith(b"\n") else ending
    # the file's own hook types are its owner's: the key is added only when absent
    types = {} if INSTALL_TYPES_KEY in (value or {}) else {INSTALL_TYPES_KEY: INSTALL_TYPES}
    if repos is not None and _has_hook(repos):
        if types:
            edit = _proved(
                old,
                lead + INSTALL_TYPES_LINE.replace("\n", ending),
                {**(value or {}), **types},
                "append",
            )
            if edit.action == "append":
                return edit
        return Step(PRE_COMMIT, "keep", HAS_HOOK)
    wanted = {**(value or {}), "repos": [*(repos or []), item]}
    candidates = (
        [_hook(origin, indent) for indent in (2, 0, 4)]
        if repos is not None
        else ["repos:\n" + _hook(origin, 2)]
    )
    for extra in [INSTALL_TYPES_LINE, ""] if types else [""]:
        for text in candidates:
            full = lead + (text + extra).replace("\n", ending)
            edit = _proved(old, full, {**wanted, **types} if extra else wanted, "append")
            if edit.action == "append":
                return edit
    return Step(
        PRE_COMMIT,
        "keep",
        "cannot be appended to safely (its `repos:` list is written in flow style, such "
        f"as `repos: []`, or is not the file's last block); nothing written: {by_hand}",
    )


def _proved(old: bytes, text: str, wanted: object, action: str) -> Step:
    """``action`` with ``text`` when the file then reads as ``wanted``, else keep."""
    value, problem = read_yaml(old + text.encode())
    if problem is None and value == wanted:
        return Step(PRE_COMMIT, action, text)
    return Step(PRE_COMMIT, "keep", "not written: it would not read back as intended")


def workflow_reads_back(text: str, branch: str, action: str) -> bool:
    """Does the generated workflow read back with its branch and its Action?"""
    value, problem = read_yaml(text.encode())
    if problem is not None or not isinstance(value, dict):
        return False
    triggers = value.get("on", value.get(True))  # YAML 1.1 reads a plain `on` as true
    if not isinstance(triggers, dict):
        return False
    try:
        return bool(
            triggers["push"]["branches"] == [branch]
            and value["jobs"]["gate"]["steps"][-1]["uses"] == action
        )
    except (KeyError, IndexError, TypeError):
        return False
