"""A key put back exactly as the newest base entry covering it benchmarked it: that
entry, and no new one, covers the key."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from changelog_tool.diff.masterparse import MasterProblem
from changelog_tool.diff.masters import MasterFile
from changelog_tool.diff.masterset import MasterSet
from changelog_tool.gitrepo import Repo
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.edits import content, label, parse
from changelog_tool.ledger.entry import matches, texts
from changelog_tool.yaml.values import same


def benchmarked_state(
    repo: Repo, changelog: str, masters: tuple[str, ...], base_sha: str, head: MasterSet
) -> Callable[[str], str | None]:
    """``key`` -> the newest base entry covering it when head's value equals its value at that
    entry's commit; else ``None``."""
    parsed: list[tuple[int, dict[str, object]]] = []  # (line, value), newest first
    rest: Iterator[tuple[int, object]] | None = None

    def newest_first() -> Iterator[tuple[int, dict[str, object]]]:
        """The base's entries from its end, each parsed once for every key asked."""
        nonlocal rest
        if rest is None:
            entries = Ledger(repo.read(base_sha, changelog) or b"")
            rest = ((b.line, parse(content(entries, b), b.line)) for b in reversed(entries.blocks))
        yield from parsed
        for line, value in rest:
            if isinstance(value, dict):
                parsed.append((line, value))
                yield line, value

    def lookup(key: str) -> str | None:
        for line, value in newest_first():
            if any(matches(p, key) for p in texts(value.get("config-keys"))):
                commit = repo.line_origin(base_sha, changelog, line)
                if commit is None or not _same_value(repo, commit, masters, key, head):
                    return None
                link = value.get("pr-link")
                return f"the entry on line {line} of the base ({label(value)}, {link})"
        return None

    return lookup


def _same_value(
    repo: Repo, commit: str, masters: tuple[str, ...], key: str, head: MasterSet
) -> bool:
    found = repo.tree_files(commit, masters)
    then = MasterSet(MasterFile(p, repo.read_blob(s)) for p, s in found.items() if s is not None)
    with contextlib.suppress(MasterProblem, KeyError):  # as this tool and the jobs read it
        return same(then.value(key), head.value(key)) and same(
            then.value_yaml_1_1(key), head.value_yaml_1_1(key)
        )
    return False
