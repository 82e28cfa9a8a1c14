"""Benchmark points of a master key, against a hand-counted config."""

from __future__ import annotations

from changelog_tool.diff.fields import points
from changelog_tool.diff.masters import MasterFile, MasterSet

MASTER = b"""\
k1:
  image: a
  scenarios:
    fixed-seq-len:
    - isl: 1024
      osl: 1024
      search-space:
      - { tp: 8, conc-list: [4, 8, 16] }
      - { tp: 4, conc-start: 1, conc-end: 256 }
    - isl: 8192
      osl: 1024
      search-space:
      - { tp: 8, conc-list: [1] }
    agentic-coding:
    - duration: 300
      search-space:
      - conc-list: [ 1, 2, 4, 8, 16, 32 ]
k2:
  image: b
"""


def test_points_count_concurrencies_per_search_space_entry_per_scenario_item() -> None:
    masters = MasterSet([MasterFile("configs/x-master.yaml", MASTER)])
    # fixed-seq-len: 3 listed + 1..256 doubling (1,2,4,...,256: 9) + 1 = 13; agentic: 6
    assert points(masters.value("k1")) == {"fixed-seq-len": 13, "agentic-coding": 6}
    assert points(masters.value("k2")) == {}


def test_odd_shapes_count_one_point_each_and_never_fail() -> None:
    assert points({"scenarios": {"fixed-seq-len": [{"isl": 1}, "x"]}}) == {"fixed-seq-len": 2}
    assert points({"scenarios": {"s": [{"search-space": [{"conc-start": 8, "conc-end": 1}]}]}}) == {
        "s": 1
    }
    assert points("not a mapping") == {}


def test_keys_json_gives_the_points_of_each_changed_key(repo) -> None:  # type: ignore[no-untyped-def]
    import json

    from projects import NVIDIA, NVIDIA_TEXT, make_project, run

    make_project(repo)
    repo.commit("key", **{NVIDIA: NVIDIA_TEXT + "\n" + MASTER.decode().split("k2:")[0]})
    document = json.loads(run(repo, "keys", "--base", "main", "--format", "json").stdout)
    [k1] = [k for k in document["keys"] if k["key"] == "k1"]
    assert k1["points"] == {"fixed-seq-len": 13, "agentic-coding": 6}
