"""Why a merge is refused (:class:`Problem`), and how the refusals name the sides."""

from __future__ import annotations

from dataclasses import dataclass


def possessive(name: str) -> str:
    """``ours'``, ``theirs'``, ``base's``: the possessive of a side's name."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


@dataclass(frozen=True)
class Problem:
    """Why a merge is refused. ``side`` names the input the ``line`` refers to."""

    code: str
    side: str
    line: int | None
    message: str
