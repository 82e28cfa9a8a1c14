"""`changelog keys --base REF` reads the settings where `verify --base` does: at the
base commit; a settings change in the branch is reported, not obeyed."""

from __future__ import annotations

import json

from projects import NVIDIA, NVIDIA_TEXT, make_project, run


def test_keys_with_a_base_ignores_settings_the_branch_adds(repo) -> None:
    project = make_project(repo)
    project.commit(
        "bump a, and look elsewhere",
        **{
            NVIDIA: NVIDIA_TEXT.replace("v1", "v2", 1),
            ".perf-changelog.toml": 'master-configs = ["nowhere/*.yaml"]\n',
        },
    )
    done = run(project, "keys", "--base", "main", "--format", "json")
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    assert document["changed"]["modified"] == {"a-vllm": ["image"]}
    assert [(f["code"], f["severity"]) for f in document["findings"]] == [
        ("settings-changed", "warning")
    ]


def test_keys_without_a_base_reads_the_work_tree_settings(repo) -> None:
    project = make_project(repo)
    project.write(".perf-changelog.toml", 'master-configs = ["nowhere/*.yaml"]\n')
    done = run(project, "keys")
    assert done.returncode == 2
    assert "nowhere/*.yaml" in done.stderr
