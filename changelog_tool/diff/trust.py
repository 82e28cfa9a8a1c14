"""The settings ``verify --base`` and ``keys --base`` trust: the base commit's, through the same
parser; the branch's are only compared (``settings-changed``). See docs/security.md."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from changelog_tool.diff.engine import Revisions, Snapshot, snapshot
from changelog_tool.errors import UsageError
from changelog_tool.findings import Finding
from changelog_tool.gitrepo import Repo
from changelog_tool.ledger import entryschema
from changelog_tool.settings import MAX_SETTINGS_BYTES, Found, Reader, Settings, find, parse

_TAKES_EFFECT = (
    "takes effect once it is on the base branch: review it, then pass "
    "--allow-settings-change to make this a warning"
)


def gather_from_base(
    repo: Repo, start: Path, *, base: str, head: str | None = None
) -> tuple[Settings, Snapshot]:
    """The settings at the merge-base of ``base`` and head, and the snapshot read with them."""
    sides = Revisions.of(repo, None, base, head)
    settings, change = base_settings(repo, start, sides)
    schema_change = base_entry_schema(repo, settings, sides)
    found = snapshot(repo, settings, revisions=sides)
    if change is not None and schema_change is not None:
        schema_change = replace(change, message=f"{change.message}; {schema_change.message}")
    found.settings_change = schema_change or change
    return settings, found


def base_entry_schema(repo: Repo, settings: Settings, sides: Revisions) -> Finding | None:
    """Put in use the entry schema the base's settings name; a ``settings-changed`` finding when
    the branch changes that file."""
    read = _reader(repo, sides.base_sha)
    entryschema.use(entryschema.of_settings(settings, read, f"at the base {sides.base_sha[:12]}"))
    if settings.entry_schema is None:
        return None
    path = settings.root / settings.entry_schema
    if _reader(repo, sides.head_rev)(path) == read(path):
        return None
    message = (
        f"this branch changes the entry schema {settings.entry_schema}; the base's schema was "
        f"used. A schema change {_TAKES_EFFECT}"
    )
    where = _name(Found(path.parent, path.name), repo.root.resolve()) or ""
    return Finding("settings-changed", message, where, None)


def base_settings(repo: Repo, start: Path, sides: Revisions) -> tuple[Settings, Finding | None]:
    """The base's settings for ``start``, and a ``settings-changed`` finding when head's differ."""
    at_base = find(start, _reader(repo, sides.base_sha))
    settings = parse(at_base, f"at the base {sides.base_sha[:12]}")
    at_head = find(start, _reader(repo, sides.head_rev))
    problem = None
    try:
        parse(at_head)
    except UsageError as exc:
        problem = str(exc)
    if problem is None and _same(at_base, at_head):
        return settings, None
    top = repo.root.resolve()
    old, new = _name(at_base, top), _name(at_head, top)
    if old is None:
        what = f"adds settings in {new}"
    elif new is None:
        what = f"removes the settings in {old}"
    elif old == new:
        what = f"changes the settings in {new}"
    else:
        what = f"moves the settings from {old} to {new}"
    if problem is not None:
        what += f", and they are refused: {problem}"
    used = settings.source or "the defaults, as the base has no settings"
    message = (
        f"this branch {what}; the base's settings were used ({used}). "
        f"A settings change {_TAKES_EFFECT}"
    )
    return settings, Finding("settings-changed", message, new or old or "", None)


def _same(a: Found, b: Found) -> bool:
    return (a.root, a.file, a.table()) == (b.root, b.file, b.table())


def _name(found: Found, top: Path) -> str | None:
    if found.file is None:
        return None
    path = found.root / found.file
    return path.relative_to(top).as_posix() if path.is_relative_to(top) else str(path)


def _reader(repo: Repo, rev: str) -> Reader:
    """Settings files at ``rev`` (a commit, or the work tree inside the checkout)."""
    top = repo.root.resolve()

    def read(path: Path) -> bytes | None:
        try:
            relative = path.relative_to(top).as_posix()
        except ValueError:
            return None
        return repo.read(rev, relative, MAX_SETTINGS_BYTES)

    return read
