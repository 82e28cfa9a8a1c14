"""`python -m changelog_tool`: the same as the `changelog` command.

Git runs the merge driver this way (see ``changelog install``) on every rebase
step that touches the changelog, so git's own call, ``merge-driver %O %A %B %P``
(four paths, no option), goes straight to the driver without building the
command-line parser; its errors end in the CLI's one error boundary all the same.
Anything else is the ``changelog`` command.
"""

from __future__ import annotations

import sys
from pathlib import Path

from changelog_tool import batch_process, finish
from changelog_tool.cli import debugging, failure, main


def _merge_driver_call(words: list[str]) -> int | None:
    """The driver's exit code for git's own call (``--conflict-exit N``, as ``install``
    writes it, then the four words); ``None`` for any other command line."""
    code = 1
    if (
        words[1:2] == ["--conflict-exit"]
        and words[2:3]
        and words[2].isascii()
        and words[2].isdigit()
    ):
        code, words = int(words[2]), [words[0], *words[3:]]
    if len(words) != 5 or words[0] != "merge-driver" or any(w.startswith("-") for w in words):
        return None
    from changelog_tool.commands import merge_driver  # the chosen command, as cli.main imports it

    try:
        return merge_driver.run(
            base=Path(words[1]),
            ours=Path(words[2]),
            theirs=Path(words[3]),
            path=words[4],
            conflict_exit=code,
        )
    except (Exception, KeyboardInterrupt) as exc:
        return failure(exc, debug=debugging(words))


def _main() -> int:
    batch_process()
    code = _merge_driver_call(sys.argv[1:])
    if code is not None:
        return code
    return main()


finish(_main())
