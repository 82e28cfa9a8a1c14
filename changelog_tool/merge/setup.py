"""How git is told to use the merge driver: the attribute line that applies it to
the changelog, and the command git runs (always an isolated Python: the work tree
is data, never code)."""

from __future__ import annotations

import re
import shlex
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
    # deferred: site costs ~15 ms, and the isolated driver starts without it
    import site

    here = Path(__file__).resolve()
    user_site = Path(site.getusersitepackages()).resolve()
    return USER_SITE_ISOLATED if here.is_relative_to(user_site) else ISOLATED


def is_isolated(flags: Sequence[str]) -> bool:
    return "-I" in flags or {"-E", "-P"} <= set(flags)


def driver_command() -> str:
    python = " ".join(shlex.quote(word) for word in (sys.executable, *isolation_flags()))
    return f"{python} -m changelog_tool merge-driver %O %A %B %P"


def attribute_line(changelog: str) -> str:
    """The gitattributes line for the changelog: glob characters escaped, and the
    pattern C-quoted when it holds a space, a tab or a quote (git splits on those)."""
    pattern = "/" + re.sub(r"([\\*?\[])", r"\\\1", changelog)
    if re.search(r'[\s"]', pattern):
        pattern = '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{pattern} merge={DRIVER}"
