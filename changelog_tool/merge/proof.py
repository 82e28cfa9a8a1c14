"""The merge's proof: the append rule on what it appends, then the protected side's history,
which that rule does not read. A result that does not read as one list is never written."""

from __future__ import annotations

from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import SequenceStartEvent

from changelog_tool.findings import Finding
from changelog_tool.ledger.document import Entry, Ledger, entry_starts
from changelog_tool.ledger.revision import append_break
from changelog_tool.merge.replay import possessive
from changelog_tool.yaml.items import YamlProblem
from changelog_tool.yaml.strict import load_items


def block_list_events(data: bytes) -> int | None:
    """How many YAML events ``data`` parses into when it is one document whose root is a
    block sequence at column 0, else ``None``; syntax only, in libyaml's loop."""
    if any(data.startswith(mark) or b"\n" + mark in data for mark in (b"---", b"...", b"%")):
        return None  # a line may begin another document (an over-approximation)
    try:
        parser = CParser(data)
        parser.get_event()  # stream start
        parser.get_event()  # document start
        root = parser.get_event() if parser.check_event(SequenceStartEvent) else None
        if root is None or root.flow_style or root.start_mark.column != 0:
            return None
        count: int = 3 + parser.raw_parse()  # the rest, to the end of the stream
    except YAMLError:
        return None
    return count


def verify(prot: bytes, data: bytes, kept: int, first: int | None, prot_name: str) -> list[Finding]:
    """Prove ``data`` (``prot``, then ``kept`` entries from line ``first``) reads as one list
    of them all, the appended ones as the append rule reads them."""
    broken = append_break(prot, data[len(prot) :], whose=f"{prot_name}'s")
    if broken is not None:
        return [Finding(broken.code, f"{broken.what}; nothing was written", "result", broken.line)]
    ledger = Ledger(prot)
    last = ledger.last_block()
    if last is not None and last.start > ledger.preamble_end and _from_last_entry(last, data, kept):
        return []
    return _verify_whole(prot, data, kept, first, prot_name)


def _from_last_entry(last: Entry, data: bytes, kept: int) -> bool:
    """The proof without building the whole history's values: the head (before the last
    entry) parses as a block list, syntax only; the rest strictly as ``1 + kept`` items;
    the event counts join (6: stream, document and list). False: not proven this way."""
    head, window = data[: last.start], data[last.start :]
    head_events = block_list_events(head)
    if head_events is None:
        return False
    try:
        root = load_items(window, line_offset=last.line - 1)
    except YamlProblem:
        return False  # the full parse says where and whose
    if not isinstance(root, list) or len(root) != 1 + kept:
        return False
    window_events = block_list_events(window)
    return window_events is not None and block_list_events(data) == head_events + window_events - 6


def _verify_whole(
    prot: bytes, data: bytes, kept: int, first: int | None, prot_name: str
) -> list[Finding]:
    try:
        root = load_items(data)
    except YamlProblem as problem:
        if first is None or (problem.line or 1) < first:
            return [_invalid(problem, prot_name)]
        return [
            Finding(
                problem.code,
                f"the merged file would not parse at line {problem.line}: "
                f"{problem.message}; nothing was written",
                "result",
                problem.line,
            )
        ]
    if root is None and not data.strip(b" \n"):
        root = []
    if not isinstance(root, list):
        return [
            Finding(
                "not-a-list",
                f"{possessive(prot_name)} YAML root is not a list of entries",
                prot_name,
                1,
            )
        ]
    count = len(entry_starts(prot))
    if len(root) != count + kept:
        return [
            Finding(
                "entry-count",
                f"the merged file reads as {len(root)} entries, expected {count} + {kept}; "
                "nothing was written",
                "result",
                None,
            )
        ]
    return []


def parses_whole(data: bytes, name: str) -> list[Finding]:
    """The other side's history, which the result's parse did not cover."""
    try:
        load_items(data)
    except YamlProblem as problem:
        return [_invalid(problem, name)]
    return []


def _invalid(problem: YamlProblem, name: str) -> Finding:
    message = f"{name} is not valid YAML at line {problem.line}: {problem.message}"
    return Finding(problem.code, message, name, problem.line)
