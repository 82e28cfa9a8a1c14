"""The error hierarchy. One place (``cli.main``) maps these to exit codes."""

from __future__ import annotations


class ChangelogError(Exception):
    """Input refused or a check failed: exit 1."""

    exit_code = 1


class UsageError(ChangelogError):
    """The command line is wrong or an answer is missing: exit 2."""

    exit_code = 2


class EnvironmentProblem(ChangelogError):
    """The environment is unusable (not a git repo, unknown ref, shallow clone): exit 2."""

    exit_code = 2


class ConcurrentChange(ChangelogError):
    """The file changed between reading it and writing to it."""


def too_large(name: str, size: int, limit: int | None) -> EnvironmentProblem | None:
    """The one refusal of a file over the ``max-bytes`` limit (``None`` when it fits),
    made before the file is read: by the diff engine, the lints, ``verify --file``,
    ``add`` and the merge driver alike."""
    if limit is None or size <= limit:
        return None
    return EnvironmentProblem(
        f"{name!r} is {size} bytes, over the {limit}-byte limit for a file the tool "
        "reads (the `max-bytes` setting); it is not read: split or shrink the file, or "
        "raise `max-bytes` in the settings (the gate uses the base branch's, so that "
        "change lands first)"
    )
