"""One master-config key's values (pure): which fields and scenario types changed, whether the
change only narrows what is benchmarked, and a key's benchmark points."""

from __future__ import annotations

from collections.abc import Mapping

from changelog_tool.yaml.values import same

SCENARIOS = "scenarios"
# Lists whose items are benchmark points: removing items only runs less.
_POINT_LISTS = frozenset({"search-space", "conc-list", "seq-len-configs", "scenario"})
_SWEEP = frozenset({"conc-start", "conc-end"})
_MISSING = object()


def changed_fields(old: object, new: object) -> list[str]:
    """Top-level fields that differ; ``scenarios`` per scenario type."""
    if not (isinstance(old, Mapping) and isinstance(new, Mapping)):
        return [] if same(old, new) else ["value"]
    fields: list[str] = []
    for name in set(old) | set(new):
        before, after = old.get(name, _MISSING), new.get(name, _MISSING)
        if same(before, after):
            continue
        if name == SCENARIOS and isinstance(before, Mapping) and isinstance(after, Mapping):
            fields.extend(
                f"{SCENARIOS}.{kind}"
                for kind in set(before) | set(after)
                if not same(before.get(kind, _MISSING), after.get(kind, _MISSING))
            )
        else:
            fields.append(str(name))
    return sorted(fields)


def scenarios_of(value: object) -> Mapping[object, object] | None:
    """A master key's ``scenarios`` mapping, or ``None``."""
    found = value.get(SCENARIOS) if isinstance(value, Mapping) else None
    return found if isinstance(found, Mapping) else None


def kinds(value: object) -> tuple[str, ...]:
    """The scenario types a master key's value has, in order (the older layout,
    ``seq-len-configs`` at the top, has ``fixed-seq-len``)."""
    scenarios = scenarios_of(value)
    if scenarios is not None:
        return tuple(str(kind) for kind in scenarios)
    return ("fixed-seq-len",) if isinstance(value, Mapping) and "seq-len-configs" in value else ()


def touched_scenarios(old: object, new: object) -> list[str]:
    """Scenario types present at ``new`` that were added or changed."""
    before, after = scenarios_of(old), scenarios_of(new)
    if after is None:
        return []
    if before is None:
        return sorted(str(k) for k in after)
    return sorted(str(k) for k in after if not same(before.get(k, _MISSING), after[k]))


def _narrows(old: object, new: object, name: str | None = None) -> bool:
    if same(old, new):
        return True
    if isinstance(old, list) and isinstance(new, list):
        rest = iter(old)  # each new item keeps or narrows a distinct old item, in order
        return name in _POINT_LISTS and all(any(_narrows(o, item) for o in rest) for item in new)
    if isinstance(old, Mapping) and isinstance(new, Mapping):
        if set(old) != set(new):
            return False
        if _SWEEP & set(old):  # the sweep's two ends are judged together, as its points
            before, after = sweep(old), sweep(new)
            if before is None or after is None:
                if not all(same(old.get(k), new.get(k)) for k in _SWEEP):
                    return False
            elif not after <= before:
                return False
            return all(_narrows(old[k], new[k], str(k)) for k in old if k not in _SWEEP)
        return all(_narrows(old[k], new[k], str(k)) for k in old)
    return False


def sweep(entry: Mapping[object, object]) -> frozenset[int] | None:
    """The concurrencies of a ``conc-start``/``conc-end`` sweep as InferenceX's
    ``generate_sweep_configs.py`` makes them: doubling from the start, then the end (4..100:
    4, 8, ..., 64, 100); ``None`` unless both are positive integers in order."""
    start, end = entry.get("conc-start"), entry.get("conc-end")
    if type(start) is not int or type(end) is not int or not 0 < start <= end:
        return None
    found, value = {end}, start
    while value < end:
        found.add(value)
        value *= 2  # the generator's --step-size default, test-config's fixed step
    return frozenset(found)


def is_reduction(old: object, new: object) -> bool:
    """True when ``new`` only drops scenarios or search-space points of ``old`` (no entry
    needed)."""
    if same(old, new) or not (isinstance(old, Mapping) and isinstance(new, Mapping)):
        return False
    for name in set(old) | set(new):
        before, after = old.get(name, _MISSING), new.get(name, _MISSING)
        if same(before, after):
            continue
        if name == SCENARIOS and isinstance(before, Mapping):
            if after is _MISSING:
                continue
            if not isinstance(after, Mapping) or not set(after) <= set(before):
                return False
            if not all(_narrows(before[k], after[k], "scenario") for k in after):
                return False
        elif name == "seq-len-configs" and isinstance(before, list):
            if after is not _MISSING and not _narrows(before, after, "seq-len-configs"):
                return False
        else:
            return False
    return True


# A key's benchmark points: one per concurrency of each search-space entry of each scenario
# item (``conc-list`` values, or the ``conc-start``/``conc-end`` sweep); an entry with neither
# counts as one.
def _concurrencies(entry: object) -> int:
    if not isinstance(entry, Mapping):
        return 1
    listed = entry.get("conc-list")
    if isinstance(listed, list) and listed:  # the generator runs a list it is given
        return len(listed)
    swept = sweep(entry)
    return len(swept) if swept is not None else 1


def points(value: object) -> dict[str, int]:
    out: dict[str, int] = {}
    for kind, items in (scenarios_of(value) or {}).items():
        total = 0
        for item in items if isinstance(items, list) else []:
            space = item.get("search-space") if isinstance(item, Mapping) else None
            total += sum(_concurrencies(e) for e in space) if isinstance(space, list) else 1
        out[str(kind)] = total
    return out
