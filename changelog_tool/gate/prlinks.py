"""pr-link policy: the repository's canonical pull-request link, or a placeholder."""

from __future__ import annotations

import re
from collections.abc import Callable

from changelog_tool.github import slug_of
from changelog_tool.gitrepo import HeadState, remote_url_reader
from changelog_tool.gitrepo.process import remote_names
from changelog_tool.ledger.entry import PULL_LINK, PULL_LINK_SHAPE, pull_link_problem
from changelog_tool.refnames import branch_name
from changelog_tool.settings import Settings, is_placeholder


def canonical(slug: str, number: int) -> str:
    return f"https://github.com/{slug}/pull/{number}"


def problem(
    link: str,
    settings: Settings,
    slug: str | None,
    *,
    allow_placeholder: bool = True,
    pr_number: int | None = None,
) -> str | None:
    if is_placeholder(link, settings.placeholders):
        if allow_placeholder:
            return None
        return f"placeholder pr-link {link!r} is not allowed here; use the pull request's link"
    match = PULL_LINK.match(link)
    if match is None:
        example = canonical(slug or "<owner>/<repo>", pr_number or 123)
        return (
            f"{link!r} is neither a pull-request link ({example}) nor a placeholder "
            f"({', '.join(settings.placeholders)})"
        )
    why = pull_link_problem(link, slug)
    if why is not None:
        return why
    if pr_number is not None and int(match.group(2)) != pr_number:
        return f"{link!r} is not this pull request's link ({canonical(slug or match.group(1), pr_number)})"
    return None


_RECENT_LINK = re.compile(rb"pr-link: *[\"']?" + PULL_LINK_SHAPE.encode())


def repository_slug(
    settings: Settings,
    changelog: bytes | None = None,
    remote_url: Callable[[str], str | None] | None = None,
) -> str | None:
    """The repository the changelog's pr-links point at: the setting; else the ``upstream`` or
    ``origin`` remote on GitHub (unless the newest link shows ``origin`` is a fork); else the
    newest link."""
    if settings.repository:
        return settings.repository
    remote = remote_url or remote_url_reader(settings.root)
    upstream = slug_of(remote("upstream"))
    if upstream is not None:
        return upstream
    found = [m.group(1) for m in _RECENT_LINK.finditer(changelog)] if changelog else []
    linked = found[-1].decode("ascii") if found else None
    origin = slug_of(remote("origin"))
    if origin is None or linked is None:
        return origin or linked
    same_name = origin.split("/")[1].lower() == linked.split("/")[1].lower()
    return linked if same_name else origin  # another name: a renamed repository, trust origin


def protected_head(settings: Settings, head: HeadState | None) -> str | None:
    """The protected branch ``head`` is, or ``None``: the one "is this the protected branch?".
    Never during a replay, nor for an unknown head; a branch by name, a detached HEAD by commit."""
    if head is None or head.operation is not None:
        return None
    if head.branch is not None:
        remotes = remote_names(settings.root)
        names = {branch_name(ref, remotes) for ref in settings.protected_ref}
        return head.branch if head.branch in names else None
    for ref, sha in head.protected_commits.items():
        if sha == head.sha:
            return ref
    return None
