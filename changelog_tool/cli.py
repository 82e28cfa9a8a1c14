"""The ``changelog`` command: parse, dispatch to ``commands/<verb>.py``, map errors to exit
codes. See docs/design.md, "Layering, checked"."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import json
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import NoReturn

import changelog_tool
from changelog_tool import settings
from changelog_tool.confinement import work_tree_top
from changelog_tool.errors import (
    INTERRUPTED,
    ChangelogError,
    NotInRepository,
    did_you_mean,
    os_error,
)
from changelog_tool.findings import text_log
from changelog_tool.gitrepo.process import git_dir

COMMANDS = {
    "add": "append an entry (TUI in a terminal; flags for scripts)",
    "verify": "check the changelog (CI gate)",
    "keys": "show the master-config keys a branch changed",
    "log": "show the entries that apply to a key",
    "lint": "review lints on the YAML the branch changed (no changelog checks)",
    "merge-driver": "git merge driver for perf-changelog.yaml",
    "install": "set up the merge driver in this clone",
    "resolve": "resolve a stopped rebase/merge conflict on the changelog",
    "sync": "rewrite the branch's changelog as protected bytes + own entries",
    "demo": "open the TUI on a throwaway realistic repository",
    "init": "adopt the tool in this repository (settings, attributes, workflow, hook)",
    "finalize": "before merge: point the branch's placeholder pr-links at PR N",
}
"""Each command and its help; its module is ``commands/<name with _ for ->.py``."""


def _module(name: str) -> ModuleType:
    return importlib.import_module(f"changelog_tool.commands.{name.replace('-', '_')}")


class UsageExit(SystemExit):
    """argparse's exit on a wrong command line (code 2), with what it said."""

    def __init__(self, message: str) -> None:
        super().__init__(2)
        self.message = message


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """As argparse says it, kept for ``--format json``'s refusal."""
        self.print_usage(sys.stderr)
        said = f"{self.prog}: error: {message}"
        print(said, file=sys.stderr)
        raise UsageExit(said)


class _Version(argparse.Action):
    """``--version``: the installed version, read only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        print(f"{parser.prog} {changelog_tool.__version__}")
        parser.exit()


def build_parser(words: Sequence[str]) -> argparse.ArgumentParser:
    """The parser; only the chosen command's module is imported and its parser configured."""
    chosen = next((w for w in words if not w.startswith("-")), None)
    parser = _Parser(prog="changelog", description="Keep perf-changelog.yaml honest.")
    parser.add_argument(
        "--version",
        action=_Version,
        nargs=0,
        default=argparse.SUPPRESS,
        help="show the version and exit",
    )
    parser.add_argument(
        "--debug",
        action="store_true",
        help="show the traceback of an internal error (or CHANGELOG_DEBUG=1)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    # A chosen command needs only its own parser; none or an unknown one needs every
    # name, for the help and the list of choices, but no command's options.
    for name, help_text in COMMANDS.items():
        if chosen not in COMMANDS or name == chosen:
            command_parser = sub.add_parser(name, help=help_text, description=help_text)
            if name == chosen:
                _module(name).configure(command_parser)
    return parser


NO_REPOSITORY = frozenset({"demo", "merge-driver"})
"""The commands that need no git repository (the demo makes its own; git runs the merge driver
on the files it names). Every other one needs one, unless ``--file`` names the file to read."""


def main(argv: Sequence[str] | None = None) -> int:
    """Parse, dispatch, and map every outcome to an exit code: the one error boundary."""
    words = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in words or os.environ.get("CHANGELOG_DEBUG", "") not in ("", "0")
    words = [w for w in words if w != "--debug"]  # accepted anywhere on the line
    if words[:1] == ["help"]:  # `changelog help [COMMAND]`, as git and pip take it
        words = [*words[1:2], "--help"]
    parser = build_parser(words)
    chosen = next((w for w in words if not w.startswith("-")), None)
    try:  # no command: the help (exit 2); an unknown one: the closest name
        if not words:
            parser.print_help(sys.stderr)
            raise UsageExit(f"{parser.prog}: error: no command given")
        if chosen is not None and chosen not in COMMANDS:
            parser.error(f"unknown command {chosen!r}{did_you_mean(chosen, COMMANDS)}")
        found, extra = parser.parse_known_args(words)
        if extra:  # said by the command's parser (argparse keeps it in the commands' choices)
            commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
            commands.choices[found.command].error(f"unrecognized arguments: {' '.join(extra)}")
    except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
        asked = {"--json", "--format=json"} & set(words) or ("--format", "json") in pairwise(words)
        if exc.code and asked:
            said = exc.message if isinstance(exc, UsageExit) else "usage error"
            _json_refusal("UsageError", 2, said)
        return int(exc.code or 0)
    args = vars(found)
    args.pop("debug", None)
    command = str(args.pop("command"))
    as_json = args.get("format") == "json" or bool(args.get("from_json"))
    try:
        if command not in NO_REPOSITORY and args.get("file") is None:
            _need_repository(command)
        code: int = _module(command).run(**args)
    except (Exception, KeyboardInterrupt) as exc:
        return failure(exc, debug=debug, as_json=as_json, command=command)
    return code


def _need_repository(command: str) -> None:
    """Refuse to run outside a git work tree; ``add`` and ``log`` also work on a changelog
    outside git when the one the settings name exists."""
    here = Path.cwd()
    if work_tree_top(here) is not None or git_dir(here) is not None:  # a broken .git: git's reason
        return
    if command in ("add", "log"):
        found = settings.load(here)
        if (found.root / found.changelog).exists():
            return
    raise NotInRepository(here)


def failure(
    exc: BaseException, *, debug: bool = False, as_json: bool = False, command: str = ""
) -> int:
    """The exit code for ``exc``, after saying why on stderr (and as JSON on stdout when asked)."""
    if isinstance(exc, ChangelogError):
        said = exc.advice(command) if isinstance(exc, NotInRepository) and command else str(exc)
        print(f"changelog: {text_log([said])}", file=sys.stderr)
        if as_json:  # JSON means JSON: a refusal is a document on stdout too
            kind = "EnvironmentProblem" if isinstance(exc, NotInRepository) else None
            _json_refusal(kind or type(exc).__name__, exc.exit_code, said)
        return exc.exit_code
    if isinstance(exc, KeyboardInterrupt):
        print("changelog: interrupted", file=sys.stderr)
        return INTERRUPTED
    if isinstance(exc, BrokenPipeError):  # the reader is gone: nothing to say, nowhere
        return 1
    if isinstance(exc, OSError):
        said = os_error(exc)
        print(f"changelog: {said}", file=sys.stderr)
        if as_json:
            _json_refusal("OSError", 2, said)
        return 2
    # a bug: say so in one line, never as "findings" (exit 1)
    if debug:
        traceback.print_exception(exc)
    first = (str(exc).strip().splitlines() or [""])[0]
    print(
        f"changelog: internal error: {type(exc).__name__}: {first} "
        "(run with --debug for the traceback)",
        file=sys.stderr,
    )
    return 2


def _json_refusal(kind: str, exit_code: int, message: str) -> None:
    document = {"ok": False, "error": {"kind": kind, "exit_code": exit_code, "message": message}}
    with contextlib.suppress(OSError):
        print(json.dumps(document, ensure_ascii=False), flush=True)


def entry_point() -> NoReturn:
    sys.exit(ended(main))


def ended(command: Callable[[], int]) -> int:
    """``command``'s exit code once its output is flushed: an unwritable output ends the run as
    its error would (closed pipe 1, OS error 2, ctrl+c 130), never lower; then stdout points
    at ``os.devnull`` so the interpreter's final flush cannot fail."""
    code = 0
    try:
        code = command()
        if code != INTERRUPTED:
            if sys.stdout is not None:  # (None: the descriptor was closed at the start)
                sys.stdout.flush()
            return code
    except (OSError, KeyboardInterrupt) as exc:
        code = max(code, failure(exc))
    devnull = os.open(os.devnull, os.O_WRONLY)
    if devnull != 1:  # (1 itself when that descriptor was closed at the start)
        os.dup2(devnull, 1)
        os.close(devnull)
    return code
