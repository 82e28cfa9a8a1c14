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
