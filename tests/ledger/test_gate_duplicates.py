"""Finding a copy of an appended entry in history without parsing the history (pure)."""

from __future__ import annotations

import time

from changelog_tool.ledger.entry import duplicate_in, needles, search_order


def find(data: bytes, entry: dict[str, object]) -> int | None:
    """The line of the last entry of ``data`` equal to ``entry`` but for pr-link."""
    return duplicate_in(data, entry)


def block(key: str, text: str, link: str = "https://github.com/o/r/pull/1") -> bytes:
    return (
        f'- config-keys:\n    - {key}\n  description:\n    - "{text}"\n  pr-link: {link}\n'
    ).encode()


HISTORY = b"\n".join(
    [
        block("a-vllm", "Bump the image"),
        block("b-trt", "New recipe"),
        block("a-vllm", "Widen the search space"),
    ]
)


def test_an_entry_equal_but_for_pr_link_is_found_with_its_line() -> None:
    entry = {"config-keys": ["a-vllm"], "description": ["Bump the image"], "pr-link": "XXX"}
    assert find(HISTORY, entry) == 1


def test_the_latest_copy_is_reported() -> None:
    data = HISTORY + b"\n" + block("a-vllm", "Bump the image", "https://github.com/o/r/pull/9")
    entry = {"config-keys": ["a-vllm"], "description": ["Bump the image"], "pr-link": "XXX"}
    assert find(data, entry) == 19


def test_a_different_spelling_of_the_same_entry_is_still_a_copy() -> None:
    data = b"- config-keys: ['a-vllm']\n  description: [Bump the\n      image]\n  pr-link: XXX\n"
    entry = {"config-keys": ["a-vllm"], "description": ["Bump the image"], "pr-link": "XXX"}
    assert find(data, entry) == 1


def test_an_entry_for_the_same_key_with_other_words_is_not_a_copy() -> None:
    entry = {"config-keys": ["a-vllm"], "description": ["Bump the image again"], "pr-link": "XXX"}
    assert find(HISTORY, entry) is None
    assert find(HISTORY, {"config-keys": ["zzz"], "description": ["x"]}) is None


def test_the_search_words_are_keys_scenarios_and_description_runs() -> None:
    entry = {
        "config-keys": ["a-vllm", "b-*"],
        "scenario-type": ["agentic-coding"],
        "description": ['Use "fp8" KV cache: 2x'],
    }
    assert needles(entry)[0] == b"a-vllm"
    assert set(needles(entry)[1:]) == {
        b"b-*",
        b"agentic-coding",
        b"Use",
        b"fp8",
        b"KV",
        b"cache:",
        b"2x",
    }


def test_a_long_history_of_look_alike_keys_is_searched_correctly() -> None:
    many = b"\n".join(block("a-vllm", f"Change {i}") for i in range(20000))
    entry = {"config-keys": ["a-vllm"], "description": ["Change 7"], "pr-link": "XXX"}
    assert find(many, entry) == 7 * 6 + 1
    assert find(many, {**entry, "description": ["Change 20001"]}) is None


def test_the_search_runs_on_the_needle_rarest_in_the_newest_history() -> None:
    """A config key recurs in every entry about it; a rare description word is the
    better needle, and a word both in the keys and the description is searched once."""
    newest = b"".join(block("a-vllm", f"Change {i}") for i in range(50))
    entry = {"config-keys": ["a-vllm"], "description": ["Retune a-vllm sweep"]}
    order = search_order(needles(entry), newest)
    assert order[0] in (b"Retune", b"sweep") and order.count(b"a-vllm") == 1
    assert order[-1] == b"a-vllm"


def test_a_search_reads_around_its_hits_not_the_whole_history() -> None:
    """300 searches of a 1 MB history of 250,000 one-line entries that holds none of
    them: each looks only where its rarest word is, so together they take well under a
    second of CPU (finding every entry's start first took 40 ms a search)."""
    history = b"- a\n" * 250_000
    entry = {"config-keys": ["a-vllm"], "description": ["x"], "pr-link": "XXX"}
    started = time.process_time()
    assert all(find(history, entry) is None for _ in range(300))
    assert time.process_time() - started < 2
