"""The repository a command that writes the changelog under the merge's rules works in:
``resolve``, ``sync``, ``finalize`` and ``install``."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.errors import UsageError
from changelog_tool.gitrepo import Repo
from changelog_tool.ledger import writer
from changelog_tool.settings import Settings


@contextmanager
def changelog_here(*, hold: bool = False) -> Iterator[tuple[Repo, Settings, str]]:
    """The repository (``max-bytes`` its read limit), settings and changelog path here;
    ``hold``: the writer's lock on the changelog held throughout."""
    with Repo.open(Path.cwd()) as repo:
        settings = settings_module.load(Path.cwd())
        repo.limit = settings.max_bytes
        changelog, top = settings.changelog_path, repo.root
        if not changelog.resolve().is_relative_to(top.resolve()):
            raise UsageError(f"the changelog {changelog} is outside this repository ({top})")
        path = changelog.resolve().relative_to(top.resolve()).as_posix()
        with writer.hold(repo.root / path, writer.Bounds.of(settings)) if hold else nullcontext():
            yield repo, settings, path
