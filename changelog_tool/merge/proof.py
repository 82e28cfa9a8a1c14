"""The merge's proof: before a merged file leaves, it must parse, hold every entry it
should (read back from the result, not assumed), and keep the protected side's
bytes as they were. A result that fails the proof is refused, never written."""

from __future__ import annotations

from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
from ruamel.yaml.error import YAMLError
from ruamel.yaml.events import SequenceStartEvent

from changelog_tool.ledger.appending import same_reading
from changelog_tool.ledger.boundaries import count_entries
from changelog_tool.ledger.document import Block, Ledger
from changelog_tool.ledger.edits import content, label, parse
from changelog_tool.merge.edits import Entry, Problem, possessive
from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.strict import load_items

_DOCUMENT_MARKS = (b"---", b"...", b"%")


def _has_document_mark(data: bytes) -> bool:
    """A line that begins with ``---``, ``...`` or a directive (``%``): more than
    one document could follow (a cheap over-approximation: ``---x`` counts too)."""
    return any(data.startswith(mark) or b"\n" + mark in data for mark in _DOCUMENT_MARKS)


def block_list_events(data: bytes) -> int | None:
    """How many YAML events ``data`` parses into, when it is one document whose
    root is a block sequence at column 0; ``None`` when it is not (or does not
    parse). Only syntax is read, in libyaml's own loop: no Python object per event."""
    if _has_document_mark(data):
        return None
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


def verify(
    prot: bytes, data: bytes, kept: list[Entry], lines: list[int], names: tuple[str, str]
) -> list[Problem]:
    """Prove the merged bytes before anyone writes them.


    The result must begin with the protected side's bytes, unchanged, and read as
    a list holding the protected side's entries, then exactly the kept entries,
    at the computed lines, with the values they had on the other side; the
    protected side's last entry must read as it does on its own. When nothing is
    appended the result *is* the protected side's bytes: they must still parse.
    """
    prot_name, _ = names
    if not data.startswith(prot):
        return [
            Problem(
                "history-modified",
                "result",
                None,
                "internal error: the merged "
                f"file does not begin with {possessive(prot_name)} bytes; nothing was written",
            )
        ]
    ledger = Ledger(prot)
    last = ledger.last_block()
    if last is not None and last.start > ledger.preamble_end:
        proved = _verify_from_last_entry(ledger, last, data, kept, lines, prot_name)
        if proved is not None:
            return proved
    return _verify_whole(prot, data, kept, lines, prot_name)


def _verify_from_last_entry(
    ledger: Ledger,
    last: Block,
    data: bytes,
    kept: list[Entry],
    lines: list[int],
    prot_name: str,
) -> list[Problem] | None:
    """The same proof without building the values of the whole history.


    ``head`` (the protected side before its last entry) is read for syntax only,
    in C: one document, a block list at column 0, that parses. A parse of it
    ends inside no quoted scalar or flow collection (the end of input would be
    an error there), so in the merged file the ``-`` at column 0 that follows it
    starts the next item of that list, and the rest (``window``: the protected
    side's last entry and the appended ones) reads exactly as it reads alone.
    That reading is checked in full, and the whole result's event count must be
    the two parts' counts joined (6 = the stream, document and list events,
    opened and closed). ``None`` when this does not apply: the full proof runs.
    """
    head, window = data[: last.start], data[last.start :]
    head_events = block_list_events(head)
    if head_events is None:
        return None
    try:
        root = load_items(window, line_offset=last.line - 1)
    except YamlProblem:
        return None  # the full parse says where and whose
    if not isinstance(root, list) or len(root) != 1 + len(kept):
        return None
    items: list[Item] = root
    problems = _read_back(items[1:], kept, lines)
    if problems:
        return problems
    alone = parse(content(ledger, last), last.line)
    if not same_reading(alone, items[0].value):
        return [_last_entry_changed(prot_name, last.line)]
    window_events = block_list_events(window)
    if window_events is None or block_list_events(data) != head_events + window_events - 6:
        return None
    return []


def _verify_whole(
    prot: bytes, data: bytes, kept: list[Entry], lines: list[int], prot_name: str
) -> list[Problem]:
    """The proof by one strict parse of the whole result (the protected side has
    at most one entry, or its history is not a plain block list)."""
    try:
        root = load_items(data)
    except YamlProblem as problem:
        if not lines or problem.line < lines[0]:
            return [
                Problem(
                    problem.code,
                    prot_name,
                    problem.line,
                    f"{prot_name} is not valid YAML at line {problem.line}: {problem.message}",
                )
            ]
        return [
            Problem(
                problem.code,
                "result",
                problem.line,
                f"the merged file would not parse at line {problem.line}: "
                f"{problem.message}; nothing was written",
            )
        ]
    if root is None and not data.strip(b" \n"):
        root = []
    if not isinstance(root, list):
        return [
            Problem(
                "not-a-list",
                prot_name,
                1,
                f"{possessive(prot_name)} YAML root is not a list of entries",
            )
        ]
    items: list[Item] = root
    count = count_entries(prot)
    if len(items) != count + len(kept):
        return [_miscounted(len(items), count, len(kept))]
    problems = _read_back(items[count:], kept, lines)
    if problems:
        return problems
    ledger = Ledger(prot)
    last = ledger.last_block()
    if kept and last is not None and count:
        alone = parse(content(ledger, last), last.line)
        if not same_reading(alone, items[count - 1].value):
            return [_last_entry_changed(prot_name, last.line)]
    return []


def _read_back(items: list[Item], kept: list[Entry], lines: list[int]) -> list[Problem]:
    for item, entry, line in zip(items, kept, lines, strict=True):
        if item.line != line or not same_reading(item.value, entry.value):
            return [
                Problem(
                    "entry-count",
                    "result",
                    line,
                    f"the appended entry at line {line} does not read back as "
                    f"{label(entry.value)}; nothing was written",
                )
            ]
    return []


def _miscounted(found: int, protected: int, kept: int) -> Problem:
    return Problem(
        "entry-count",
        "result",
        None,
        f"the merged file reads as {found} entries, expected {protected} + {kept}; "
        "nothing was written",
    )


def _last_entry_changed(prot_name: str, line: int) -> Problem:
    return Problem(
        "entry-count",
        "result",
        line,
        f"{possessive(prot_name)} last entry reads differently once entries follow it; nothing was written",
    )


def parses_whole(data: bytes, name: str) -> list[Problem]:
    """The other side's history is not the protected side's bytes (the protected
    side rewrote it), so the whole-result parse did not cover it: parse it."""
    try:
        load_items(data)
    except YamlProblem as problem:
        return [
            Problem(
                problem.code,
                name,
                problem.line,
                f"{name} is not valid YAML at line {problem.line}: {problem.message}",
            )
        ]
    return []
