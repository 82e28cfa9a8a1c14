"""The changelog's strict loader: :func:`~changelog_tool.yaml.safeload.build`'s bounded pass,
refusing anchors, aliases, tags and duplicate keys at their lines (LF lines, as the ledger's)."""

from __future__ import annotations

from ruamel.yaml.error import MarkedYAMLError, YAMLError

from changelog_tool.yaml.items import Item, YamlProblem
from changelog_tool.yaml.limits import line_at
from changelog_tool.yaml.safeload import build


def load_items(data: bytes | str, line_offset: int = 0) -> list[Item] | object:
    """A list of :class:`Item` when the root is a sequence, else the root value; raises
    :class:`YamlProblem`."""
    try:
        return build(data, strict=True, offset=line_offset)
    except YamlProblem as exc:
        exc.line = (exc.line or 1) + line_offset
        raise
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = line_at(data, mark.index if mark is not None else 0) + line_offset
        why = str(exc.problem or exc.context or "invalid YAML")
        raise YamlProblem("yaml-syntax", why, line) from None
    except YAMLError as exc:
        raise YamlProblem("yaml-syntax", str(exc).strip(), 1 + line_offset) from None


def load_value(data: bytes | str) -> object:
    root = load_items(data)
    if isinstance(root, list):
        return [item.value for item in root]
    return root
