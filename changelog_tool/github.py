"""GitHub repositories as the tool names them: ``owner/name`` slugs and the URLs that spell them.
A URL names one only when its host is exactly ``github.com``."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

SLUG = r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"
"""A GitHub repository's ``owner/name``, as pull-request links spell it."""
HOST = "github.com"


def pull_link(number: str) -> str:
    """The one pull-request link shape as a regex: ``owner/name`` (group 1), ``/pull/``,
    ``number`` (a pattern, group 2)."""
    return rf"https://github\.com/({SLUG})/pull/({number})"


_SLUG = re.compile(SLUG)
_SCHEMES = ("https", "http", "ssh", "git")


def is_slug(text: str) -> bool:
    return _SLUG.fullmatch(text) is not None


def slug_of(url: str | None) -> str | None:
    """``owner/name`` of a GitHub repository's URL in any spelling git takes, else ``None``."""
    text = (url or "").strip().removeprefix("git+")
    if "://" in text:
        try:
            parts = urlsplit(text)
        except ValueError:
            return None
        if parts.scheme not in _SCHEMES or parts.hostname != HOST or parts.query or parts.fragment:
            return None
        path = parts.path.removeprefix("/")
    else:
        host, colon, path = text.partition(":")
        if not colon or "/" in host or host.rpartition("@")[2].lower() != HOST:
            return None
    path = path.removesuffix("/").removesuffix(".git")
    return path if is_slug(path) else None
