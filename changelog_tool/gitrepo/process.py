"""Plain ``git`` processes: the one place that spawns git, and the one-off questions asked
through it (config, remotes, the git directory, ``merge-file``)."""

from __future__ import annotations

import functools
import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

from changelog_tool.confinement import discover, is_git_directory
from changelog_tool.errors import EnvironmentProblem
from changelog_tool.refnames import remote_and_branch


def git(
    root: Path, *args: str, env: dict[str, str] | None = None, stdin: bytes | None = None
) -> subprocess.CompletedProcess[bytes]:
    """One plain ``git`` process in ``root``, its exit code the caller's."""
    try:
        return subprocess.run(
            ["git", *args], cwd=root, capture_output=True, env=env, input=stdin, check=False
        )
    except OSError as exc:
        raise EnvironmentProblem(f"cannot run git: {exc}; install git") from None


def spawn(root: Path, *args: str) -> subprocess.Popen[bytes]:
    """A long-running ``git`` process in ``root``; its stderr is dropped."""
    try:
        return subprocess.Popen(
            ["git", *args],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
    except OSError as exc:
        raise EnvironmentProblem(f"cannot run git: {exc}; install git") from None


def remote_url_reader(root: Path) -> Callable[[str], str | None]:
    """A remote's URL by name, all read with one ``git config`` when first asked."""

    @functools.cache
    def urls() -> dict[str, str]:
        done = git(root, "config", "-z", "--get-regexp", r"^remote\..*\.url$")
        found: dict[str, str] = {}
        for row in done.stdout.decode("utf-8", "replace").split("\0"):
            key, _, value = row.partition("\n")
            if value.strip():
                found.setdefault(key[len("remote.") : -len(".url")], value.strip())
        return found

    return lambda name: urls().get(name)


def remote_names(root: Path) -> Callable[[], frozenset[str]]:
    """The clone's remote names (configured, or of its remote-tracking branches)."""

    @functools.cache
    def names() -> frozenset[str]:
        listed = git(root, "remote").stdout.decode("utf-8", "replace").split()
        tracking = git(root, "for-each-ref", "--format=%(refname)", "refs/remotes")
        refs = tracking.stdout.decode("utf-8", "replace").split()
        split = (remote_and_branch(ref)[0] for ref in refs)
        return frozenset(listed) | {remote for remote in split if remote}

    return names


def git_dir(start: Path) -> Path | None:
    """The absolute git directory of the repository holding ``start``, ``None`` outside one;
    without a process when ``GIT_DIR`` or a ``.git`` names it."""
    given = os.environ.get("GIT_DIR")
    if given and is_git_directory(folder := Path(os.path.abspath(start / given))):
        return folder
    try:
        found = None if given else discover(start)
        if found is not None and found[1] is not None:
            return found[1]
        result = git(start, "rev-parse", "--absolute-git-dir")
    except EnvironmentProblem:  # a broken ``.git`` file, or no git
        return None
    return Path(result.stdout.decode().strip()) if result.returncode == 0 else None


def run_git(root: Path, *args: str, env: dict[str, str] | None = None) -> str:
    """Plain ``git`` in ``root``, its output stripped; a failure raises (:func:`checked`)."""
    return checked(root, *args, env=env).decode("utf-8", "replace").strip()


def checked(root: Path, *args: str, what: str = "", env: dict[str, str] | None = None) -> bytes:
    """The output of plain ``git`` in ``root``; a failure says ``git <what> failed`` (``what``:
    the whole command by default) with git's message."""
    result = git(root, *args, env=env)
    if result.returncode != 0:
        message = result.stderr.decode("utf-8", "replace").strip()
        raise EnvironmentProblem(f"git {what or ' '.join(args)} failed: {message}")
    return result.stdout


def try_git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Plain ``git`` in ``root`` as text, whose exit code the caller reads."""
    done = git(root, *args)
    out, err = (stream.decode("utf-8", "replace") for stream in (done.stdout, done.stderr))
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


def object_header(line: bytes) -> tuple[str, str, int] | None:
    """``cat-file --batch``'s header line as ``(object id, type, size)``, if it is one."""
    words = line.split()
    if len(words) != 3 or not words[2].isdigit() or words[1] in (b"missing", b"ambiguous"):
        return None
    return words[0].decode("ascii", "replace"), words[1].decode("ascii", "replace"), int(words[2])


def merge_file(
    root: Path, ours: Path, base: Path, theirs: Path, style: str | None = None
) -> tuple[bytes, int] | None:
    """``git merge-file -p`` in ``style`` (by default the configured conflict style), and the
    number of conflicts."""
    if style is None:
        style = try_git(root, "config", "--get", "merge.conflictStyle").stdout.strip()
    args = ["merge-file", "-p", "-L", "ours", "-L", "base", "-L", "theirs"]
    if style in ("diff3", "zdiff3"):
        args.insert(2, f"--{style}")
    done = git(root, *args, str(ours), str(base), str(theirs))
    return (done.stdout, done.returncode) if 0 <= done.returncode < 128 else None


def text_merges(root: Path, base: bytes, ours: bytes, theirs: bytes) -> list[bytes]:
    """Git's text merges of three versions (merge and diff3 layouts), failed ones left out."""
    with tempfile.TemporaryDirectory(prefix="perf-changelog-") as folder:
        files = Path(folder, "ours"), Path(folder, "base"), Path(folder, "theirs")
        for file, data in zip(files, (ours, base, theirs), strict=True):
            file.write_bytes(data)
        found = [merge_file(root, *files, style) for style in ("merge", "diff3")]
    return [merged for merged, _ in filter(None, found)]
