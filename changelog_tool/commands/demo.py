"""``changelog demo``: a throwaway realistic repository and the add TUI on it; without a terminal
(or ``--no-input``) it prints the changed keys and a suggested entry."""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from changelog_tool import settings as settings_module
from changelog_tool.authoring import drafts
from changelog_tool.authoring.rows import suggestion
from changelog_tool.authoring.session import AddSession
from changelog_tool.demo import sandbox
from changelog_tool.demo.sandbox import Sandbox
from changelog_tool.errors import UsageError
from changelog_tool.ledger.emitter import emit


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--keep",
        type=Path,
        metavar="DIR",
        help="build the demo repository in DIR (new or empty) and keep it",
    )
    parser.add_argument(
        "--no-input", action="store_true", help="do not open the TUI; print what it would show"
    )


def run(*, keep: Path | None, no_input: bool) -> int:
    if keep is not None and keep.exists() and not keep.is_dir():
        raise UsageError(f"{keep} is a file; name a new or empty directory for --keep")
    folder = keep if keep is not None else Path(tempfile.mkdtemp(prefix="changelog-demo-"))
    try:
        box = sandbox.build(folder)
        interactive = not no_input and sys.stdin.isatty() and sys.stdout.isatty()
        return _open(box, keep is not None) if interactive else _describe(box, keep is not None)
    finally:
        if keep is None:
            clean_up(folder)


def clean_up(folder: Path) -> bool:
    """Delete a temporary demo repository unless it holds a kept draft (then say where)."""
    changelog = folder / "perf-changelog.yaml"
    if changelog.is_file() and drafts.load(changelog) is not None:
        print(
            f"changelog demo: the demo repository stays in {folder}, with your draft in "
            "it (`cd` there and run `changelog add` to finish; delete the folder when done)"
        )
        return False
    shutil.rmtree(folder, ignore_errors=True)
    return True


def _open(box: Sandbox, kept: bool) -> int:
    from changelog_tool.tui import run_add  # Textual, for the TUI only

    settings = settings_module.load(box.root)
    code = run_add(settings=settings, path=settings.changelog_path, base=None, init=False)
    if kept:
        print(
            f"That was the demo repository; it stays in {box.root} "
            f"(`cd {box.root} && changelog add` to go on there)."
        )
    else:
        print(
            "That was the demo repository; run `changelog add` on a branch of yours next "
            "(`changelog demo --keep DIR` keeps a demo repository to explore)."
        )
    # Leaving the demo without saving is no failure; ending it with ctrl+c is an interrupt.
    return code if code > 128 else 0  # a signal's code (130, 143, 129) stays


def _describe(box: Sandbox, kept: bool) -> int:
    settings = settings_module.load(box.root)
    session = AddSession(settings, settings.changelog_path)
    loaded = session.load()
    print(f"Built a demo repository in {box.root}: branch {box.branch}, compared with {box.base}.")
    if loaded.changes is None:
        print(f"The diff engine failed on it: {loaded.problem}", file=sys.stderr)
        return 1
    base = (loaded.changes.base or "?")[:8]
    print(f"\nChanged keys since {base} (what `changelog add` lists, preselected with ✓):")
    chosen = set(suggestion(loaded.rows).keys)
    width = max((len(r.key) for r in loaded.rows), default=0)
    for row in loaded.rows:
        tick = "✓" if row.key in chosen else " "
        print(f"  [{tick}] {row.mark} {row.key.ljust(width)}  {row.detail()}")
    draft = suggestion(loaded.rows, settings.placeholder_link())
    print(
        "\nA suggested entry (the TUI starts from these keys and scenario types; "
        "you write the description):\n"
    )
    sys.stdout.write(emit(draft.to_entry(settings.placeholder_link())).decode("utf-8"))
    print("\nOpen the TUI on a fresh demo repository, in a terminal:  changelog demo")
    if kept:
        print(f"Or try it here:  cd {box.root} && changelog add")
    else:
        print(
            "Keep a demo repository to explore:  changelog demo --keep DIR  "
            "(then: cd DIR && changelog add)"
        )
    return 0
