"""Settings from ``[tool.perf-changelog]`` in pyproject.toml or ``.perf-changelog.toml``.

Defaults fit an InferenceX checkout, so it needs no settings at all. Unknown
settings are an error, not ignored.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from changelog_tool.errors import UsageError

DEFAULT_MASTER_GLOBS = ("configs/*-master.yaml", ".github/configs/*-master.yaml")
DEFAULT_RECIPE_PREFIXES = {"recipes/": "benchmarks/multi_node/srt-slurm-recipes/"}
DEFAULT_RECIPE_DIRS = ("benchmarks/multi_node/",)


@dataclass(frozen=True)
class Settings:
    root: Path
    changelog: str = "perf-changelog.yaml"
    master_configs: tuple[str, ...] = DEFAULT_MASTER_GLOBS
    recipe_prefixes: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_RECIPE_PREFIXES))
    recipe_dirs: tuple[str, ...] = DEFAULT_RECIPE_DIRS
    protected_ref: tuple[str, ...] = ("origin/main", "main")
    repository: str | None = None
    placeholders: tuple[str, ...] = ("XXX",)
    duplicate_entry: str = "warning"
    source: str | None = None

    @property
    def changelog_path(self) -> Path:
        return self.root / self.changelog

    def is_placeholder(self, link: str) -> bool:
        tail = link.rsplit("/pull/", 1)[-1] if link.startswith("https://github.com/") else link
        return tail in self.placeholders

    def placeholder_link(self) -> str:
        return self.placeholders[0]


_KEYS = {
    "changelog": ("changelog", str),
    "master-configs": ("master_configs", list),
    "recipe-prefixes": ("recipe_prefixes", dict),
    "recipe-dirs": ("recipe_dirs", list),
    "protected-ref": ("protected_ref", list),
    "repository": ("repository", str),
    "placeholders": ("placeholders", list),
    "duplicate-entry": ("duplicate_entry", str),
}


def find_root(start: Path) -> Path:
    """The nearest ancestor with settings, else the git top level, else ``start``."""
    start = start.resolve()
    for folder in (start, *start.parents):
        if (folder / ".perf-changelog.toml").is_file():
            return folder
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file() and b"[tool.perf-changelog]" in pyproject.read_bytes():
            return folder
        if (folder / ".git").exists():
            return folder
    return start


def _read_table(root: Path) -> tuple[dict[str, Any], str | None]:
    dotfile = root / ".perf-changelog.toml"
    pyproject = root / "pyproject.toml"
    try:
        if dotfile.is_file():
            return tomllib.loads(dotfile.read_text(encoding="utf-8")), str(dotfile)
        if pyproject.is_file():
            data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
            table = data.get("tool", {}).get("perf-changelog")
            if table is not None:
                return table, f"{pyproject} [tool.perf-changelog]"
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read settings in {root}: {exc}") from None
    return {}, None


def load(start: Path | None = None) -> Settings:
    root = find_root(start or Path.cwd())
    table, source = _read_table(root)
    values: dict[str, Any] = {}
    for name, value in table.items():
        if name not in _KEYS:
            known = ", ".join(sorted(_KEYS))
            raise UsageError(f"unknown setting {name!r} in {source}; known settings: {known}")
        attr, kind = _KEYS[name]
        if (
            not isinstance(value, kind)
            or (kind is list and not all(isinstance(v, str) for v in value))
            or (kind is dict and not all(isinstance(v, str) for v in value.values()))
        ):
            raise UsageError(f"setting {name!r} in {source} must be a {kind.__name__} of strings")
        values[attr] = tuple(value) if kind is list else value
    if values.get("duplicate_entry", "warning") not in ("warning", "error"):
        raise UsageError(f"setting 'duplicate-entry' in {source} must be 'warning' or 'error'")
    if not values.get("placeholders", ("XXX",)):
        raise UsageError(f"setting 'placeholders' in {source} needs at least one placeholder")
    return Settings(root=root, source=source, **values)
