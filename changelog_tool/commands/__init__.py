"""One module per verb: ``configure(parser)`` and ``run(**kwargs) -> int``."""

from __future__ import annotations


def pull_request_number(text: str) -> int:
    """``--pr-number``'s type, for every command that takes one: a pull request number
    (1 or more)."""
    from argparse import ArgumentTypeError

    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise ArgumentTypeError(f"must be a pull request number (1 or more), not {text!r}")
    return number
