"""`changelog finalize --pr-number N [--onto REF] [--commit]`: the branch's
placeholder pr-links become pull request N's link and nothing else changes;
``--onto`` first rebuilds the file as ``sync`` does, ``--commit`` commits it."""

from __future__ import annotations

import argparse
import json
import re

from changelog_tool.commands import add_format, pull_request_number
from changelog_tool.errors import ChangelogError, UsageError
from changelog_tool.findings import ERROR
from changelog_tool.gate import prlinks
from changelog_tool.gitrepo import WORKTREE, remote_url_reader, run_git
from changelog_tool.ledger import writer
from changelog_tool.ledger.compare import compare
from changelog_tool.ledger.revision import APPEND, MODIFIED, NEW, UNCHANGED
from changelog_tool.merge.threeway import Merged
from changelog_tool.resolution.here import changelog_here
from changelog_tool.resolution.sync import Sync, commit_merge
from changelog_tool.settings import Settings, is_placeholder
from changelog_tool.yaml.strict import load_value


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--pr-number",
        type=pull_request_number,
        metavar="N",
        help="the pull request whose link replaces the placeholders (required)",
    )
    parser.add_argument(
        "--onto",
        metavar="REF",
        help="first rebuild the file as REF's bytes + this branch's entries",
    )
    parser.add_argument(
        "--commit",
        action="store_true",
        help="commit the result (a merge of REF when --onto moved the base)",
    )
    add_format(parser)


def run(*, pr_number: int | None, onto: str | None, commit: bool, format: str) -> int:
    if pr_number is None:
        raise UsageError(
            "finalize needs the number of the pull request whose link replaces the "
            "placeholder pr-links: `changelog finalize --pr-number N` (add --commit to "
            "commit the result)"
        )
    # the lock is held from the read the result is computed from to the write and the
    # commit (across `git merge` with --onto): an `add` meanwhile waits, then appends
    with changelog_here(hold=True) as (repo, settings, path):
        ref = onto or repo.protected_ref(settings.protected_ref, "--onto REF")
        ref_sha = repo.resolve(ref)
        base_sha = repo.merge_base(ref_sha, "HEAD")
        on_disk = repo.read(WORKTREE, path)
        if on_disk is None:
            raise ChangelogError(f"{path} does not exist in the work tree; nothing to finalize")
        data, before = on_disk, repo.read(base_sha, path) or b""
        if onto is not None:
            upstream = repo.read(ref_sha, path) or b""
            outcome = Sync(path, ref, before, upstream, settings).of(on_disk)
            if not isinstance(outcome.result, Merged):
                problems = "; ".join(f.message for f in outcome.findings())
                raise ChangelogError(f"cannot rebuild {path} onto {ref}: {problems}")
            data, before = outcome.result.data, upstream
        slug = prlinks.repository_slug(settings, before[-65536:], remote_url_reader(repo.root))
        if slug is None:
            raise UsageError(
                "cannot tell which repository the pull request belongs to: set "
                '`repository = "owner/name"` in the settings'
            )
        link = prlinks.canonical(slug, pr_number)
        source = (ref_sha if onto is not None else base_sha)[:12]
        data, rewritten = fill_placeholders(before, data, path, settings, link, source)
        extra: dict[str, object] = {
            "ok": True,
            "path": path,
            "pr_link": link,
            "ref": ref,
            "rewritten": rewritten,
            "written": data != on_disk,
            "commit": None,
        }
        bounds = writer.Bounds.of(settings)
        if commit and not rewritten:  # nothing to fill: --commit would commit something else
            extra["written"] = False
            return _report(extra, format, 0, committing=True)
        if data != on_disk and not commit:
            writer.replace(repo.root / path, data, expected=on_disk, bounds=bounds)
        if commit:
            head = repo.read("HEAD", path)
            merged_already = base_sha == ref_sha
            if onto is not None and not merged_already:
                code, _ = commit_merge(
                    repo, ref, False, path, data, head, on_disk, extra, bounds=bounds
                )
                if code:
                    return _report(extra, format, code)
            elif data != head:
                writer.replace(repo.root / path, data, expected=on_disk, bounds=bounds)
                repo.add(path)
                message = f"Finalize {path}: pr-link of this branch's entries -> #{pr_number}"
                run_git(repo.root, "commit", "-q", "-m", message, "--", path)
                extra["commit"] = run_git(repo.root, "rev-parse", "HEAD")
                extra["written"] = True
            else:  # HEAD already holds the final file: nothing to write or commit
                extra["written"] = False
        return _report(extra, format, 0)


def _report(extra: dict[str, object], fmt: str, code: int, *, committing: bool = False) -> int:
    if fmt == "json":
        extra["ok"] = code == 0
        print(json.dumps(extra, indent=2))
        return code
    lines, commit, unmerged = extra["rewritten"], extra["commit"], extra.get("unmerged")
    assert isinstance(lines, list)
    if not lines and not extra["written"] and not commit:
        done = "nothing committed" if committing else "nothing written"
        print(
            f"finalize: {extra['path']}: nothing to fill (no entry of this branch has a "
            f"placeholder pr-link); {done}"
        )
        return code
    where = ", ".join(str(n) for n in lines)
    print(
        f"finalize: {extra['path']}: {len(lines)} placeholder pr-link(s) now "
        f"{extra['pr_link']}" + (f" (line {where})" if lines else "")
    )
    if isinstance(commit, str):
        print(f"finalize: committed {commit[:12]}")
    if isinstance(unmerged, list) and unmerged:  # the merge of --onto stopped on other files
        files = ", ".join(str(name) for name in unmerged)
        print(
            f"finalize: the merge of {extra['ref']} is still in progress, nothing is "
            f"committed: it stopped on other files ({files}); {extra['path']} is resolved "
            "and staged. Resolve those files, `git add` them and run `git commit` (or "
            "`git merge --abort` to leave the merge)"
        )
    return code


_PR_LINK = re.compile(rb"^(  pr-link:) *(\S.*?) *$")


def fill_placeholders(
    base: bytes,
    data: bytes,
    path: str,
    settings: Settings,
    link: str,
    restore_from: str | None = None,
) -> tuple[bytes, list[int]]:
    """``data`` with the placeholder pr-link of each entry appended since ``base`` set to ``link``
    (only those lines), and the lines rewritten; edited history (``restore_from``: the commit
    ``base`` is read from) and an appended entry linking another pull request are refused."""
    history = compare(base, data, path, restore_from)
    edited = any(f.code == "history-modified" for f in history.findings)
    # form (whitespace, blank lines, an own entry above the base's) is no edit: the
    # branch's own entries are found wherever they stand, by the one comparison
    if history.kind not in (APPEND, NEW, UNCHANGED) and not (
        history.kind == MODIFIED and not edited
    ):
        # the history check's own findings say how to undo each edit (the same
        # advice `verify` gives): sync for a misplaced entry, else restore and add
        repairs = [
            f"line {f.line}: {f.message}" if f.line else f.message
            for f in history.findings
            if f.code == "history-modified"
        ]
        raise ChangelogError(
            f"{path}: this branch does not only append to the base ({history.kind}); "
            "finalize rewrites only its own entries: "
            + ("; ".join(repairs) or "undo the edit of the base's entries")
        )
    unread = [f for f in history.findings if f.severity == ERROR and f.code != "history-modified"]
    if unread:
        # an entry that does not read is not among history.appended: its link unseen
        listed = "; ".join(f"line {f.line}: {f.message}" for f in unread[:3])
        raise ChangelogError(
            f"{path}: finalize reads every entry this branch appended, and cannot read "
            f"them all ({listed}{'; ...' if len(unread) > 3 else ''}); fix the file "
            "first (`changelog verify --file` lists every problem); nothing was written"
        )
    lines = data.split(b"\n")
    rewritten = []
    for entry in history.appended:
        current = entry.fields.get("pr-link")
        if current == link:
            continue
        if not is_placeholder(current, settings.placeholders):
            raise ChangelogError(
                f"{path}:{entry.line}: this branch's entry links {current!r}, not {link}: "
                "fix it by hand (finalize only fills in placeholders)"
            )
        number = entry.field_line("pr-link") - 1
        match = _PR_LINK.match(lines[number])
        if match is None:
            raise ChangelogError(
                f"{path}:{number + 1}: the pr-link is not on one line; set it to {link} by hand"
            )
        lines[number] = match.group(1) + b" " + link.encode()
        rewritten.append(number + 1)
    result = b"\n".join(lines)
    proved = compare(base, result, path)
    expected = [dict(e.fields, **{"pr-link": link}) for e in history.appended]
    if [e.fields for e in proved.appended] != expected or load_value(result) is None:
        raise ChangelogError(
            f"internal error: finalizing {path} did not read back as "
            "the same entries with the new link; nothing was written"
        )
    return result, rewritten
