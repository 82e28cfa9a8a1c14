"""Where this installation comes from, for generated workflows: the VCS URL and commit of pip's
install record (PEP 610 ``direct_url.json``), or ``init --source``; never a guess."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from importlib import metadata

from changelog_tool import DISTRIBUTION
from changelog_tool.errors import UsageError
from changelog_tool.github import slug_of

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
    if not record_text:
        return None
    try:
        document = json.loads(record_text)
    except ValueError:
        return None
    vcs = document.get("vcs_info") if isinstance(document, dict) else None
    url = document.get("url") if isinstance(document, dict) else None
    if not isinstance(vcs, dict) or vcs.get("vcs") != "git" or not isinstance(url, str):
        return None
    commit = vcs.get("commit_id")
    if not isinstance(commit, str) or not COMMIT.fullmatch(commit):
        return None
    return source_of(url, commit, f"v{version}" if RELEASE.fullmatch(version) else None)


def installed_source() -> Source | None:
    """This installation's source, from its install record (``None`` when unknown)."""
    try:
        installed = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return None
    return from_install_record(installed.read_text("direct_url.json"), installed.version)
