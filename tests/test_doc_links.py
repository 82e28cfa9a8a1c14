"""Every relative link in README.md and docs/*.md leads somewhere: the file exists and
its ``#anchor`` is a heading of it, spelled as GitHub spells heading anchors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(```|~~~)")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
CODE_SPAN = re.compile(r"`+([^`]*)`+")
EXTERNAL = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)


def prose(text: str) -> list[str]:
    """The page's lines outside fenced code blocks."""
    lines, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            lines.append(line)
    return lines


def heading_text(raw: str) -> str:
    """A heading as rendered: code spans keep their text, links their label, emphasis
    marks and HTML go."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    text = re.sub(r"<[^>]+>", "", text)
    parts = CODE_SPAN.split(text)
    # odd parts are code: kept as typed; the rest loses the emphasis marks
    return "".join(
        p if i % 2 else re.sub(r"[*_]{1,3}(?=\S)|(?<=\S)[*_]{1,3}", "", p)
        for i, p in enumerate(parts)
    )


def slug(text: str) -> str:
    """GitHub's anchor for a heading: lower case; every character that is neither a
    word character, a hyphen nor a space dropped; each space a hyphen."""
    return re.sub(r"[^\w\- ]", "", text.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for line in prose(page.read_text(encoding="utf-8")):
        match = HEADING.match(line)
        if not match:
            continue
        base = slug(heading_text(match[2]))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r"""<a\s+(?:name|id)=["']([^"']+)["']""", page.read_text()))
    return found


def links(page: Path) -> list[str]:
    found: list[str] = []
    for line in prose(page.read_text(encoding="utf-8")):
        line = CODE_SPAN.sub("", line)
        found += INLINE_LINK.findall(line)
        if match := REFERENCE.match(line):
            found.append(match[1])
    return found


def broken(page: Path) -> list[str]:
    problems = []
    for target in links(page):
        if EXTERNAL.match(target):
            continue
        path_part, _, anchor = target.partition("#")
        destination = (page.parent / path_part).resolve() if path_part else page
        if not destination.exists():
            problems.append(f"{target}: no such file")
        elif anchor and destination.suffix == ".md" and anchor not in anchors(destination):
            problems.append(f"{target}: no heading #{anchor} in {destination.name}")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_and_anchor_resolves(page: Path) -> None:
    assert broken(page) == []


def test_anchors_are_spelled_as_github_spells_them(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Rebases and merges: the merge driver, `resolve`, `sync`\n"
        "## What counts as a change?\n## Notes\n## Notes\n"
        "```sh\n# not a heading\n```\n"
        "[a](#rebases-and-merges-the-merge-driver-resolve-sync) [b](#notes-1)\n"
        "[c](#what-counts-as-a-change) [d](#not-a-heading) [e](#notes-2)\n"
    )
    assert broken(page) == [
        "#not-a-heading: no heading #not-a-heading in page.md",
        "#notes-2: no heading #notes-2 in page.md",
    ]


def test_a_missing_file_is_named(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See [the guide](guide.md) and [usage](https://example.invalid/x.md).\n")
    assert broken(page) == ["guide.md: no such file"]
