"""The answers to ``changelog add``'s questions (:class:`Draft`), kept as
``.git/perf-changelog-draft.json`` when a save fails or typed text is left, for the next
``add`` to offer."""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import TypedDict

from changelog_tool.gitrepo import git_dir
from changelog_tool.ledger import writer
from changelog_tool.ledger.entry import Fields, normalize

DRAFT_NAME = "perf-changelog-draft.json"
VERSION = 2
"""The draft file's layout (1 named each flag; 2 holds the entry schema's flags and
integers by their field names)."""


class Answers(TypedDict, total=False):
    """``add``'s answer flags as argparse gives them: argparse's names and defaults are
    :class:`Draft`'s, so ``Draft(**answers)`` is the draft they give."""

    keys: list[str]
    scenario_types: list[str]
    description: list[str]
    pr_link: str
    flags: list[str]
    numbers: dict[str, int]


@dataclass
class Draft:
    keys: list[str] = field(default_factory=list)
    scenario_types: list[str] = field(default_factory=list)
    description: list[str] = field(default_factory=list)
    pr_link: str = ""
    flags: list[str] = field(default_factory=list)  # the boolean fields set true
    numbers: dict[str, int] = field(default_factory=dict)  # the integer fields given

    def overlay(self, other: Draft) -> Draft:
        """This draft with every answer ``other`` gives replacing ours."""
        return replace(self, **{name: value for name, value in asdict(other).items() if value})

    def has_text(self) -> bool:
        """Something a person typed that would be lost on leaving."""
        return any(line.strip() for line in self.description)

    def to_entry(self, placeholder: str, *, typed: bool = True) -> Fields:
        """The entry (unvalidated); ``typed`` answers lose blank lines and surrounding spaces."""
        lines, link = self.description, self.pr_link
        if typed:
            lines, link = [line.strip() for line in lines if line.strip()], link.strip()
        entry: Fields = {
            "config-keys": self.keys,
            "scenario-type": self.scenario_types,
            "description": lines,
            "pr-link": link or placeholder,
        }
        return normalize(entry | dict.fromkeys(self.flags, True) | self.numbers)


def _fits(value: object, default: object) -> bool:
    """``value`` has the type of the answer whose default is ``default``."""
    if isinstance(default, list):
        return isinstance(value, list) and all(isinstance(v, str) for v in value)
    if isinstance(default, dict):
        return isinstance(value, dict) and all(type(v) is int for v in value.values())
    return isinstance(value, str)


def missing(entry: Fields) -> list[str]:
    """The answers an entry cannot go without that it lacks: ``config-keys``, ``description``."""
    return [name for name in ("config-keys", "description") if not entry.get(name)]


def location(changelog: Path) -> Path:
    """The draft file: in ``changelog``'s repository's git directory, else beside it."""
    folder = changelog.resolve().parent
    found = git_dir(folder) if folder.is_dir() else None
    return (found or folder) / DRAFT_NAME


def save(changelog: Path, draft: Draft) -> Path:
    """Keep ``draft`` for ``changelog`` (atomically); returns the draft file."""
    target = location(changelog)
    document = {
        "version": VERSION,
        "changelog": str(changelog.resolve()),
        "saved": time.strftime("%Y-%m-%d %H:%M:%S"),
        "answers": asdict(draft),
    }
    text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    writer.replace(target, text.encode("utf-8"))
    return target


def load(changelog: Path) -> tuple[Draft, str] | None:
    """The kept draft for ``changelog`` and when it was saved, if there is one we wrote."""
    try:
        document = json.loads(location(changelog).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(document, dict)
        or document.get("version") != VERSION
        or document.get("changelog") != str(changelog.resolve())
        or not isinstance(answers := document.get("answers"), dict)
    ):
        return None
    draft = Draft()
    given = {spec.name: answers[spec.name] for spec in fields(Draft) if spec.name in answers}
    if not all(_fits(value, getattr(draft, name)) for name, value in given.items()):
        return None
    return replace(draft, **given), str(document.get("saved", ""))


def discard(changelog: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        location(changelog).unlink()
