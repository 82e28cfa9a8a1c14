"""pr-link policy: the repository's canonical pull-request link, or a placeholder."""

from __future__ import annotations

import re

from changelog_tool.settings import Settings

_PULL = re.compile(r"^https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/pull/([0-9]+)$")


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
    """Why ``link`` is not acceptable, or ``None`` when it is."""
    if settings.is_placeholder(link):
        if allow_placeholder:
            return None
        return f"placeholder pr-link {link!r} is not allowed here; use the pull request's link"
    match = _PULL.match(link)
    if match is None:
        example = canonical(slug or "<owner>/<repo>", pr_number or 123)
        return (
            f"{link!r} is neither a pull-request link ({example}) nor a placeholder "
            f"({', '.join(settings.placeholders)})"
        )
    if slug is not None and match.group(1).lower() != slug.lower():
        return f"{link!r} points at {match.group(1)}, not this repository ({slug})"
    if pr_number is not None and int(match.group(2)) != pr_number:
        return f"{link!r} is not this pull request's link ({canonical(slug or match.group(1), pr_number)})"
    return None


_RECENT_LINK = re.compile(
    rb"pr-link: *[\"']?https://github\.com/([A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)/pull/[0-9]+"
)


def repository_slug(settings: Settings, changelog: bytes | None = None) -> str | None:
    """The configured slug, else the ``origin`` remote's (on GitHub), else the
    repository of the newest numbered pr-link in ``changelog`` (its tail is
    enough), else unknown."""
    if settings.repository:
        return settings.repository
    from changelog_tool.repo import remote_slug

    slug = remote_slug(settings.root)
    if slug is None and changelog:
        found = _RECENT_LINK.findall(changelog)
        if found:
            slug = found[-1].decode("ascii")
    return slug
