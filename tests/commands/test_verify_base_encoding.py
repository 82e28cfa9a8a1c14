"""`verify --base` on a changelog whose encoding changed (CRLF, BOM, bad bytes) or
that was deleted (real git)."""

from __future__ import annotations

from conftest import ROOT
from projects import (
    HISTORY,
    LOG,
    codes,
    entry,
    verify,
)

README = ROOT / "docs" / "usage.md"


# --- CRLF, BOM and other encodings -------------------------------------------------------
def test_crlf_line_endings_are_one_encoding_finding_that_says_so(project) -> None:
    project.write(LOG, HISTORY.replace("\n", "\r\n"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["encoding"]
    message = document["findings"][0]["message"]
    assert "CRLF" in message and "otherwise unchanged" in message
    assert "sed -i 's/\\r$//' perf-changelog.yaml" in message


def test_crlf_with_an_appended_entry_still_reads_the_entry(project) -> None:
    project.write(LOG, (HISTORY + "\n" + entry("a-vllm", "Bump a")).replace("\n", "\r\n"))
    code, document = verify(project)
    assert code == 1 and codes(document) == ["encoding"]
    assert "otherwise unchanged" not in document["findings"][0]["message"]
    assert [e["line"] for e in document["appended"]] == [13]


def test_a_byte_order_mark_is_one_encoding_finding(project) -> None:
    project.write(LOG, b"\xef\xbb\xbf" + HISTORY.encode())
    code, document = verify(project)
    assert code == 1 and codes(document) == ["encoding"]
    finding = document["findings"][0]
    assert "byte-order mark" in finding["message"] and "otherwise unchanged" in finding["message"]
    assert finding["line"] == 1


def test_an_undecodable_byte_is_located_by_its_offset_in_the_file(project) -> None:
    data = (HISTORY + "\n" + entry("a-vllm", "Bump a")).encode().replace(b"Bump", b"B\xffump")
    project.write(LOG, data)
    code, document = verify(project)
    assert code == 1 and codes(document) == ["encoding"]
    finding = document["findings"][0]
    offset = data.index(b"\xff")
    assert f"at offset {offset} " in finding["message"]
    assert finding["line"] == data.count(b"\n", 0, offset) + 1


def test_a_nul_byte_is_an_encoding_problem_without_a_yaml_error_on_top(project) -> None:
    project.write(LOG, (HISTORY + "\n" + entry("a-vllm", "Bump\0a")).encode())
    code, document = verify(project)
    assert code == 1 and codes(document) == ["encoding"]
    assert "NUL" in document["findings"][0]["message"]


# --- a deleted changelog ------------------------------------------------------------------
def test_a_changelog_deleted_at_head_is_one_finding_saying_how_to_restore_it(project) -> None:
    project.git("rm", "-q", LOG)
    code, document = verify(project)
    assert code == 1 and codes(document) == ["history-modified"]
    base = project.git("rev-parse", "--short=12", "main")
    message = document["findings"][0]["message"]
    assert "was deleted" in message and f"git checkout {base} -- {LOG}" in message


def test_the_readme_gives_a_deleted_changelog_exit_1_and_an_absent_one_exit_2() -> None:
    section = README.read_text().split("<!-- section: verify -->")[1].split("<!-- section:")[0]
    assert "deleted at head" in section and "(exit 1)" in section and "exists at neither" in section


def test_a_nul_byte_in_a_new_changelog_is_not_also_a_yaml_error(project) -> None:
    project.git("rm", "-q", LOG)
    project.commit("no changelog yet")
    project.git("branch", "-f", "main", "HEAD")
    project.write(LOG, (HISTORY + "\n" + entry("a-vllm", "Bump\0a")).encode())
    code, document = verify(project)
    assert code == 1 and codes(document) == ["encoding"]
    assert [e["line"] for e in document["appended"]] == [1, 7]
