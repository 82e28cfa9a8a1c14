"""``recipe-reference``: a changed key's references that name no file, one finding per key
(pure)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from changelog_tool.findings import Finding, listing


def reference_findings(
    references: Iterable[tuple[str, str, str, int]],
    exists: Callable[[str], bool],
    target: Callable[[str], str | None],
) -> list[Finding]:
    """One finding per ``(master file, key)`` whose references name no existing path, at its
    first line."""
    dangling: dict[tuple[str, str], list[tuple[str, str, int]]] = {}
    for path, key, ref, line in references:
        where = target(ref)
        if where is not None and not exists(where):
            dangling.setdefault((path, key), []).append((ref, where, line))
    out = []
    for (path, key), refs in dangling.items():
        refs.sort(key=lambda r: (r[2], r[0]))
        if len(refs) == 1:
            ref, where, _ = refs[0]
            what = f"references {ref!r}, but {where} is not in this repository"
        else:
            names = [repr(ref) for ref, _, _ in refs]
            what = (
                f"references {len(refs)} recipes that are not in this repository ({listing(names)})"
            )
        out.append(
            Finding(
                "recipe-reference",
                f"{key} {what}; fix the path, add the recipe, or (for a recipe from "
                "another collection) ignore this",
                path,
                refs[0][2],
                key=key,
                detail={
                    "references": [
                        {"reference": ref, "path": where, "line": line} for ref, where, line in refs
                    ]
                },
            )
        )
    return out
