"""The ``changelog`` command: parse, dispatch to ``commands/<verb>.py``, map errors.

Each command module has ``configure(parser)`` and ``run(**kwargs) -> int``;
modules import what they need inside ``run`` so that ``verify`` and the merge
driver start fast and never load the TUI.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from types import ModuleType

from changelog_tool import __version__
from changelog_tool.errors import ChangelogError

COMMANDS: dict[str, tuple[str, str]] = {
    "add": ("add", "append an entry (TUI in a terminal; flags for scripts)"),
    "verify": ("verify", "check the changelog (CI gate)"),
    "keys": ("keys", "show the master-config keys a branch changed"),
    "log": ("log", "show the entries that apply to a key"),
    "merge-driver": ("merge_driver", "git merge driver for perf-changelog.yaml"),
    "install": ("install", "set up the merge driver in this clone"),
    "resolve": ("resolve", "resolve a stopped rebase/merge conflict on the changelog"),
    "sync": ("sync", "rewrite the branch's changelog as protected bytes + own entries"),
    "demo": ("demo", "open the TUI on a throwaway realistic repository"),
}


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"changelog_tool.commands.{COMMANDS[name][0]}")


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser; only the chosen command's module is imported (start-up matters
    inside `git rebase` and CI), all of them when none is chosen yet."""
    words = list(sys.argv[1:] if argv is None else argv)
    chosen = next((w for w in words if not w.startswith("-")), None)
    parser = argparse.ArgumentParser(
        prog="changelog", description="Keep perf-changelog.yaml honest."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (_, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        if chosen not in COMMANDS or name == chosen:
            _module(name).configure(command_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser(argv)
    try:
        args = vars(parser.parse_args(argv))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    module = _module(args.pop("command"))
    try:
        code: int = module.run(**args)
    except ChangelogError as exc:
        print(f"changelog: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("changelog: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    return code


def entry_point() -> None:
    raise SystemExit(main())
