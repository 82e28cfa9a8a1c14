"""The explicit opt-out of a change that cannot affect performance: ``--skip-reason``, a subject
tag in ``--pr-title``, a ``No-Perf-Change:`` trailer, or a commit's subject tag. It turns
``uncovered-key`` errors into warnings, nothing else."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

TRAILER = "No-Perf-Change"
_TRAILER = re.compile(rf"^{TRAILER}:[ \t]*(\S.*)$", re.MULTILINE | re.IGNORECASE)
_TAG = re.compile(r"\[(?:skip[- ]sweep|no[- ]perf[- ]changes?)\]", re.IGNORECASE)


@dataclass(frozen=True)
class OptOut:
    reason: str
    source: str

    def to_json(self) -> dict[str, str]:
        return {"reason": self.reason, "source": self.source}

    def describe(self) -> str:
        return f"{self.reason} ({self.source})"


def find(
    messages: Callable[[], Sequence[tuple[str, str]]],
    flag: str | None = None,
    title: str | None = None,
) -> OptOut | None:
    """The opt-out in force: the flag, then the pull request's title, then the newest commit."""
    if flag is not None and flag.strip():
        return OptOut(flag.strip(), "--skip-reason")
    if title is not None and _TAG.search(title.split("\n", 1)[0]):
        return OptOut(title.split("\n", 1)[0].strip(), "subject tag of the pull request's title")
    for sha, message in messages():
        trailer = _TRAILER.search(message)
        if trailer:
            return OptOut(trailer.group(1).strip(), f"{TRAILER} trailer of commit {sha[:10]}")
        subject = message.split("\n", 1)[0]
        if _TAG.search(subject):
            return OptOut(subject.strip(), f"subject tag of commit {sha[:10]}")
    return None
