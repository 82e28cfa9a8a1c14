"""The description in the user's editor: ``$VISUAL``, else ``$EDITOR``, else ``vi``,
run on a temporary file that holds one bullet per line; what it leaves there comes
back one bullet per line, without blank lines and ``#`` comment lines (as git's
commit message does)."""

from __future__ import annotations

import os
import shlex
import subprocess
import tempfile
from collections.abc import Mapping
from pathlib import Path

from changelog_tool.errors import ChangelogError

FALLBACK = "vi"
HELP = """\
# The description of the changelog entry: one bullet per line.
# Lines starting with '#' and empty lines are ignored; save and quit to use it.
"""


class EditorFailed(ChangelogError):
    """The editor could not be run, or ended with an error: the description is kept."""


def editor_command(env: Mapping[str, str]) -> list[str]:
    """The editor to run, as arguments (``$VISUAL`` may be ``code --wait``)."""
    for name in ("VISUAL", "EDITOR"):
        value = env.get(name, "").strip()
        if value:
            return shlex.split(value)
    return [FALLBACK]


def bullets(text: str) -> list[str]:
    """The description lines of an edited file."""
    lines = (line.strip() for line in text.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def edit_description(lines: list[str], env: Mapping[str, str] | None = None) -> list[str]:
    """Run the editor on ``lines`` (and a comment saying how) and return the lines it
    leaves; raises :class:`EditorFailed` (the caller keeps ``lines``) when the editor
    is missing or exits with an error."""
    env = os.environ if env is None else env
    command = editor_command(env)
    handle, name = tempfile.mkstemp(prefix="perf-changelog-description-", suffix=".txt")
    path = Path(name)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write("".join(f"{line}\n" for line in lines if line.strip()) + "\n" + HELP)
        try:
            done = subprocess.run([*command, str(path)], env=dict(env), check=False)
        except OSError as exc:
            raise EditorFailed(
                f"could not run the editor {command[0]!r} ({exc.strerror or exc}); set "
                "$VISUAL or $EDITOR to an editor that is installed. The description is "
                "unchanged"
            ) from None
        if done.returncode != 0:
            raise EditorFailed(
                f"the editor {shlex.join(command)!r} exited with code {done.returncode}; "
                "the description is unchanged"
            )
        return bullets(path.read_text(encoding="utf-8", errors="replace"))
    finally:
        path.unlink(missing_ok=True)
