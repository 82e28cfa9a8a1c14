"""GitHub repositories as the tool names them: ``owner/name`` (a slug), and the URLs
a git remote, an install record or ``init --source`` spells them with. The one
parser of them: a URL names a GitHub repository only when its host is exactly
``github.com``."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

SLUG = r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+"
"""A GitHub repository's ``owner/name``, as pull-request links spell it."""
HOST = "github.com"


def pull_link(number: str) -> str:
    """The one shape of a pull-request link, as a regular expression: the repository
    (``owner/name``, group 1), then ``/pull/`` and ``number`` (a pattern, group 2).
    Pull-request links (``[0-9]+``), placeholder links and the entry schema's
    ``pr-link`` pattern are all this shape."""
    return rf"https://github\.com/({SLUG})/pull/({number})"


_SLUG = re.compile(SLUG)
_SCHEMES = ("https", "http", "ssh", "git")


def is_slug(text: str) -> bool:
    """``text`` is an ``owner/name`` (the ``repository`` setting, a pr-link's)."""
    return _SLUG.fullmatch(text) is not None


def slug_of(url: str | None) -> str | None:
    """``owner/name`` of a GitHub repository's URL, else ``None``: ``https://``,
    ``http://``, ``ssh://`` or ``git://`` with host ``github.com`` (a user or token
    before it, a port after it), or ``[user@]github.com:owner/name`` as ssh writes it;
    ``.git`` and one final ``/`` may end it, pip's ``git+`` may begin it. Any other
    host (``notgithub.com``, ``github.com.example``) is not GitHub."""
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
