"""The files ``init`` writes, as text, each proved to read back as its own tool reads it (YAML
1.1, ``tomllib``), and where they take the tool from (pip's install record, PEP 610
``direct_url.json``, or ``--source``); whether a repository uses the tool, for ``install`` too."""

from __future__ import annotations

import fnmatch
import json
import re
import tomllib
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from changelog_tool import DISTRIBUTION
from changelog_tool.errors import UsageError
from changelog_tool.github import slug_of
from changelog_tool.yaml import yaml11
from changelog_tool.yaml.items import YamlProblem

PRE_COMMIT = ".pre-commit-config.yaml"
HOOK_ID = "perf-changelog"
HAS_HOOK = "already has the perf-changelog hook"
INSTALL_TYPES_KEY = "default_install_hook_types"
INSTALL_TYPES = ["pre-commit", "pre-push"]
INSTALL_TYPES_LINE = f"{INSTALL_TYPES_KEY}: [{', '.join(INSTALL_TYPES)}]\n"
"""What makes a plain ``pre-commit install`` install the push hook too: the coverage
hook runs at pre-push, and pre-commit installs only the commit hook by default."""
YAML_WORDS = {"y", "yes", "n", "no", "on", "off", "true", "false", "null", "~"}
CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"
"""The checkout the written workflow uses: the commit of the tag, the same pin as this
repository's own workflows (a test holds every pin of the project to one)."""
UNKNOWN_SOURCE = (
    "not written: where perf-changelog comes from is unknown (this copy was not "
    "installed from a git URL); run `changelog init --source URL@REF` with its git "
    "repository and a tag or commit, e.g. https://github.com/OWNER/NAME@<tag>"
)


SKIP = {".git", ".venv", "node_modules", "__pycache__"}  # folders never searched
MASTER = "*-master.yaml"


def yaml_files(top: Path) -> list[str]:
    """The work tree's YAML files, relative to ``top``, sorted."""
    out = []
    for path in sorted(top.rglob("*.y*ml")):
        rel = path.relative_to(top)
        if not SKIP.intersection(rel.parts) and path.is_file():
            out.append(rel.as_posix())
    return out


def master_configs(files: list[str]) -> list[str]:
    return [name for name in files if fnmatch.fnmatch(name, MASTER)]


def no_master_config(top: Path) -> str:
    return f"no master config ({MASTER}) found in {top}"


def refusal(top: Path, changelog: str, settings_file: str | None) -> str | None:
    """Why ``install`` must not write here (no changelog, settings or master config)."""
    if (top / changelog).exists() or settings_file is not None or master_configs(yaml_files(top)):
        return None
    return (
        f"{no_master_config(top)} and no {changelog}: this "
        "repository does not use perf-changelog, so install writes nothing; run `changelog "
        "init --dry-run` to see what adopting it writes, or `changelog install --force` to "
        "set up the merge driver anyway"
    )


COMMIT = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
RELEASE = re.compile(r"[0-9]+(\.[0-9]+)*")
"""A version a release tag ``v<version>`` builds (a commit after it builds a dev version)."""


@dataclass(frozen=True)
class Source:
    url: str  # a git URL pre-commit can clone
    ref: str  # a tag or a commit
    github: str | None  # ``owner/name`` when the URL is a GitHub repository
    tag: str | None = None  # the release tag of the commit ``ref``, when known

    @property
    def action(self) -> str | None:
        """The ``uses:`` value of the GitHub Action, when it lives on GitHub."""
        return f"{self.github}@{self.ref}" if self.github else None

    @property
    def pinned(self) -> bool:
        """Does ``ref`` name a commit (a tag or a branch can be moved)?"""
        return COMMIT.fullmatch(self.ref) is not None

    def find_commit(self) -> str:
        """The command printing the commit of tag ``ref`` (its last line's first field)."""
        return f"git ls-remote {self.url} refs/tags/{self.ref} 'refs/tags/{self.ref}^{{}}'"


def source_of(url: str, ref: str, tag: str | None = None) -> Source:
    url = url.removeprefix("git+")
    return Source(url, ref, slug_of(url), tag)


def parse_source(text: str) -> Source:
    """``URL@REF`` as ``init --source`` takes it."""
    url, at, ref = text.rpartition("@")
    if not at or not url or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9._/-]*", ref):
        raise UsageError(
            f"--source {text!r}: give the repository and a tag or commit as URL@REF, "
            "e.g. https://github.com/OWNER/NAME@v1.2.3"
        )
    return source_of(url, ref)


def from_install_record(record_text: str | None, version: str = "") -> Source | None:
    """The git source ``direct_url.json`` records, tagged ``v<version>`` for a release."""
    try:  # a record not of this shape is no git source
        document = json.loads(record_text or "")
        vcs, url, commit = document["vcs_info"], document["url"], document["vcs_info"]["commit_id"]
    except (ValueError, KeyError, TypeError):
        return None
    if vcs.get("vcs") != "git" or not isinstance(url, str) or not isinstance(commit, str):
        return None
    if not COMMIT.fullmatch(commit):
        return None
    return source_of(url, commit, f"v{version}" if RELEASE.fullmatch(version) else None)


def installed_source() -> Source | None:
    """This installation's source, from its install record (``None`` when unknown)."""
    try:
        installed = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    return from_install_record(installed.read_text("direct_url.json"), installed.version)


@dataclass(frozen=True)
class Step:
    path: str
    action: str  # "create", "append", "keep"
    text: str = ""
    note: str = ""  # said after the file's text


def workflow_text(branch: str, action: str) -> str:
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


def flow(name: str) -> str:
    """A name as a YAML scalar, quoted where a YAML 1.1 reader would read something else."""
    plain = re.fullmatch(r"[A-Za-z][A-Za-z0-9_./-]*", name) and name.lower() not in YAML_WORDS
    return name if plain else json.dumps(name, ensure_ascii=False)


def toml_string(text: str) -> str:
    """``text`` as a TOML basic string (every character TOML makes escape, escaped)."""

    def escaped(found: re.Match[str]) -> str:
        char = found.group()
        return "\\" + char if char in '"\\' else f"\\u{ord(char):04X}"

    return '"' + re.sub(r'["\\\x00-\x1f\x7f]', escaped, text) + '"'


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
    except (YamlProblem, UnicodeDecodeError) as exc:
        return None, " ".join(str(exc).split())


def hook_item(origin: Source, indent: int) -> str:
    pad = " " * indent
    # a commit with its tag in the comment pre-commit's own `autoupdate --freeze` writes
    frozen = f"  # frozen: {origin.tag}" if origin.pinned and origin.tag else ""
    return (
        f"{pad}- repo: {flow(origin.url)}\n{pad}  rev: {flow(origin.ref)}{frozen}\n"
        f"{pad}  hooks:\n{pad}    - id: {HOOK_ID}\n"
    )


def has_hook(repos: object) -> bool:
    return isinstance(repos, list) and any(
        isinstance(repo, dict)
        and isinstance(repo.get("hooks"), list)
        and any(isinstance(h, dict) and h.get("id") == HOOK_ID for h in repo["hooks"])
        for repo in repos
    )


def pre_commit(target: Path, origin: Source | None) -> Step:
    """The perf-changelog hook added to ``.pre-commit-config.yaml`` as a block item (with hook
    types when it sets none), proved by reading back."""
    old = target.read_bytes() if target.is_file() else None
    value, problem = read_yaml(old) if old is not None else (None, None)
    repos = value.get("repos") if isinstance(value, dict) else None
    if origin is None:
        return Step(PRE_COMMIT, "keep", HAS_HOOK if has_hook(repos) else UNKNOWN_SOURCE)
    alone, _ = read_yaml(("repos:\n" + hook_item(origin, 2)).encode())
    item = alone["repos"][0] if isinstance(alone, dict) else None
    by_hand = "add this item to its `repos:` list by hand:\n" + hook_item(origin, 2).rstrip("\n")
    if old is None:
        text = INSTALL_TYPES_LINE + "repos:\n" + hook_item(origin, 2)
        return proved(b"", text, {INSTALL_TYPES_KEY: INSTALL_TYPES, "repos": [item]}, "create")
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
    if repos is not None and has_hook(repos):
        if types:
            edit = proved(
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
        [hook_item(origin, indent) for indent in (2, 0, 4)]
        if repos is not None
        else ["repos:\n" + hook_item(origin, 2)]
    )
    for extra in [INSTALL_TYPES_LINE, ""] if types else [""]:
        for text in candidates:
            full = lead + (text + extra).replace("\n", ending)
            edit = proved(old, full, {**wanted, **types} if extra else wanted, "append")
            if edit.action == "append":
                return edit
    return Step(
        PRE_COMMIT,
        "keep",
        "cannot be appended to safely (its `repos:` list is written in flow style, such "
        f"as `repos: []`, or is not the file's last block); nothing written: {by_hand}",
    )


def proved(old: bytes, text: str, wanted: object, action: str) -> Step:
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
