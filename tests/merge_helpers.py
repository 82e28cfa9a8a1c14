"""Builders for merge tests: entries and changelog files as bytes, written in code,
and the corpus scenarios rebuilt from the bundle at run time."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SLUG = "SemiAnalysisAI/InferenceX"


def entry(key: str, description: str = "", link: str | int = "XXX", indent: int = 4) -> bytes:
    """One entry, the way the file writes them (list items indented ``indent``)."""
    pad = " " * indent
    pr_link = f"https://github.com/{SLUG}/pull/{link}" if isinstance(link, int) else link
    return (
        f"- config-keys:\n{pad}- {key}\n  description:\n"
        f'{pad}- "{description or "Update " + key}"\n  pr-link: {pr_link}\n'
    ).encode()


def recording_git(folder: Path) -> tuple[Path, Path]:
    """A ``git`` that writes each call's first word to a file, then runs the real git:
    the folder to put first on ``PATH``, and the file of calls (one word a line)."""
    real = shutil.which("git")
    assert real is not None
    tools = folder / "bin"
    tools.mkdir()
    calls = folder / "git-calls"
    (tools / "git").write_text(f'#!/bin/sh\necho "$1" >> {calls}\nexec {real} "$@"\n')
    (tools / "git").chmod(0o755)
    return tools, calls


def changelog_tool(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI in ``root``, in this process (:func:`projects.run`); git's own runs of the
    driver, in a rebase or a merge, are processes of their own."""
    from projects import run

    return run(root, *args)


def sep(data: bytes) -> bytes:
    """The corpus README's separator rule: one empty line before an appended entry."""
    if data.endswith(b"\n\n"):
        return b""
    if data.endswith(b"\n"):
        return b"\n"
    return b"\n\n" if data else b""


def appended(data: bytes, *entries: bytes) -> bytes:
    """``data`` followed by ``entries``, per the append contract."""
    if not entries:
        return data
    return data + sep(data) + b"\n".join(entries)


def changelog(*entries: bytes) -> bytes:
    return b"\n".join(entries)


@dataclass(frozen=True)
class Scenario:
    record: dict[str, Any]
    base: bytes
    main: bytes
    pr: bytes

    @property
    def id(self) -> str:
        return str(self.record["id"])


def clone_bundle(corpus: Path, into: Path) -> Path:
    if not (into / ".git").is_dir():
        subprocess.run(
            ["git", "clone", "-q", str(corpus / "inferencex-data.bundle"), str(into)],
            check=True,
            capture_output=True,
        )
    return into


def scenarios(corpus: Path, clone: Path) -> list[Scenario]:
    """Every record of conflicts.jsonl, with base, main and PR bytes rebuilt as the
    corpus README says (PR = base [with pr_edit] + sep(base) + pr_blocks)."""
    records = [
        json.loads(line)
        for line in (corpus / "conflicts.jsonl").read_text(encoding="utf-8").splitlines()
        if line
    ]
    shas = sorted({r[k] for r in records for k in ("base_sha", "main_sha")})
    blobs = read_blobs(clone, [f"{sha}:perf-changelog.yaml" for sha in shas])
    out = []
    for record in records:
        base = blobs[f"{record['base_sha']}:perf-changelog.yaml"]
        main = blobs[f"{record['main_sha']}:perf-changelog.yaml"]
        edited = base
        if record.get("pr_edit"):
            edit = record["pr_edit"]
            edited = base.replace(edit["old"].encode(), edit["new"].encode(), edit["count"])
        pr = edited + sep(base) + record["pr_blocks"].encode()
        out.append(Scenario(record, base, main, pr))
    return out


def read_blobs(clone: Path, specs: list[str]) -> dict[str, bytes]:
    """``rev:path`` -> bytes, through one ``git cat-file --batch``."""
    done = subprocess.run(
        ["git", "cat-file", "--batch"],
        cwd=clone,
        check=True,
        input="".join(f"{s}\n" for s in specs).encode(),
        capture_output=True,
    )
    out, pos, blobs = done.stdout, 0, {}
    for spec in specs:
        end = out.index(b"\n", pos)
        size = int(out[pos:end].rsplit(b" ", 1)[1])
        blobs[spec] = out[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return blobs


def differs_only_in_carried_pr_links(protected: bytes, result: bytes, lines: list[int]) -> bool:
    """``result`` begins with ``protected`` but for the given 1-based lines, each a
    ``pr-link:`` line (a correction carried over from the other side)."""
    old, new = protected.split(b"\n"), result.split(b"\n")
    if protected.endswith(b"\n"):
        old = old[:-1]  # the empty string after the final newline is not a line
    if len(new) < len(old):
        return False
    changed = [n + 1 for n, (a, b) in enumerate(zip(old, new, strict=False)) if a != b]
    return changed == sorted(lines) and all(
        new[n - 1].lstrip().startswith(b"pr-link:") for n in lines
    )
