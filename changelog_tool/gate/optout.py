"""The explicit opt-out: a change that truly cannot affect performance.

Three ways to say so, each with a reason that shows in the output:

* ``--skip-reason TEXT`` (CI passes it from a pull-request label);
* the repository's subject tags in the pull request's title (``--pr-title``: the
  squash commit that will carry them exists only after the merge);
* a commit trailer ``No-Perf-Change: <reason>`` in any commit of the branch;
* the repository's existing subject tags ``[skip-sweep]`` / ``[no perf changes]``
  (the subject is the reason).

An opt-out turns ``uncovered-key`` errors into warnings; it never excuses
edited history, dangling patterns or bad pr-links.
"""

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
    """The opt-out in force, if any: the flag first, then a tag in the pull request's
    title, then the newest commit (``messages`` is called only when neither says)."""
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
