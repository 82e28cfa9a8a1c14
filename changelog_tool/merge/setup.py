"""How git is told to use the merge driver: the changelog's gitattributes line, read as git
reads it, and the clone's driver script."""

from __future__ import annotations

import re
import shlex
import site
import sys
from collections.abc import Sequence
from pathlib import Path

from changelog_tool.errors import EnvironmentProblem
from changelog_tool.ledger.document import regular_file
from changelog_tool.ledger.writer import TEMP_SUFFIX

DRIVER = "perf-changelog"
NAME = "perf-changelog.yaml: protected branch's bytes, then the branch's own new entries"


# Every Python the tool starts runs isolated, so that a branch adding ``changelog_tool/`` or
# ``sitecustomize.py`` at the top of the work tree cannot run its own code inside everyone's
# rebase; a tool in the user's site-packages (``pip install --user``), which ``-I`` would leave
# out, runs with ``-E -P``.
ISOLATED, USER_SITE_ISOLATED = ("-I",), ("-E", "-P")


def is_isolated(flags: Sequence[str]) -> bool:
    return "-I" in flags or {"-E", "-P"} <= set(flags)


CONFLICT_EXIT = 3  # the driver's exit status when it left the conflict in %A itself
# in the clone's common git directory: every worktree shares it, and no branch can write it
SCRIPT = Path("perf-changelog") / "merge-driver.sh"
TROUBLESHOOTING = "docs/troubleshooting.md#the-merge-driver-cannot-start"


def driver_command() -> str:
    """``merge.perf-changelog.driver``: the script found through git (clones move)."""
    return f'sh "$(git rev-parse --git-common-dir)/{SCRIPT.as_posix()}" %O %A %B %P'


def driver_script() -> str:
    """The POSIX ``sh`` driver: this installation's isolated Python merges; when it does not
    start or finish, git's own conflict is left on %A and stderr says so in one line."""
    user_site = Path(site.getusersitepackages()).resolve()
    start = " ".join(
        USER_SITE_ISOLATED if Path(__file__).resolve().is_relative_to(user_site) else ISOLATED
    )
    return rf"""# The perf-changelog merge driver of this clone, written by `changelog install`
# (run it again to rewrite this file). Git runs it as: sh <this file> %O %A %B %P
python={shlex.quote(sys.executable)}
log="$2.perf-changelog.log"
if [ -x "$python" ]; then
	"$python" {start} -m changelog_tool merge-driver --conflict-exit {CONFLICT_EXIT} \
		"$1" "$2" "$3" "$4" 2>"$log"
	s=$?
	why="exit $s$(tail -n 1 "$log" | sed 's/^/: /')"
else
	s=127
	why="$python is not there"
fi
if [ $s = 0 ] || [ $s = {CONFLICT_EXIT} ]; then
	cat "$log" >&2
	rm -f "$log"
	[ $s = 0 ] && exit 0
	exit 1
fi
rm -f "$log" "$(dirname "$2")/.$(basename "$2")."*{TEMP_SUFFIX}
case $s in 1 | 126 | 127) what="could not start" ;; *) what="did not finish" ;; esac
echo "changelog merge-driver $what ($why): git's own conflict is left in $4;" \
	"\`changelog install\` repairs the driver, \`changelog install --check\` shows what is" \
	"wrong (perf-changelog's {TROUBLESHOOTING})" >&2
git merge-file -p -L ours -L base -L theirs "$2" "$1" "$3" >"$2.m"
c=$?
if [ $c -ge 1 ] && [ $c -lt 128 ]; then
	mv -f "$2.m" "$2"
else
	{{
		echo "<<<<<<< ours"; cat "$2"; [ -z "$(tail -c 1 "$2")" ] || echo
		echo "======="; cat "$3"; [ -z "$(tail -c 1 "$3")" ] || echo
		echo ">>>>>>> theirs"
	}} >"$2.m" && mv -f "$2.m" "$2"
fi
rm -f "$2.m"
exit 1
"""


def script_python(text: str) -> str | None:
    """The interpreter of a driver script's ``python=`` line."""
    for line in text.splitlines():
        if line.startswith("python="):
            try:
                words = shlex.split(line.removeprefix("python="))
            except ValueError:
                return None
            return words[0] if len(words) == 1 else None
    return None


def attribute_line(changelog: str) -> str:
    """Glob characters escaped, the pattern C-quoted when it holds a space, tab or quote."""
    pattern = "/" + re.sub(r"([\\*?\[])", r"\\\1", changelog)
    if re.search(r'[\s"]', pattern):
        pattern = '"' + pattern.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return f"{pattern} merge={DRIVER}"


def attribute_lines(path: Path) -> list[str]:
    """Each line with its own ending (kept ones are written back as read)."""
    real = regular_file(path, missing_ok=True)  # a directory here is refused, exit 2
    if real is None:
        return []
    try:
        text = real.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EnvironmentProblem(
            f"{path} is not UTF-8 text (byte {exc.start}); git reads attribute files as "
            "UTF-8: fix or remove that byte, then run the command again"
        ) from None
    return text.splitlines(keepends=True)


def line_ending(lines: list[str]) -> str:
    """The first line's (CRLF or LF), LF for a new file."""
    return "\r\n" if lines and lines[0].endswith("\r\n") else "\n"


def is_driver_line(line: str) -> bool:
    text = line.strip()
    if not text or text.startswith("#"):
        return False
    if text.startswith('"'):  # a C-quoted pattern: its end is the first unescaped quote
        at, escaped = 1, False
        while at < len(text) and (escaped or text[at] != '"'):
            escaped = not escaped and text[at] == "\\"
            at += 1
        attributes = text[at + 1 :].split()
    else:
        attributes = text.split()[1:]
    return f"merge={DRIVER}" in attributes
