"""What ``changelog init`` writes into a file, proved by reading the result back as its own tool
reads it (YAML 1.1, ``tomllib``): it must hold what it held plus init's addition, else the
file is kept and the output says what to add by hand."""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass

from ruamel.yaml.error import YAMLError

from changelog_tool.provenance import Source
from changelog_tool.yaml import yaml11
from changelog_tool.yaml.limits import YamlRefused

YAML_WORDS = {"y", "yes", "n", "no", "on", "off", "true", "false", "null", "~"}
HOOK_ID = "perf-changelog"


@dataclass(frozen=True)
class Edit:
    """What to do to a file: ``create`` or ``append`` ``text``, or ``keep`` it (``text`` says
    why)."""

    action: str
    text: str


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


def _has_hook(repos: list[object]) -> bool:
    return any(
        isinstance(repo, dict)
        and isinstance(repo.get("hooks"), list)
        and any(isinstance(h, dict) and h.get("id") == HOOK_ID for h in repo["hooks"])
        for repo in repos
    )


HAS_HOOK = "already has the perf-changelog hook"


def has_hook(old: bytes) -> bool:
    """Does this ``.pre-commit-config.yaml`` already name the perf-changelog hook?"""
    value, problem = read_yaml(old)
    repos = value.get("repos") if problem is None and isinstance(value, dict) else None
    return isinstance(repos, list) and _has_hook(repos)


INSTALL_TYPES_KEY = "default_install_hook_types"
INSTALL_TYPES = ["pre-commit", "pre-push"]
INSTALL_TYPES_LINE = f"{INSTALL_TYPES_KEY}: [{', '.join(INSTALL_TYPES)}]\n"
"""What makes a plain ``pre-commit install`` install the push hook too: the coverage
hook runs at pre-push, and pre-commit installs only the commit hook by default."""


def pre_commit(old: bytes | None, origin: Source) -> Edit:
    """The perf-changelog hook added to a ``.pre-commit-config.yaml`` as a block item (with hook
    types when it sets none), proved by reading back; ``None`` when none."""
    alone, _ = read_yaml(("repos:\n" + _hook(origin, 2)).encode())
    item = alone["repos"][0] if isinstance(alone, dict) else None
    by_hand = "add this item to its `repos:` list by hand:\n" + _hook(origin, 2).rstrip("\n")
    if old is None:
        text = INSTALL_TYPES_LINE + "repos:\n" + _hook(origin, 2)
        return _proved(b"", text, {INSTALL_TYPES_KEY: INSTALL_TYPES, "repos": [item]}, "create")
    value, problem = read_yaml(old)
    if problem is not None:
        return Edit("keep", f"does not parse as YAML ({problem}); nothing written: {by_hand}")
    if value is not None and not isinstance(value, dict):
        return Edit("keep", f"is not a mapping of settings; nothing written: {by_hand}")
    repos = (value or {}).get("repos")
    if repos is not None and not isinstance(repos, list):
        return Edit("keep", f"its `repos:` is not a list; nothing written: {by_hand}")
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
        return Edit("keep", HAS_HOOK)
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
    return Edit(
        "keep",
        "cannot be appended to safely (its `repos:` list is written in flow style, such "
        f"as `repos: []`, or is not the file's last block); nothing written: {by_hand}",
    )


def _proved(old: bytes, text: str, wanted: object, action: str) -> Edit:
    """``action`` with ``text`` when the file then reads as ``wanted``, else keep."""
    value, problem = read_yaml(old + text.encode())
    if problem is None and value == wanted:
        return Edit(action, text)
    return Edit("keep", "not written: it would not read back as intended")


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
