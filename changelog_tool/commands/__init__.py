"""One module per verb: ``configure(parser)`` and ``run(**kwargs) -> int``."""

from __future__ import annotations

from argparse import ArgumentParser, ArgumentTypeError
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.gitrepo import Repo
from changelog_tool.ledger import writer
from changelog_tool.ledger.entry import pr_number_problem
from changelog_tool.merge.outcome import repo_path
from changelog_tool.settings import Settings


def pull_request_number(text: str) -> int:
    """``--pr-number``'s type: a pull-request number by the pr-link rule."""
    why = pr_number_problem(text)
    if why is not None:
        raise ArgumentTypeError(f"must be a pull request number (1 or more): {why}")
    return int(text)


def add_format(parser: ArgumentParser, *, github: bool = False) -> None:
    """``--format`` as every command but ``add`` takes it: text, github or one JSON document."""
    choices = ("text", "github", "json") if github else ("text", "json")
    shown = (
        "text (default), github (workflow annotations) or json"
        if github
        else "text (default) or json (one document on stdout)"
    )
    parser.add_argument("--format", choices=choices, default="text", help=f"output: {shown}")


@contextmanager
def changelog_here(*, hold: bool = False) -> Iterator[tuple[Repo, Settings, str]]:
    """The repository here, its settings (their ``max-bytes`` its read limit) and the
    changelog's path in it; ``hold``: the writer's lock on the changelog held throughout."""
    with Repo.open(Path.cwd()) as repo:
        settings = settings_module.load(Path.cwd())
        repo.limit = settings.max_bytes
        path = repo_path(settings.changelog_path, repo.root)
        with writer.hold(repo.root / path, writer.Bounds.of(settings)) if hold else nullcontext():
            yield repo, settings, path
