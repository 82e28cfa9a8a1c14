"""The one append rule (ledger/revision.py `append_break`): appending entries leaves the existing
file's last entry reading as it did, and the whole one list. ``add`` (flags,
``--json``, ``--dry-run``, the TUI), ``verify --base`` and the merge apply it alike,
on real git repositories."""

from __future__ import annotations

import json

import pytest
from merge_helpers import appended, changelog, entry
from projects import LOG, codes, make_project, run, verify

from changelog_tool import settings as settings_module
from changelog_tool.authoring.drafts import Draft
from changelog_tool.authoring.session import AddSession
from changelog_tool.ledger.revision import append_break
from changelog_tool.merge.threeway import Merged, Refused, merge
from changelog_tool.yaml.strict import load_items

KEEP = (
    "- config-keys:\n    - a-vllm\n  pr-link: https://github.com/acme/bench/pull/3\n"
    "  description:\n    - |+\n      keep\n"
)
NEW = b'\n- config-keys:\n    - b-vllm\n  description:\n    - "new"\n  pr-link: XXX\n'
LAST = b'- config-keys:\n    - a-vllm\n  description:\n    - "old"\n  pr-link: XXX\n'

# endings of the existing file that an append changes or breaks, and the code said
BREAKING = {
    "document end": (LAST + b"...\n", "yaml-syntax"),
    "document end, then comments": (LAST + b"...\n# closed\n\n", "yaml-syntax"),
    "keep-chomping literal": (KEEP.encode(), "entry-count"),
    "keep-chomping folded": (KEEP.replace("|+", ">+").encode(), "entry-count"),
    "keep-chomping with indentation": (KEEP.replace("|+", "|2+").encode(), "entry-count"),
    "a last line that is a keep indicator": (
        b"- config-keys:\n    - a-vllm\n  pr-link: XXX\n  description: |+\n",
        "entry-count",
    ),
    "a flow sequence": (
        b'[{config-keys: [a-vllm], description: ["x"], pr-link: XXX}]\n',
        "yaml-syntax",
    ),
}
# endings an append leaves as they read
HARMLESS = {
    "emitter layout": LAST,
    "a comment": LAST + b"# a note\n",
    "a clipped block scalar": KEEP.replace("|+", "|").encode(),
    "a last line that is a clip indicator": b"- config-keys:\n    - a-vllm\n  description:\n    - |\n",
    "a quoted scalar over lines": b'- config-keys:\n    - a\n  description:\n    - "a\n      b"\n',
    "nothing yet": b"",
    "comments only": b"# the changelog\n",
}


@pytest.mark.parametrize("name", sorted(BREAKING))
def test_an_ending_that_takes_in_the_append_is_a_break(name: str) -> None:
    end, code = BREAKING[name]
    broken = append_break(end, NEW, 10)
    assert broken is not None and broken.code == code, broken
    assert broken.line >= 10
    assert "nothing can be appended until that is fixed" in broken.message


@pytest.mark.parametrize("name", sorted(HARMLESS))
def test_an_ending_that_reads_the_same_is_no_break(name: str) -> None:
    end = HARMLESS[name]
    assert append_break(end, NEW if end else NEW.lstrip(b"\n"), 1) is None
    whole = load_items(end + (NEW if end else NEW.lstrip(b"\n")))
    assert [item.value["config-keys"] for item in whole][-1] == ["b-vllm"]


def test_a_break_names_its_cause_and_the_fix() -> None:
    broken = append_break(LAST + b"...\n", NEW, 10)
    assert broken is not None
    assert (
        "marker '...' at line 15" in broken.message and "remove that marker line" in broken.message
    )
    kept = append_break(KEEP.encode(), NEW, 20)
    assert kept is not None and kept.line == 20
    assert "last entry (line 20) reads differently" in kept.message
    assert "'|+' or '>+'" in kept.message and "change that indicator to '|'" in kept.message


def test_an_end_that_does_not_parse_alone_is_left_to_the_checks_of_the_file() -> None:
    # a trailing '---' is a second document already: verify --file names it, add's gate
    # and the merge's proof refuse it (below); the rule judges only what the append does
    assert append_break(LAST + b"---\n", NEW, 1) is None
    # an appended entry that does not parse alone is the entries' check's to name
    assert append_break(LAST, b"\n- config-keys: [a\n", 1) is None


# --- add refuses, writing nothing ----------------------------------------------------


def _main_ending_with(repo, ending: str) -> bytes:
    make_project(repo)
    repo.git("checkout", "-q", "main")
    data = repo.read(LOG) + ending.encode()
    repo.commit("an ending", **{LOG: data})
    repo.git("checkout", "-q", "-b", "feat")
    return data


ENDINGS = {"document end": "...\n", "keep chomping": "\n" + KEEP}


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_add_refuses_an_append_the_ending_would_take_in(repo, name: str) -> None:
    before = _main_ending_with(repo, ENDINGS[name])
    flags = ("add", "--key", "a-vllm", "--description", "f one")
    for args, stdin in [
        (flags, ""),
        ((*flags, "--dry-run"), ""),
        (("add", "--json"), json.dumps({"config-keys": ["a-vllm"], "description": ["f"]})),
    ]:
        done = run(repo, *args, stdin=stdin)
        assert done.returncode == 1, done
        said = done.stderr + done.stdout
        assert "refusing to append to" in said and "nothing was written" in said
        assert "nothing can be appended until that is fixed" in said
        assert repo.read(LOG) == before


def test_the_tui_preview_says_so_and_blocks_the_save(repo) -> None:
    before = _main_ending_with(repo, ENDINGS["keep chomping"])
    settings = settings_module.load(repo.root)
    session = AddSession(settings, settings.changelog_path)
    preview = session.preview(Draft(keys=["a-vllm"], description=["d"]))
    assert not (preview.appended and not preview.problems)
    assert any("reads differently once entries follow it" in p for p in preview.problems)
    with pytest.raises(Exception, match="reads differently"):
        session.save(Draft(keys=["a-vllm"], description=["d"]))
    assert repo.read(LOG) == before


# --- verify --base reports what add refuses --------------------------------------------


@pytest.mark.parametrize("name", sorted(ENDINGS))
def test_verify_base_reports_an_append_the_ending_takes_in(repo, name: str) -> None:
    before = _main_ending_with(repo, ENDINGS[name])
    repo.commit("f1", **{LOG: appended(before, NEW.lstrip(b"\n"))})
    code, document = verify(repo)
    assert code == 1
    expected = "yaml-syntax" if name == "document end" else "entry-count"
    assert codes(document) == [expected]
    [finding] = document["findings"]
    assert "nothing can be appended until that is fixed" in finding["message"]


def test_verify_base_reads_only_the_bases_last_entry_to_judge_the_append(repo) -> None:
    # a long history before the last entry (past the tail kept in memory) is not read:
    # the break is found from the last entry on, at the file's own lines
    make_project(repo)
    repo.git("checkout", "-q", "main")
    history = repo.read(LOG)
    long = history + b"".join(b"\n" + entry("a-vllm", f"filler {n}", 4) for n in range(900))
    data = long + b"\n" + KEEP.encode()
    repo.commit("long", **{LOG: data})
    repo.git("checkout", "-q", "-b", "feat")
    repo.commit("f1", **{LOG: appended(data, NEW.lstrip(b"\n"))})
    assert len(long) > 1 << 16
    code, document = verify(repo)
    assert code == 1 and codes(document) == ["entry-count"]
    assert document["findings"][0]["line"] == data.count(b"\n") - KEEP.count("\n") + 1


# --- the merge applies the same rule -------------------------------------------------


def test_the_merge_refuses_with_the_same_rule() -> None:
    base = changelog(entry("a"), entry("b"))
    main = appended(base, KEEP.encode())
    result = merge(base, main, appended(base, entry("c")), "ours")
    assert isinstance(result, Refused), result
    [problem] = result.problems
    assert problem.code == "entry-count"
    assert "ours's last entry (line" in problem.message
    assert "reads differently once entries follow it" in problem.message
    # the same ending without keep chomping merges
    plain = appended(base, KEEP.replace("|+", "|").encode())
    assert isinstance(merge(base, plain, appended(base, entry("c")), "ours"), Merged)


def test_the_merge_refuses_after_a_document_end() -> None:
    base = changelog(entry("a"), entry("b"))
    main = appended(base, entry("m", link=5)) + b"...\n"
    result = merge(base, main, appended(base, entry("c")), "ours")
    assert isinstance(result, Refused)
    assert result.problems[0].code == "yaml-syntax"
    assert "marker '...'" in result.problems[0].message


def test_a_trailing_document_start_is_refused_by_add_and_the_merge(repo) -> None:
    before = _main_ending_with(repo, "---\n")
    done = run(repo, "add", "--key", "a-vllm", "--description", "f")
    assert done.returncode == 1 and "more than one YAML document" in done.stderr
    assert repo.read(LOG) == before
    base = changelog(entry("a"), entry("b"))
    result = merge(
        base, appended(base, entry("m", link=5)) + b"---\n", appended(base, entry("c")), "ours"
    )
    assert isinstance(result, Refused)


def test_the_rule_reads_a_long_history_from_its_last_entry() -> None:
    history = b"".join(entry(f"k{n}") + b"\n" for n in range(3000))
    data = history + KEEP.encode()
    broken = append_break(data, NEW)
    assert broken == append_break(KEEP.encode(), NEW, history.count(b"\n") + 1)
    assert broken is not None and broken.line > history.count(b"\n")
