"""One module per verb: ``configure(parser)`` and ``run(**kwargs) -> int``."""

from __future__ import annotations

from argparse import ArgumentParser, ArgumentTypeError

from changelog_tool.ledger.entry import pr_number_problem


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


def add_range(parser: ArgumentParser, head: str = "the work tree") -> None:
    """``--base REF`` and ``--head REF`` as ``verify`` and ``keys`` take them."""
    parser.add_argument(
        "--base",
        metavar="REF",
        help="compare with REF's merge-base (default: the protected ref, e.g. origin/main)",
    )
    parser.add_argument("--head", metavar="REF", help=f"head commit (default: {head})")
