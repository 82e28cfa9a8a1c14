"""`changelog demo` without a terminal: builds the demo repository, prints what the TUI
would show, and cleans up unless --keep is given."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from projects import run


def demo(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run(cwd, "demo", *args)  # (standard input is no terminal)


def test_demo_without_a_terminal_prints_the_changed_keys_and_a_suggested_entry(
    tmp_path: Path,
) -> None:
    result = demo(cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "[✓] + kimik3-fp4-b300-dynamo-vllm-agentic" in out
    assert "[✓] ~ gptoss-fp4-mi355x-vllm" in out and "image, scenarios.agentic-coding" in out
    assert "[✓] R kimik3-fp4-b200-dynamo-vllm-agentic" in out
    assert "- config-keys:\n    - kimik3-fp4-b300-dynamo-vllm-agentic\n" in out
    # gptoss-fp4-mi355x-vllm's image changed: every scenario of it must run again, so
    # the suggested entry names no scenario type (naming one would skip the others)
    suggested = out[out.index("- config-keys:") :]
    assert "scenario-type" not in suggested.split("\n\n")[0]
    assert "changelog demo --keep DIR" in out
    built = re.search(r"Built a demo repository in (\S+):", out)
    assert built is not None and not Path(built.group(1)).exists()


def test_demo_keep_leaves_a_repository_where_add_finds_the_same_keys(tmp_path: Path) -> None:
    kept = tmp_path / "kept"
    result = demo("--keep", str(kept), cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"cd {kept.resolve()} && changelog add" in result.stdout
    add = run(
        kept,
        "add",
        "--no-input",
        "--key",
        "kimik3-fp4-b300-dynamo-vllm-agentic",
        "--description",
        "Tried the demo",
    )
    assert add.returncode == 0, add.stderr
    assert (kept / "perf-changelog.yaml").read_text().endswith('"Tried the demo"\n  pr-link: XXX\n')


def test_demo_refuses_a_directory_that_is_not_empty(tmp_path: Path) -> None:
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    result = demo("--keep", str(tmp_path / "busy"), cwd=tmp_path)
    assert result.returncode == 2 and "not empty" in result.stderr
    assert (tmp_path / "busy" / "notes.txt").read_text() == "mine"


def test_a_temporary_demo_is_kept_only_when_it_holds_the_draft_the_tui_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from changelog_tool.authoring import drafts
    from changelog_tool.authoring.drafts import Draft
    from changelog_tool.commands.demo import clean_up
    from changelog_tool.demo import sandbox

    plain = sandbox.build(tmp_path / "plain")
    assert clean_up(plain.root) and not plain.root.exists()
    kept = sandbox.build(tmp_path / "kept")
    drafts.save(kept.changelog, Draft(description=["half written"]))
    assert not clean_up(kept.root)
    assert drafts.load(kept.changelog) is not None  # where the message said it is
    assert f"stays in {kept.root}" in capsys.readouterr().out
