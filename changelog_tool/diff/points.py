"""A master key's benchmark points (pure): one per concurrency of each search-space entry of each
scenario item (``conc-list`` values, or the ``conc-start``/``conc-end`` sweep); an entry with
neither counts as one."""

from __future__ import annotations

from collections.abc import Mapping

from changelog_tool.diff.fields import SCENARIOS, sweep


def _concurrencies(entry: object) -> int:
    if not isinstance(entry, Mapping):
        return 1
    listed = entry.get("conc-list")
    if isinstance(listed, list) and listed:  # the generator runs a list it is given
        return len(listed)
    swept = sweep(entry)
    return len(swept) if swept is not None else 1


def points(value: object) -> dict[str, int]:
    """Benchmark points per scenario type of one master key's value."""
    scenarios = value.get(SCENARIOS) if isinstance(value, Mapping) else None
    if not isinstance(scenarios, Mapping):
        return {}
    out: dict[str, int] = {}
    for kind, items in scenarios.items():
        total = 0
        for item in items if isinstance(items, list) else []:
            space = item.get("search-space") if isinstance(item, Mapping) else None
            total += sum(_concurrencies(e) for e in space) if isinstance(space, list) else 1
        out[str(kind)] = total
    return out
