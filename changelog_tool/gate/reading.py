"""The verdict of the benchmark CI's own reader (``ledger.revision.read_diff``). See
docs/design.md, "The benchmark's reading decides"."""

from __future__ import annotations

from changelog_tool.diff.engine import Snapshot
from changelog_tool.findings import ERROR, WARNING, Finding, shown
from changelog_tool.ledger.document import Entry
from changelog_tool.ledger.reading import Reading
from changelog_tool.ledger.revision import SYNC
from changelog_tool.settings import Settings
from changelog_tool.yaml import yaml11
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.values import same

READER = "the benchmark CI's reader of the changelog (`git diff BASE HEAD`)"
REFUSED = "benchmark-refuses"
MISREAD = "benchmark-read"


def reading_findings(snapshot: Snapshot, settings: Settings) -> list[Finding]:
    reading, history, path = snapshot.reading, snapshot.history, snapshot.changelog
    if reading is None:
        return []
    # the branch's own reading already failed (an edit, bytes, YAML): its errors say
    # what to fix first, and the reader's would repeat them
    if any(f.severity == ERROR for f in history.findings):
        out: list[Finding] = []
    elif reading.deleted:
        out = [_refused(reading, snapshot, settings)]
    else:
        out = _misread(reading, history.appended, path)
    behind = snapshot.behind
    if behind is not None and behind.deleted and not reading.deleted:
        ref = snapshot.base_ref
        message = (
            f"this branch is behind {ref}: {ref} changed {path} since the branch left it, "
            f"so `git diff {ref} HEAD`, which the benchmark's pull-request check reads, "
            f"deletes {len(behind.deleted)} line(s) and is refused until the branch holds "
            f"them; run `changelog sync --commit` (a merge of {ref} that keeps its bytes, "
            "then this branch's entries)"
        )
        out.append(Finding("behind", message, path, None, WARNING))
    return out


def _refused(reading: Reading, snapshot: Snapshot, settings: Settings) -> Finding:
    """The deleted lines: a correction alone (a warning by default), else an error."""
    history, path = snapshot.history, snapshot.changelog
    first = reading.deleted[0]
    corrected = {line for line, _ in history.corrections}
    if (
        corrected
        and not history.appended
        and all(d.head_line in corrected for d in reading.deleted)
    ):
        severity = ERROR if settings.correction == "error" else WARNING
        message = (
            f"this change only corrects {len(corrected)} old pr-link(s); {READER} "
            "refuses every deleted line, so this push benchmarks nothing"
        )
        return Finding("correction", message, path, first.head_line, severity)
    if all(d.unterminated for d in reading.deleted):  # the base's last line, given its break
        said = (
            f"this change gives the base's last line its line break, which {READER} sees "
            f"as the line deleted ({shown(first.text.strip())}) and refuses"
        )
        if not history.appended:  # main's past: the one push that fixes it runs nothing
            return Finding(
                "base-final-newline",
                f"{said}: this push benchmarks nothing",
                path,
                first.head_line,
                WARNING,
            )
        return Finding(
            REFUSED,
            f"{said}, so none of this branch's entries would be benchmarked: land the "
            "line break in a change of its own first, then append the entries after it",
            path,
            first.head_line,
        )
    message = (
        f"{READER} refuses this change: it deletes {len(reading.deleted)} non-blank "
        f"line(s), the first {shown(first.text.strip())} (line {first.base_line} of "
        f"the base), so none of this branch's entries would be benchmarked; {SYNC}"
    )
    return Finding(REFUSED, message, path, first.head_line)


def _misread(reading: Reading, appended: list[Entry], path: str) -> list[Finding]:
    """The added lines do not load, or load to other entries than the branch's own."""
    line = reading.first_added
    if reading.problem is not None:
        message = (
            f"{READER} cannot load the lines this change adds as entries "
            f"({reading.problem}); {SYNC}"
        )
        return [Finding(MISREAD, message, path, line)]
    own = _as_read(appended)
    if own is None:
        return []
    read = reading.entries
    if len(read) == len(own) and all(
        any(same(mine, theirs) for mine in readings)
        for readings, theirs in zip(own, read, strict=True)
    ):
        return []
    if len(read) == len(own):
        said = "other entries than this branch's"
    else:
        said = f"{len(read)} entr(y/ies), not this branch's {len(own)}"
    message = (
        f"{READER} reads {said} from the lines this change adds (git's diff cut or "
        f"joined them: an entry away from the end, next to changed lines); {SYNC}"
    )
    return [Finding(MISREAD, message, path, line)]


def _as_read(appended: list[Entry]) -> list[tuple[object, object]] | None:
    """Each own entry as PyYAML reads it alone, with and without its last line break; ``None``
    when one does not read."""
    out: list[tuple[object, object]] = []
    for entry in appended:
        try:
            whole, cut = yaml11.load(entry.text), yaml11.load(entry.text.rstrip(b"\n"))
        except YamlProblem:
            return None
        if not (isinstance(whole, list) and isinstance(cut, list)) or len(whole) != 1:
            return None
        out.append((whole[0], cut[0]))
    return out
