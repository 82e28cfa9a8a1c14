"""How git is told to use the merge driver: the attribute line that applies it to
the changelog, and the command git runs (always an isolated Python: the work tree
is data, never code; then git's own conflict when that Python does not finish)."""

from __future__ import annotations

import re
import shlex
import site
import sys
from collections.abc import Sequence
from pathlib import Path

DRIVER = "perf-changelog"
NAME = "perf-changelog.yaml: protected branch's bytes, then the branch's own new entries"


ISOLATED = ("-I",)
"""How every Python the tool configures or starts runs: isolated. Git runs the driver
from the top of the work tree, and a plain ``-m`` would put that folder first on
``sys.path``: a branch that adds ``changelog_tool/``, ``json.py`` or
``sitecustomize.py`` would run its own code inside everyone's rebase. ``-I`` keeps
the current folder, the ``PYTHON*`` variables and the user's site-packages out."""
USER_SITE_ISOLATED = ("-E", "-P")
"""The same for a tool installed in the user's site-packages (``pip install --user``),
which ``-I`` would leave out: no current folder, no ``PYTHON*`` variables."""


def isolation_flags() -> tuple[str, ...]:
    """The flags that run this installation's Python isolated (:data:`ISOLATED`)."""
    here = Path(__file__).resolve()
    user_site = Path(site.getusersitepackages()).resolve()
    return USER_SITE_ISOLATED if here.is_relative_to(user_site) else ISOLATED


def is_isolated(flags: Sequence[str]) -> bool:
    return "-I" in flags or {"-E", "-P"} <= set(flags)


CONFLICT_EXIT = 3
"""The driver's exit status, in the installed command, when it has left the conflict
in %A itself: any other failure means it did not finish (see :func:`driver_command`)."""
FALLBACK = "; ".join(
    (
        "s=$?",
        "[ $s = 0 ] && exit 0",
        f"[ $s = {CONFLICT_EXIT} ] && exit 1",
        "echo \"changelog merge-driver did not finish (exit $s): git's own conflict is left "
        "instead (both sides whole where its text merge has no conflict); run "
        '\\`changelog resolve\\` to merge, and \\`changelog install --check\\`" >&2',
        "rm -f .%A.*.perf-changelog.tmp",
        "git merge-file -p -L ours -L base -L theirs %A %O %B >%A.m",
        "c=$?",
        "if [ $c -ge 1 ] && [ $c -lt 128 ]; then mv -f %A.m %A",
        "else { echo '<<<<<<< ours'; cat %A; [ -z \"$(tail -c 1 %A)\" ] || echo",
        'echo =======; cat %B; [ -z "$(tail -c 1 %B)" ] || echo',
        "echo '>>>>>>> theirs'; } >%A.m && mv -f %A.m %A; fi",
        "rm -f %A.m",
        "exit 1",
    )
)
"""What the installed command runs after the driver: its success and its own conflict
pass through; anything else (the interpreter gone: 127; the process killed: 128 + the
signal; Python unable to import the tool: 1) leaves git's own conflict on %A, which
the driver only ever replaces whole (renamed over), so it is still as git gave it
(the temp file a killed writer leaves beside it is removed first): ``git
merge-file``'s markers, or, where that text merge has no conflict (it would apply
one side's edit of history silently), one conflict holding both sides whole. Plain
POSIX ``sh``; no ``%`` but git's own placeholders."""


def driver_command() -> str:
    """The command git runs for the driver (``merge.perf-changelog.driver``): this
    installation's isolated Python on git's three files and the path, then, in plain
    ``sh``, :data:`FALLBACK`, so that a driver that cannot start or dies leaves git's
    conflict markers (``git merge-file``), never one side silently."""
    python = " ".join(shlex.quote(word) for word in (sys.executable, *isolation_flags()))
    return (
        f"{python} -m changelog_tool merge-driver --conflict-exit {CONFLICT_EXIT} "
        f"%O %A %B %P; {FALLBACK}"
    )


def attribute_line(changelog: str) -> str:
    """The gitattributes line for the changelog: glob characters escaped, and the
    pattern C-quoted when it holds a space, a tab or a quote (git splits on those)."""
    pattern = "/" + re.sub(r"([\\*?\[])", r"\\\1", changelog)
    if re.search(r'[\s"]', pattern):
        pattern = '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{pattern} merge={DRIVER}"
