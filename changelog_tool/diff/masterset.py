""":class:`MasterSet`, all master configs of one tree: which file defines each key,
and the key's value, bytes and place."""

from __future__ import annotations

from collections.abc import Iterable

from changelog_tool.diff.fields import SCENARIOS
from changelog_tool.diff.masters import MasterFile
from changelog_tool.yaml.items import YamlProblem


class MasterSet:
    """All master configs of one tree: key -> the file that defines it."""

    def __init__(self, files: Iterable[MasterFile]) -> None:
        self.files = sorted(files, key=lambda f: f.path)
        self.owner: dict[str, MasterFile] = {}
        self.defined: dict[str, list[MasterFile]] = {}
        for file in self.files:  # a key in two files: the later path wins (configs/ over .github/)
            for key in file.key_names():
                self.owner[key] = file
                self.defined.setdefault(key, []).append(file)

    def value(self, key: str) -> object:
        return self.owner[key].value(key)

    def value_yaml_1_1(self, key: str) -> object:
        return self.owner[key].value_yaml_1_1(key)

    def chunk(self, key: str) -> bytes | None:
        file = self.owner[key]
        return None if file.whole else file.chunk(key)

    def locate(self, key: str) -> tuple[str | None, int | None]:
        file = self.owner.get(key)
        return (file.path, file.line(key)) if file is not None else (None, None)

    def unknown(self, key: str) -> bool:
        """The key's file does not parse as a whole: its value cannot be known."""
        file = self.owner.get(key)
        return file is not None and file.whole and file.broken

    def problems(self) -> list[tuple[str, YamlProblem]]:
        return [(f.path, p) for f in self.files for p in f.problems]

    def has_scenario(self, key: str, kind: str) -> bool:
        """Does ``key`` define scenario type ``kind``? (A key that does not parse counts as yes.)"""
        chunk = self.chunk(key)
        if (
            chunk is not None
            and kind.encode() not in chunk
            and not (kind == "fixed-seq-len" and b"seq-len-configs" in chunk)
        ):
            return False
        try:
            value = self.value(key)
        except YamlProblem:
            return True
        if not isinstance(value, dict):
            return False
        scenarios = value.get(SCENARIOS)
        if isinstance(scenarios, dict) and kind in scenarios:
            return True
        return kind == "fixed-seq-len" and "seq-len-configs" in value

    def mentions(self, needle: str) -> list[str]:
        """Keys whose bytes may hold ``needle`` (a pre-filter): they contain it, or a backslash
        escape."""
        raw = needle.encode("utf-8", "surrogateescape")  # a file name git gave as bytes
        out = []
        for key, file in self.owner.items():
            text = file.data if file.whole else file.chunk(key)
            if raw in text or b"\\" in text:
                out.append(key)
        return sorted(out)
