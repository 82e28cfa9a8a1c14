"""Review lints on what a branch changed: key-style, repeated-block, recipe-reference
(fixtures built in code; the pure review, then the real `changelog lint`)."""

from __future__ import annotations

import json

from conftest import GitRepo
from projects import key_block, make_project, run

from changelog_tool.lint import keystyle
from changelog_tool.lint.review import Changed, review

CONNECTOR = '{"kv_connector": "NixlConnector", "kv_role": "kv_both", "kv_buffer_size": 5e9}'


def block(name: str, extra: str = "", *, tp: int = 8) -> str:
    return (
        f"{name}:\n  max-num-seqs: 256\n  tensor-parallel-size: {tp}\n"
        f"  gpu-memory-utilization: 0.9\n  block-size: 64\n  max-model-len: 131072\n"
        f"  kv-cache-dtype: fp8\n  enable-prefix-caching: true\n"
        f"  kv-transfer-config: '{CONNECTOR}'\n  trust-remote-code: true\n{extra}"
    )


def lint_recipe(head: str, base: str | None = None) -> list[tuple[str, int, str]]:
    changed = Changed(recipes={"r.yaml": (head.encode(), base.encode() if base else None)})
    return [
        (f.code, f.line or 0, f.message) for f in review(changed, lambda p: True, lambda r: None)
    ]


def test_a_snake_case_slip_among_kebab_case_siblings_is_flagged_with_the_fix() -> None:
    head = block("prefill", "  max_num_batched_tokens: 8192\n", tp=4) + "decode:\n  tp: 8\n"
    [(code, line, message)] = lint_recipe(head)
    assert (code, line) == ("key-style", 11)
    assert "'max_num_batched_tokens' is snake_case among kebab-case keys" in message
    assert "write 'max-num-batched-tokens'" in message


def test_a_file_that_is_snake_case_throughout_is_not_flagged() -> None:
    head = "prefill:\n  max_num_seqs: 8\n  tensor_parallel_size: 4\n  max_num_batched_tokens: 1\n"
    assert lint_recipe(head) == []


def test_underscores_inside_strings_are_not_mapping_keys() -> None:
    head = (
        block("prefill", tp=4) + "decode:\n  max-num-seqs: 8\n  extra-args: "
        "'--max_num_batched_tokens 8192'\n  env: 'KV_ROLE=kv_both'\n"
    )
    assert [c for c, _, _ in lint_recipe(head)] == []


def test_only_keys_the_branch_added_are_reported() -> None:
    old = block("prefill", "  old_key: 1\n", tp=4)
    assert lint_recipe(old + "  block-size-x: 2\n", old) == []  # old_key was there before
    assert [c for c, _, _ in lint_recipe(old + "  new_key: 2\n", old)] == ["key-style"]


def test_keys_a_merge_key_brings_in_are_siblings_that_vote() -> None:
    head = (
        "prefill: &p\n  max-num-seqs: 8\n  block-size: 64\n  kv-cache-dtype: fp8\n"
        "decode:\n  <<: *p\n  max_model_len: 1\n"
    )
    [(code, line, message)] = lint_recipe(head)
    assert (code, line) == ("key-style", 7)
    assert "among kebab-case keys (3 of its 3 sibling keys with a style)" in message


def test_a_key_renamed_to_the_other_style_is_reported() -> None:
    old = block("prefill", tp=4)
    renamed = old.replace("  block-size: 64\n", "  block_size: 64\n")
    [(code, line, _)] = lint_recipe(renamed, old)
    assert (code, line) == ("key-style", 5)


def test_prefill_and_decode_written_out_twice_get_a_notice_naming_what_differs() -> None:
    head = block("prefill", tp=4) + block("decode", tp=8)
    [(code, line, message)] = lint_recipe(head)
    assert (code, line) == ("repeated-block", 1)
    assert "prefill (line 1), decode (line 11) repeat 8 fields" in message
    assert "differ only in tensor-parallel-size" in message and "<<: *prefill-common" in message


def test_nested_settings_are_compared_field_by_field() -> None:
    """Blocks of few keys holding nested settings (``models.yaml``'s model entries)
    repeat when their leaves do: the notice names the nested field that differs."""

    def model(name: str, chunk: int) -> str:
        nested = "".join(f"      opt-{n}: {n}\n" for n in range(4))
        return (
            f"{name}:\n  base-flags: '--trust-remote-code'\n  prefill:\n    dp:\n"
            f"      chunked-prefill-size: {chunk}\n{nested}    no-dp:\n{nested}"
        )

    [(code, line, message)] = lint_recipe(model("DeepSeek-V3", 16384) + model("DeepSeek-R1", 8192))
    assert (code, line) == ("repeated-block", 1)
    assert "repeat 9 fields and differ only in prefill.dp.chunked-prefill-size" in message


def test_the_same_blocks_written_with_a_merge_key_get_no_notice() -> None:
    head = block("prefill", tp=4).replace("prefill:", "prefill: &common", 1) + (
        "decode:\n  <<: *common\n  tensor-parallel-size: 8\n"
    )
    assert lint_recipe(head) == []


def test_blocks_that_differ_in_many_fields_are_not_repeats() -> None:
    other = "decode:\n" + "".join(f"  field-{n}: {n}\n" for n in range(10))
    assert lint_recipe(block("prefill") + other) == []


def test_a_reference_to_a_missing_recipe_is_named_at_its_line() -> None:
    changed = Changed(
        references=[
            ("configs/n-master.yaml", "k1", "recipes/a/b.yaml", 12),
            ("configs/n-master.yaml", "k1", "recipes/a/c.yaml", 13),
        ]
    )
    found = review(changed, lambda p: p.endswith("c.yaml"), lambda r: "bench/" + r)
    assert [(f.code, f.line, f.severity) for f in found] == [("recipe-reference", 12, "warning")]
    assert "bench/recipes/a/b.yaml is not in this repository" in found[0].message


def test_a_lint_set_to_off_is_dropped_and_a_raised_one_is_an_error() -> None:
    changed = Changed(
        recipes={"r.yaml": ((block("prefill", tp=4) + block("decode")).encode(), None)}
    )
    assert review(changed, lambda p: True, lambda r: None, {"repeated-block": "off"}) == []
    [raised] = review(changed, lambda p: True, lambda r: None, {"repeated-block": "error"})
    assert raised.severity == "error"


def test_changelog_lint_reports_the_branchs_slips_as_annotations(repo: GitRepo) -> None:
    make_project(repo)
    recipe = "benchmarks/multi_node/srt-slurm-recipes/vllm/x.yaml"
    repo.commit(
        "recipe",
        **{recipe: block("prefill", "  max_num_batched_tokens: 8\n", tp=4) + block("decode")},
    )
    done = run(repo, "lint", "--base", "main", "--format", "github")
    assert done.returncode == 0, done.stderr  # warnings and notices do not fail
    lines = done.stdout.splitlines()
    assert f"::warning file={recipe},line=11,title=key-style::" in "\n".join(lines)
    assert any(
        line.startswith(f"::notice file={recipe},line=1,title=repeated-block::") for line in lines
    )
    document = json.loads(run(repo, "lint", "--base", "main", "--format", "json").stdout)
    assert sorted(f["code"] for f in document["findings"]) == ["key-style", "repeated-block"]


def test_several_identical_blocks_are_one_notice_naming_them_all() -> None:
    head = block("model-a") + block("model-b") + block("model-c")
    [(code, line, message)] = lint_recipe(head)
    assert (code, line) == ("repeated-block", 1)
    assert "model-a (line 1), model-b (line 11), model-c (line 21)" in message
    assert "are identical" in message


def test_items_of_one_list_are_meant_to_look_alike() -> None:
    items = "".join(
        "- " + block("x", tp=n).replace("\n", "\n  ", 9).replace("x:\n  ", "", 1) for n in (1, 2)
    )
    assert (
        lint_recipe("configs:\n" + "".join("  " + line + "\n" for line in items.splitlines())) == []
    )


def test_hostile_nesting_or_aliases_in_a_changed_file_cost_bounded_work() -> None:
    deep = "x: " + "[" * 100_000 + "]" * 100_000 + "\n"
    bomb = "a: &a [1, 1, 1, 1, 1, 1, 1, 1, 1]\n" + "".join(
        f"{chr(98 + n)}: &{chr(98 + n)} [" + ", ".join([f"*{chr(97 + n)}"] * 9) + "]\n"
        for n in range(8)
    )
    assert lint_recipe(deep) == [] and lint_recipe(bomb) == []  # verify's checks say why


def test_a_snake_case_field_in_an_added_master_key_is_flagged_at_its_line(repo: GitRepo) -> None:
    from projects import NVIDIA, NVIDIA_TEXT, key_block

    make_project(repo)
    added = key_block("x1-vllm").replace(
        "      osl: 1024\n", "      osl: 1024\n      max_seq_len: 8\n"
    )
    text = NVIDIA_TEXT + "\n" + added
    repo.commit("key", **{NVIDIA: text})
    document = json.loads(run(repo, "verify", "--base", "main", "--format", "json").stdout)
    [slip] = [f for f in document["findings"] if f["code"] == "key-style"]
    assert (
        slip["path"] == NVIDIA
        and slip["line"] == text.split("\n").index("      max_seq_len: 8") + 1
    )
    assert "write 'max-seq-len'" in slip["message"]


def test_a_master_keys_whole_file_decides_only_a_key_without_styled_siblings() -> None:
    """A changed master key is read alone: the whole file's key lines are counted
    only for a key with no styled sibling (or an even split), and flag it only
    when the file is at least 90% the other style."""
    from changelog_tool.lint.keystyle import file_votes
    from changelog_tool.lint.review import MasterKey

    kebab = b"".join(b"a%d:\n  max-num-seqs: 8\n" % n for n in range(9))
    asked: list[bytes] = []

    def lint(chunk: bytes, whole: bytes) -> list[str]:
        def votes() -> keystyle.Votes:
            asked.append(whole)
            return file_votes(whole)

        key = MasterKey("m.yaml", chunk, None, 1, votes)
        return [f.message for f in review(Changed(master_keys=[key]), lambda p: True, str)]

    alone = b"k1:\n  image: x\n  new_key: 1\n"
    [message] = lint(alone, kebab + alone)  # 9 of 10 styled keys are kebab-case
    assert "'new_key' is snake_case in a file whose keys are 90% kebab-case" in message
    assert len(asked) == 1
    assert lint(alone, kebab[: kebab.index(b"a8:")] + alone) == []  # 8 of 9: below 90%
    split = b"k1:\n  max_seq_len: 8\n  search-space: 1\n"
    [message] = lint(split, kebab + split)  # each is the other's only sibling
    assert message == (
        "'max_seq_len' is snake_case in a file whose keys are 90% kebab-case (its sibling "
        "keys are split evenly between the styles); write 'max-seq-len', as they are written"
    )
    asked.clear()
    siblings = b"k1:\n  max-num-seqs: 8\n  block-size: 4\n  new_key: 1\n"
    [message] = lint(siblings, siblings)
    assert "among kebab-case keys (2 of its 2 sibling keys with a style)" in message
    assert asked == []  # judged by its siblings: the whole file is not scanned


def test_upper_case_names_neither_vote_nor_are_flagged_in_the_file_scan() -> None:
    from changelog_tool.lint.keystyle import KEBAB, SNAKE, file_votes

    text = b"env:\n  NCCL_IB_HCA: x\n  VLLM-FLAG: y\n  max-num-seqs: 1\n  tp_size: 2\n"
    votes = file_votes(text)
    assert (votes[SNAKE], votes[KEBAB]) == (1, 1)


def test_changelog_lint_reports_a_master_config_the_branch_broke(repo: GitRepo) -> None:
    """The pre-commit hook's check: a master config that no longer parses, or a key
    now defined in two files, fails `lint` as it fails `keys` and `verify`."""
    make_project(repo)
    broken = "a-vllm:\n  image: v2\n  scenarios: {\nb-vllm:\n  image: v1\n"
    repo.write("configs/nvidia-master.yaml", broken)
    done = run(repo, "lint", "--base", "main", "--format", "json")
    assert done.returncode == 1, done.stderr
    [finding] = json.loads(done.stdout)["findings"]
    assert (finding["code"], finding["path"], finding["line"], finding["severity"]) == (
        "yaml-syntax",
        "configs/nvidia-master.yaml",
        3,
        "error",
    )
    assert run(repo, "keys", "--base", "main").returncode == 1
    repo.git("checkout", "--", "configs/nvidia-master.yaml")
    amd = repo.read("configs/amd-master.yaml").decode()
    repo.write("configs/amd-master.yaml", amd + key_block("a-vllm"))
    done = run(repo, "lint", "--base", "main")
    assert done.returncode == 1, done.stdout
    assert "duplicate-master-key" in done.stdout


def keyed(key: str, image: str, refs: list[str]) -> str:
    """A master key whose scenario references recipes (``CONFIG_FILE=...``)."""
    args = "".join(f"\n        - CONFIG_FILE={ref}" for ref in refs)
    return (
        f"{key}:\n  image: {image}\n  model: m\n  runner: b200\n  precision: fp4\n"
        f"  framework: dynamo-trt\n  multinode: true\n  scenarios:\n    fixed-seq-len:\n"
        f"    - isl: 1024\n      osl: 1024\n      search-space:\n      - tp: 8\n"
        f"        conc-list: [4]\n        extra-args:{args}\n"
    )


def reference_codes(repo: GitRepo) -> list[str]:
    done = run(repo, "lint", "--base", "main", "--format", "json")
    return [
        f["message"] for f in json.loads(done.stdout)["findings"] if f["code"] == "recipe-reference"
    ]


def test_a_reference_main_already_left_dangling_is_not_the_branchs_doing(repo: GitRepo) -> None:
    """An image bump on a key whose old references point at recipes kept elsewhere
    names none of them; a reference the branch adds, or one whose recipe the branch
    removes, is still named."""
    old, kept, gone = (
        "recipes/trt/old.yaml",
        "recipes/trt/kept.yaml",
        "recipes/trt/gone.yaml",
    )
    folder = "benchmarks/multi_node/srt-slurm-recipes/trt/"
    repo.commit(
        "main",
        **{
            "configs/nvidia-master.yaml": keyed("k-trt", "img:v1", [old, kept, gone]),
            "perf-changelog.yaml": "",
            folder + "kept.yaml": "a: 1\n",
            folder + "gone.yaml": "a: 1\n",
        },
    )
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit(
        "bump", **{"configs/nvidia-master.yaml": keyed("k-trt", "img:v2", [old, kept, gone])}
    )
    assert reference_codes(repo) == []
    repo.git("rm", "-q", folder + "gone.yaml")
    repo.commit(
        "add a ref, drop a recipe",
        **{
            "configs/nvidia-master.yaml": keyed(
                "k-trt", "img:v2", [old, kept, gone, "recipes/trt/new.yaml"]
            )
        },
    )
    found = reference_codes(repo)
    [one] = found  # one finding per key, naming both
    assert "2 recipes" in one and "'recipes/trt/gone.yaml'" in one and "new.yaml" in one


def test_a_change_past_the_review_budget_is_left_with_one_notice() -> None:
    from changelog_tool.lint.review import REVIEW_BYTES, MasterKey

    small = b"a-vllm:\n  image: x\n  model_name: m\n  max-model-len: 8\n  block-size: 4\n"
    big = b"b-vllm:\n  image: " + b"x" * REVIEW_BYTES + b"\n"
    changed = Changed(
        master_keys=[
            MasterKey("configs/nvidia-master.yaml", small, None, 1, None),
            MasterKey("configs/amd-master.yaml", big, None, 1, None),
        ]
    )
    found = review(changed, lambda p: True, lambda r: None)
    codes = [(f.code, f.severity, f.path) for f in found]
    assert ("review-skipped", "notice", "configs/amd-master.yaml") in codes
    assert any(code == "key-style" for code, _, _ in codes)  # the small key was reviewed
