"""The lints' reads from git for a snapshot, handed to the pure :func:`.review.review`."""

from __future__ import annotations

import contextlib
import functools
from collections import Counter
from collections.abc import Callable
from functools import partial

from changelog_tool.diff.engine import Layout, Snapshot
from changelog_tool.diff.keychange import ADDED, MODIFIED
from changelog_tool.diff.masters import BATCH, MasterFile
from changelog_tool.diff.recipes import references, target
from changelog_tool.findings import Finding
from changelog_tool.gitrepo import Repo
from changelog_tool.lint.keystyle import Votes, file_votes
from changelog_tool.lint.review import Changed, MasterKey, review
from changelog_tool.yaml.items import YamlProblem


def lint_findings(
    repo: Repo,
    layout: Layout,
    snap: Snapshot,
    severity: dict[str, str] | None = None,
    limit: int | None = None,
) -> list[Finding]:
    """The lint findings for a snapshot (each file refused unread over ``limit`` bytes)."""
    changes = snap.changes
    base, head = changes.base or "", changes.head
    found = Changed()

    def where(ref: str) -> str | None:
        path = target(ref, layout.prefixes)
        return path if "/" in path else None  # a bare name may live in any recipe folder

    for path in changes.recipes:
        now = repo.read(head, path, limit)
        if now is not None:
            found.recipes[path] = (now, repo.read(base, path, limit))
    heads = {file.path: file for file in snap.masters.files}
    bases = {file.path: file for file in snap.base_masters.files}

    @functools.cache
    def master(path: str) -> tuple[bytes, MasterFile | None, Callable[[], Votes]]:
        known = heads.get(path)  # the bytes the diff engine read
        now = known.data if known is not None else repo.read(head, path, limit) or b""
        return now, bases.get(path), functools.cache(partial(file_votes, now))

    edited = [c for c in changes.keys if c.kind in (ADDED, MODIFIED) and c.path is not None]
    per_file = Counter(c.path for c in edited)
    whole: dict[str, MasterKey] = {}  # the master files linted whole, first
    for change in edited:
        assert change.path is not None
        data, older, style = master(change.path)
        # a file parsed whole (anchors), or one with more changed keys than are read
        # one by one (BATCH, as the diff engine reads values): lint it whole, once
        chunk = snap.masters.chunk(change.key) if per_file[change.path] <= BATCH else None
        if chunk is None:
            whole[change.path] = MasterKey(
                change.path, data, older.data if older is not None else None, 1, None
            )
        else:
            old_chunk = older.chunk(change.key) if older is not None else None
            found.master_keys.append(
                MasterKey(change.path, chunk, old_chunk or None, change.line or 1, style)
            )
        try:
            refs = references(snap.masters.value(change.key))
        except YamlProblem:
            continue
        old_refs: set[str] = set()  # the base's references (none if unreadable)
        if change.kind == MODIFIED:
            with contextlib.suppress(YamlProblem, KeyError):
                old_refs = set(references(snap.base_masters.value(change.key)))
        for ref in refs:
            # a reference the base already held is reported only when its file existed there
            # (dangling on main already: main's past, not this branch's doing)
            recipe = where(ref) if ref in old_refs else None
            if recipe is not None and not repo.exists(base, recipe):
                continue
            found.references.append(
                (change.path, change.key, ref, _line_of(data, ref, change.line or 1))
            )
    found.master_keys[:0] = [whole[path] for path in sorted(whole)]
    return review(found, functools.cache(partial(repo.exists, head)), where, severity)


def _line_of(data: bytes, text: str, start: int) -> int:
    """The first line at or after ``start`` that holds ``text``."""
    needle, lines = text.encode("utf-8"), data.split(b"\n")[start - 1 :]
    return next((start + n for n, line in enumerate(lines) if needle in line), start)
