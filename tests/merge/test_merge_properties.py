"""Property tests over generated histories: random bases with irregular separators,
random appends on both sides, reverted entries, duplicates both ways and pr-link
corrections. No entry is lost or doubled, the protected bytes stay an exact
prefix, the result passes the file checks, and the merge is deterministic."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise

from hypothesis import assume, given, settings
from hypothesis import strategies as st
from merge_helpers import differs_only_in_carried_pr_links, entry, sep

from changelog_tool.findings import ERROR
from changelog_tool.ledger.document import Ledger, parse
from changelog_tool.ledger.entry import without_pr_link
from changelog_tool.ledger.filecheck import check_file
from changelog_tool.merge.threeway import Merged, Refused, merge
from changelog_tool.yaml.strict import load_value

KEYS = [
    "dsr1-fp8-b200-sglang",
    "kimik2.5-int4-b300-vllm",
    "qwen3.5-fp8-mi355x-atom",
    "gptoss-fp4-*-trt",
    "minimaxm3-fp4-b300-dynamo-vllm",
]
LINKS = ["XXX", 1, 2, 3]
# what follows an entry's last line: one empty line, a line of two spaces, two empty lines
SEPARATORS = [b"\n", b"\n", b"\n", b"  \n", b"\n\n"]
ENDINGS = [b"", b"", b"\n", b"  \n", b"strip"]


@dataclass(frozen=True)
class Item:
    key: str
    description: str
    link: str | int
    indent: int

    def bytes(self) -> bytes:
        return entry(self.key, self.description, self.link, self.indent)

    def identity(self) -> tuple[str, str]:
        return (self.key, self.description)


def items_with(links: list[str | int], indents: list[int] | None = None) -> st.SearchStrategy[Item]:
    return st.builds(
        Item,
        key=st.sampled_from(KEYS),
        description=st.sampled_from(["Update image", "Add agentic scenario", "Retrigger sweep"]),
        link=st.sampled_from(links),
        indent=st.sampled_from(indents or [2, 4]),
    )


items = items_with(LINKS)
published = items_with([n for n in LINKS if isinstance(n, int)])  # main never holds a placeholder


def render(entries: list[tuple[Item, bytes]], ending: bytes) -> bytes:
    """Entries, each followed by its separator (the last one by ``ending``)."""
    if not entries:
        return b""
    parts = [item.bytes() + separator for item, separator in entries[:-1]]
    data = b"".join(parts) + entries[-1][0].bytes()
    return data.rstrip(b"\n") if ending == b"strip" else data + ending


@dataclass(frozen=True)
class History:
    base: bytes
    protected: bytes
    other: bytes
    base_items: list[Item]
    protected_items: list[Item]
    own: list[Item]


@st.composite
def histories(
    draw: st.DrawFn,
    history: st.SearchStrategy[Item] = items,
    new: st.SearchStrategy[Item] = items,
) -> History:
    """``history``: the base's entries; ``new``: the entries either side appends."""
    base_entries = draw(st.lists(st.tuples(history, st.sampled_from(SEPARATORS)), max_size=7))
    base = render(base_entries, draw(st.sampled_from(ENDINGS)))
    # the protected side: drops some entries (reverted duplicates), corrects some
    # pr-links, then appends; its separators may differ from the base's anywhere
    kept = []
    for item, separator in base_entries:
        fate = draw(st.sampled_from(["keep", "keep", "keep", "drop", "relink"]))
        if fate == "drop":
            continue
        if fate == "relink":
            item = Item(item.key, item.description, 999, item.indent)
        kept.append((item, separator))
    appended = draw(st.lists(st.tuples(new, st.sampled_from(SEPARATORS)), max_size=4))
    protected_entries = kept + appended
    protected = render(protected_entries, draw(st.sampled_from(ENDINGS)))
    # the other side: the base's bytes exactly, then its own entries, some of them
    # the protected side's new ones (concurrent duplicates) or old ones (re-appends)
    pool = [i for i, _ in appended] + [i for i, _ in base_entries]
    own = draw(st.lists(st.one_of(new, st.sampled_from(pool)) if pool else new, max_size=4))
    other = base + sep(base) + b"\n".join(i.bytes() for i in own) if own else base
    return History(
        base, protected, other, [i for i, _ in base_entries], [i for i, _ in protected_entries], own
    )


def expected(h: History) -> bytes:
    """The oracle: what the protected side added since the base (by identity, pr-link
    aside) cancels the other side's equal entries, once each."""
    new = Counter(i.identity() for i in h.protected_items)
    new.subtract(Counter(i.identity() for i in h.base_items))
    kept = []
    for item in h.own:
        if new[item.identity()] > 0:
            new[item.identity()] -= 1
        else:
            kept.append(item.bytes())
    if not kept:
        return h.protected
    return h.protected + sep(h.protected) + b"\n".join(kept)


def errors(data: bytes) -> set[tuple[str, int | None]]:
    return {(f.code, f.line) for f in check_file(data, "p").findings if f.severity == ERROR}


@settings(max_examples=150, deadline=None)
@given(histories())
def test_the_merge_keeps_protected_bytes_and_adds_each_own_entry_exactly_once(
    h: History,
) -> None:
    result = merge(h.base, h.protected, h.other, "ours")
    assert isinstance(result, Merged), result
    assert result.data == expected(h)
    assert result.data.startswith(h.protected)
    suffix = result.data[len(h.protected) :]
    if suffix:  # the append contract: one empty line before, one between, one final newline
        assert suffix.startswith(sep(h.protected) + b"- config-keys:")
        assert not result.data.endswith(b"\n\n") and result.data.endswith(b"\n")
        assert b"\n\n\n" not in suffix
    parsed = load_value(result.data) or []
    assert len(parsed) == len(h.protected_items) + len(result.report.kept)
    assert len(result.report.kept) + len(result.report.duplicates) == len(h.own)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_the_result_has_no_file_error_its_protected_side_did_not_have(h: History) -> None:
    result = merge(h.base, h.protected, h.other, "ours")
    assert isinstance(result, Merged)
    assert errors(result.data) <= errors(h.protected)


@settings(max_examples=100, deadline=None)
@given(histories())
def test_the_merge_is_deterministic_and_the_same_from_either_side(h: History) -> None:
    rebase = merge(h.base, h.protected, h.other, "ours")
    again = merge(h.base, h.protected, h.other, "ours")
    merge_main = merge(h.base, h.other, h.protected, "theirs")
    assert isinstance(rebase, Merged) and isinstance(merge_main, Merged)
    assert rebase == again
    assert rebase.data == merge_main.data


@settings(max_examples=150, deadline=None)
@given(histories(), st.data())
def test_own_entries_interleaved_with_the_bases_are_re_appended_in_their_order(
    h: History, data: st.DataObject
) -> None:
    # an earlier hand merge left the other side's own entries among the base's
    # entries (its separators plain ones): the result is the same as when it appended
    old = {i.bytes() for i in h.base_items}
    own = [i for i in h.own if i.bytes() not in old]  # (a re-append is placed by its copy)
    assume(own and h.base_items)
    placed: list[Item] = list(h.base_items)
    low = data.draw(st.integers(0, len(placed) - 1))  # the first one stands mid-history
    for item in own:  # the own entries keep their order
        placed.insert(low, item)
        low = data.draw(st.integers(low + 1, len(placed)))
    other = render([(i, b"\n") for i in placed], b"")
    result = merge(h.base, h.protected, other, "ours")
    assert isinstance(result, Merged), result
    appending = History(h.base, h.protected, other, h.base_items, h.protected_items, own)
    assert result.data == expected(appending)
    assert set(result.report.reappended) <= set(result.report.kept)


@settings(max_examples=100, deadline=None)
@given(histories(published), st.data())
def test_any_edit_to_an_old_published_entry_on_the_other_side_is_refused(
    h: History, data: st.DataObject
) -> None:
    assume(h.base_items)
    starts = [m.start() for m in re.finditer(rb"^- ", h.other, re.MULTILINE)] + [len(h.other)]
    spans = [h.other[a:b] for a, b in pairwise(starts)]
    # Removing an entry whose bytes (separator included) equal the next one's gives
    # the same file as removing that next one, and so on down to the last: with an
    # own entry equal to it, that file is the base plus one entry, a real append.
    # So only an entry that differs from its successor is removed: a real edit.
    removable = [i for i in range(len(h.base_items) - 1) if spans[i] != spans[i + 1]]
    edits = ["description", "pr-link"] + (["removal"] if removable else [])
    edit = data.draw(st.sampled_from(edits))
    if edit == "removal":
        index = data.draw(st.sampled_from(removable))
    else:
        index = data.draw(st.integers(0, len(h.base_items) - 1))
    begin, end = starts[index], starts[index + 1]
    span = spans[index]
    # An entry is known by its content, not its place: with another copy of it (pr-link
    # and whitespace aside) on a side, which copy was edited is not in the files.
    target = unlinked(span)
    assume(all(unlinked_entries(data)[target] <= 1 for data in (h.base, h.protected, h.other)))
    if edit == "description":
        span = span.replace(b'- "', b'- "Edited: ', 1)
    elif edit == "pr-link":
        span = re.sub(rb"pr-link: .*", b"pr-link: https://github.com/o/r/pull/4242", span)
    else:
        span = b""
    edited = h.other[:begin] + span + h.other[end:]
    assert edited != h.other
    result = merge(h.base, h.protected, edited, "ours")
    removed = entries(h.base) - entries(edited)
    held, kept = entries(h.protected), entries(edited)
    if not any(held[k] > kept[k] for k in removed):
        # The edit took away no entry the protected side holds: the edited entry has
        # an equal copy among the other side's own (the file is also the base with
        # one entry more), or the protected side removed or changed it (or as many
        # of its equal copies) too. Merged, nothing may be lost or doubled; two edits
        # of one entry may be refused.
        if isinstance(result, Merged):
            assert_nothing_lost_or_doubled(result, h.base, h.protected, edited)
        return
    if edit == "pr-link" and isinstance(result, Merged):
        # a canonical pr-link correction of an entry the protected side left as it was
        # is carried onto the protected bytes: only that line changes
        lines = [n.line for n in result.report.corrected]
        assert lines and differs_only_in_carried_pr_links(h.protected, result.data, lines)
        return
    assert isinstance(result, Refused)
    assert any(p.code == "history-modified" for p in result.problems)


def unlinked(raw: bytes) -> str:
    """An entry's value without its pr-link: what it is, whatever its form."""
    value = parse(raw, 1)
    return repr(without_pr_link(value)) if isinstance(value, dict) else repr(raw)


def unlinked_entries(data: bytes) -> Counter[str]:
    ledger = Ledger(data)
    return Counter(unlinked(block.raw) for block in ledger.blocks)


def entries(data: bytes) -> Counter[bytes]:
    """The file's entries (their own lines) as a multiset."""
    ledger = Ledger(data)
    return Counter(block.raw for block in ledger.blocks)


def assert_nothing_lost_or_doubled(
    result: Merged | Refused, base: bytes, protected: bytes, other: bytes
) -> None:
    """Merged: the protected bytes, then each of the other side's own entries once;
    one that is not in the result is one the protected side appended too (reported as
    a duplicate). An entry is counted by its bytes: with copies equal but for pr-link,
    the pairing may take one for an old entry both sides changed alike, and then it is
    in the result already (nothing is lost, whichever copy it was)."""
    assert isinstance(result, Merged), result
    assert result.data.startswith(protected)
    own = entries(other) - entries(base)
    added = entries(result.data) - entries(protected)
    assert added <= own and sum(added.values()) == len(result.report.kept)
    missing = own - entries(result.data)
    assert sum(missing.values()) <= len(result.report.duplicates), missing


@st.composite
def branch_histories(draw: st.DrawFn) -> tuple[bytes, bytes, list[list[tuple[str, str | int]]]]:
    """A base, a main that moved (appends, maybe a removal), and a branch of commits
    that append their own entries, fill in their pr-links, or drop one of them."""
    base_items = draw(st.lists(items, min_size=1, max_size=5))
    base = b"\n".join(i.bytes() for i in base_items)
    kept = [i for i in base_items if draw(st.booleans()) or i is base_items[-1]]
    main_new = draw(st.lists(items, min_size=1, max_size=3))
    main = b"\n".join(i.bytes() for i in kept + main_new)
    commits: list[list[tuple[str, str | int]]] = []
    own: list[tuple[str, str | int]] = []
    for n in range(draw(st.integers(1, 5))):
        action = draw(st.sampled_from(["append", "append", "fill-link", "drop"]))
        if action == "fill-link" and any(link == "XXX" for _, link in own):
            at = next(k for k, (_, link) in enumerate(own) if link == "XXX")
            own[at] = (own[at][0], 3000 + n)
        elif action == "drop" and own:
            own.pop(draw(st.integers(0, len(own) - 1)))
        else:
            own.append((f"own-key-{n}", draw(st.sampled_from(["XXX", "XXX", 4000 + n]))))
        commits.append(list(own))
    return base, main, commits


def provable(before: list[tuple[str, str | int]], after: list[tuple[str, str | int]]) -> bool:
    """The replay rule, on the branch's own entries: from the first one the commit
    changes or drops, every entry the rebased head ends with has a placeholder."""
    first = next((k for k, (a, b) in enumerate(zip(before, after, strict=False)) if a != b), None)
    first = min(len(before), len(after)) if first is None else first
    return all(link == "XXX" for _, link in before[first:])


@settings(max_examples=200, deadline=None)
@given(branch_histories())
def test_replaying_a_branch_gives_main_then_its_entries_or_stops_where_unprovable(
    history: tuple[bytes, bytes, list[list[tuple[str, str | int]]]],
) -> None:
    base, main, commits = history
    # main moved (else git takes the branch's file and never calls the driver)
    assume(main != base)
    head, parent, before = main, base, []
    for own in commits:
        blocks = [entry(key, link=link) for key, link in own]
        commit = base + sep(base) + b"\n".join(blocks) if blocks else base
        result = merge(parent, head, commit, "ours")
        if not provable(before, own):
            assert isinstance(result, Refused), result  # a human decides; nothing guessed
            return
        assert isinstance(result, Merged), result
        assert result.data == (main + sep(main) + b"\n".join(blocks) if blocks else main)
        head, parent, before = result.data, commit, own
