"""What the gate says about odd input: the change as it is, and what to do, in the
terms of the config (never Python's own advice), through the installed command."""

from __future__ import annotations

from projects import NVIDIA, NVIDIA_TEXT, findings, key_block, make_project, run_checked


def test_a_merge_key_at_the_top_level_merges_its_keys_in(repo) -> None:
    make_project(repo)  # (the scan read `<<` as a key: b-vllm "removed", `<<` uncovered)
    merged = NVIDIA_TEXT.split("b-vllm:")[0] + "<<: {b-vllm: {image: changed}}\n"
    repo.commit("merge key", **{NVIDIA: merged})
    found = findings(repo, "verify", "--base", "main")
    assert [(f["code"], f.get("key")) for f in found] == [("uncovered-key", "b-vllm")]


def test_a_number_past_pythons_digit_limit_is_named_briefly_with_the_fix(repo) -> None:
    make_project(repo)
    repo.commit("huge", **{NVIDIA: NVIDIA_TEXT + "c-vllm:\n  image: " + "9" * 5000 + "\n"})
    (found,) = [f for f in findings(repo, "verify", "--base", "main") if f["code"] == "yaml-syntax"]
    assert "(5,000 characters)" in found["message"] and "4,300 digits" in found["message"]
    assert "sys.set_int_max_str_digits" not in found["message"] and len(found["message"]) < 300
    assert "quote it" in found["message"]


def test_a_key_beginning_with_a_reserved_character_says_to_quote_it(repo) -> None:
    make_project(repo)
    repo.commit("at", **{NVIDIA: NVIDIA_TEXT + key_block("@c-vllm")})
    (found,) = [f for f in findings(repo, "verify", "--base", "main") if f["code"] == "yaml-syntax"]
    assert "('@')" in found["message"] and "quote it" in found["message"]


def test_unrelated_histories_say_what_base_to_pass(repo) -> None:
    make_project(repo)
    repo.git("checkout", "-q", "--orphan", "alone")
    repo.commit("alone", **{NVIDIA: NVIDIA_TEXT})
    done = run_checked(repo, "verify", "--base", "main")
    assert done.returncode == 2
    assert (
        "no common ancestor" in done.stderr and "pass a --base that HEAD grew from" in done.stderr
    )


def test_a_tree_for_a_commit_is_named_a_tree(repo) -> None:
    make_project(repo)
    for args in (["--base", "main^{tree}"], ["--base", "main", "--head", "HEAD^{tree}"]):
        done = run_checked(repo, "verify", *args)
        assert done.returncode == 2
        assert "names a tree, not a commit" in done.stderr, args


def test_settings_nested_past_the_toml_reader_are_refused_settings_not_a_crash(repo) -> None:
    make_project(repo)
    repo.write(".perf-changelog.toml", "x = " + "[" * 2000 + "]" * 2000 + "\n")
    found = findings(repo, "verify", "--base", "main")
    assert [f["code"] for f in found] == ["settings-changed"]
    assert "nested too deep" in found[0]["message"]
    done = run_checked(repo, "keys")
    assert done.returncode == 2 and "nested too deep" in done.stderr


def test_a_file_over_max_bytes_says_how_to_raise_the_limit(repo) -> None:
    make_project(repo)
    repo.write(".perf-changelog.toml", 'repository = "acme/bench"\nmax-bytes = 100000\n')
    repo.git("add", "-A")
    repo.git("commit", "-qm", "limit")
    repo.git("branch", "-f", "main")
    repo.commit("grow", **{NVIDIA: NVIDIA_TEXT + "# " + "x" * 100_000 + "\n"})
    done = run_checked(repo, "verify", "--base", "main")
    assert done.returncode == 2
    assert "raise `max-bytes` in the settings" in done.stderr
