"""The ``changelog`` command: parse, dispatch to ``commands/<verb>.py``, map errors.

Each command module has ``configure(parser)`` and ``run(**kwargs) -> int``;
modules import what they need inside ``run`` so that ``verify`` and the merge
driver start fast and never load the TUI.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from types import ModuleType

from changelog_tool import __version__
from changelog_tool.commands import (
    add,
    demo,
    install,
    keys,
    log,
    merge_driver,
    resolve,
    sync,
    verify,
)
from changelog_tool.errors import ChangelogError

COMMANDS: dict[str, tuple[ModuleType, str]] = {
    "add": (add, "append an entry (TUI in a terminal; flags for scripts)"),
    "verify": (verify, "check the changelog (CI gate)"),
    "keys": (keys, "show the master-config keys a branch changed"),
    "log": (log, "show the entries that apply to a key"),
    "merge-driver": (merge_driver, "git merge driver for perf-changelog.yaml"),
    "install": (install, "set up the merge driver in this clone"),
    "resolve": (resolve, "resolve a stopped rebase/merge conflict on the changelog"),
    "sync": (sync, "rewrite the branch's changelog as protected bytes + own entries"),
    "demo": (demo, "open the TUI on a throwaway realistic repository"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="changelog", description="Keep perf-changelog.yaml honest."
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help_text) in COMMANDS.items():
        command_parser = sub.add_parser(name, help=help_text, description=help_text)
        module.configure(command_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = vars(parser.parse_args(argv))
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        return int(exc.code or 0)
    module, _ = COMMANDS[args.pop("command")]
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
