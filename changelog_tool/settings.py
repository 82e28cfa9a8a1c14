"""Settings from ``[tool.perf-changelog]`` in pyproject.toml or ``.perf-changelog.toml``.

Defaults fit an InferenceX checkout, so it needs no settings at all. Unknown
settings are an error, not ignored. One parser for every source: the work tree's
files, or their bytes at a commit (``verify --base`` reads the base's: the branch
it judges must not choose how it is judged, see docs/security.md). Every
configured path stays inside the repository: no ``..``, no absolute path.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from changelog_tool.confinement import confined_file
from changelog_tool.errors import UsageError
from changelog_tool.github import is_slug, pull_link
from changelog_tool.schemafile import placeholder_problem
from changelog_tool.toplevel import work_tree_top

DEFAULT_MASTER_GLOBS = ("configs/*-master.yaml", ".github/configs/*-master.yaml")
DEFAULT_RECIPE_PREFIXES = {"recipes/": "benchmarks/multi_node/srt-slurm-recipes/"}
DEFAULT_RECIPE_DIRS = ("benchmarks/multi_node/",)
DEFAULT_PLACEHOLDERS = ("XXX",)
"""The pr-link placeholders accepted off the protected branch; the first is add's."""
DEFAULT_SEVERITY = {
    "key-style": "warning",
    "repeated-block": "notice",
    "recipe-reference": "warning",
}
"""Each review lint's severity unless the settings' ``[severity]`` says otherwise."""
DOTFILE = ".perf-changelog.toml"
PYPROJECT = "pyproject.toml"
TABLE = "[tool.perf-changelog]"
MAX_SETTINGS_BYTES = 1024 * 1024
"""A settings file larger than this is refused before it is parsed."""
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
"""The default of ``max-bytes``: the largest changelog, master config or recipe read."""

Reader = Callable[[Path], bytes | None]
"""Reads a settings file by its path in the work tree: its bytes, or ``None``."""


_PLACEHOLDER_LINK = re.compile(pull_link("[^/]+"))
"""A pull-request link of any last part: a placeholder when that part is one."""


def is_placeholder(link: object, placeholders: Sequence[str]) -> bool:
    """The one placeholder rule: ``XXX`` or ``https://github.com/<owner>/<repo>/pull/XXX``
    (with the configured placeholders)."""
    if not isinstance(link, str):
        return False
    shaped = _PLACEHOLDER_LINK.fullmatch(link)
    return (shaped.group(2) if shaped is not None else link) in placeholders


@dataclass(frozen=True)
class Settings:
    root: Path
    changelog: str = "perf-changelog.yaml"
    master_configs: tuple[str, ...] = DEFAULT_MASTER_GLOBS
    recipe_prefixes: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_RECIPE_PREFIXES))
    recipe_dirs: tuple[str, ...] = DEFAULT_RECIPE_DIRS
    protected_ref: tuple[str, ...] = ("origin/main", "main")
    repository: str | None = None
    placeholders: tuple[str, ...] = DEFAULT_PLACEHOLDERS
    duplicate_entry: str = "warning"
    correction: str = "warning"
    """The severity of a change that only corrects old pr-links: the benchmark CI's
    reader refuses its deleted lines, so that push benchmarks nothing."""
    format: str = "warning"
    """The severity of form in ``verify --base`` (blank lines, whitespace, an own entry
    not at the tail, a re-land's link): ``"error"`` for byte discipline."""
    severity: dict[str, str] = field(default_factory=dict)
    """Per lint code (``key-style``, ``repeated-block``, ``recipe-reference``): error,
    warning, notice or off."""
    lock_timeout: float = 30.0
    """Seconds a writer waits for another writer's lock before giving up."""
    max_bytes: int = DEFAULT_MAX_BYTES
    """The largest changelog, master config or recipe file the tool reads, in bytes:
    every command checks it before reading (a larger file is refused, exit 2)."""
    fill_before_merge: bool = False
    """A placeholder pr-link is an error on every pull request, not only in a merge
    queue (``verify --before-merge``): the repository fills links before merging."""
    entry_schema: str | None = None
    """The repository's entry schema file (docs/usage.md, 'Adding a field')."""
    source: str | None = None

    @property
    def changelog_path(self) -> Path:
        return self.root / self.changelog

    def is_placeholder(self, link: str) -> bool:
        return is_placeholder(link, self.placeholders)

    def placeholder_link(self) -> str:
        return self.placeholders[0]


_KEYS: dict[str, tuple[str, type[object]]] = {
    "changelog": ("changelog", str),
    "master-configs": ("master_configs", list),
    "recipe-prefixes": ("recipe_prefixes", dict),
    "recipe-dirs": ("recipe_dirs", list),
    "protected-ref": ("protected_ref", list),
    "repository": ("repository", str),
    "placeholders": ("placeholders", list),
    "duplicate-entry": ("duplicate_entry", str),
    "correction": ("correction", str),
    "format": ("format", str),
    "severity": ("severity", dict),
    "lock-timeout": ("lock_timeout", float),
    "max-bytes": ("max_bytes", int),
    "entry-schema": ("entry_schema", str),
    "fill-before-merge": ("fill_before_merge", bool),
}
LINT_CODES = tuple(DEFAULT_SEVERITY)
LEVELS = ("error", "warning", "notice", "off")
_PATHS = ("changelog", "master-configs", "recipe-dirs", "recipe-prefixes", "entry-schema")
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class Found:
    """Where the settings are: the settings root, the file that holds them
    (``None``: none, the defaults apply) and its bytes."""

    root: Path
    file: str | None = None
    data: bytes | None = None

    def table(self) -> dict[str, object]:
        """The ``tool.perf-changelog`` table (the whole dotfile), not yet validated."""
        if self.file is None or self.data is None:
            return {}
        where = self.root / self.file
        data = read_toml(where, self.data)
        if self.file == DOTFILE:
            return data
        table = _tool_table(data)
        if table is not None and not isinstance(table, dict):
            raise UsageError(
                f"{where}: tool.perf-changelog must be a table ([tool.perf-changelog]), "
                f"found {type(table).__name__}"
            )
        return table if isinstance(table, dict) else {}


def read_toml(where: Path, data: bytes) -> dict[str, object]:
    """A settings file's TOML document (refused, with what to do, when it is too large
    or does not parse)."""
    if len(data) > MAX_SETTINGS_BYTES:
        raise UsageError(
            f"{where} is {len(data)} bytes, over the {MAX_SETTINGS_BYTES}-byte "
            "limit for a settings file"
        )
    if data.startswith(b"\xef\xbb\xbf"):
        raise UsageError(
            f"cannot read settings in {where}: it begins with a byte-order mark, which "
            "TOML does not allow; save it as UTF-8 without one"
        )
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read settings in {where}: {exc}") from None
    except RecursionError:  # tomllib nests a frame per [ or {
        raise UsageError(
            f"cannot read settings in {where}: arrays or tables nested too deep for "
            "the TOML reader; the settings need two levels at most"
        ) from None


def _tool_table(document: dict[str, object]) -> object:
    """``tool.perf-changelog`` of a parsed pyproject.toml (``None``: absent), however
    the TOML spells it: a ``[tool.perf-changelog]`` header, only subtables
    (``[tool.perf-changelog.severity]``), dotted or quoted keys, inline tables."""
    tool = document.get("tool")
    return tool.get("perf-changelog") if isinstance(tool, dict) else None


def holds_settings(where: Path, data: bytes) -> bool:
    """Does this pyproject.toml hold the settings? Read as TOML, never searched as
    bytes. One that cannot be read (too large, not TOML) may hold them: it is taken as
    holding them, so that :meth:`Found.table` refuses it with the reason, rather than
    the defaults silently applying."""
    try:
        return _tool_table(read_toml(where, data)) is not None
    except UsageError:
        return True


def read_work_tree(path: Path) -> bytes | None:
    """The default :data:`Reader`: a regular file in the work tree (refused when a
    link leads it outside the work tree or into the git directory)."""
    return path.read_bytes() if path.is_file() and confined_file(path) else None


def find(start: Path, read: Reader = read_work_tree) -> Found:
    """The nearest ancestor of ``start`` up to the git top level (as git finds it:
    :func:`~changelog_tool.toplevel.work_tree_top`) with settings (a dotfile, or a
    pyproject.toml with a ``tool.perf-changelog`` table), else that top level;
    files read with ``read``."""
    start = start.resolve()
    top = work_tree_top(start)
    folders = [start, *start.parents]
    for folder in folders[: folders.index(top) + 1] if top in folders else folders:
        dotfile = read(folder / DOTFILE)
        if dotfile is not None:
            return Found(folder, DOTFILE, dotfile)
        pyproject = read(folder / PYPROJECT)
        if pyproject is not None and holds_settings(folder / PYPROJECT, pyproject):
            return Found(folder, PYPROJECT, pyproject)
    return Found(top or start)


def find_root(start: Path) -> Path:
    """The settings root of the work tree (see :func:`find`)."""
    return find(start).root


def load(start: Path | None = None, *, read: Reader | None = None, origin: str = "") -> Settings:
    """The settings for ``start`` (default: the current directory). ``read`` reads a
    settings file's bytes (default: from the work tree; ``verify --base`` passes one
    that reads the base commit), ``origin`` says where in messages ("at the base ...")."""
    return parse(find(start or Path.cwd(), read or read_work_tree), origin)


def parse(found: Found, origin: str = "") -> Settings:
    """Validate the settings :func:`find` found: the one parser of every source."""
    table = found.table()
    source = None
    if found.file is not None:
        source = str(found.root / found.file)
        if found.file == PYPROJECT:
            source += f" {TABLE}"
        if origin:
            source += f" {origin}"
    texts: dict[str, str] = {}
    lists: dict[str, tuple[str, ...]] = {}
    tables: dict[str, dict[str, str]] = {}
    numbers: dict[str, float] = {}
    flags: dict[str, bool] = {}
    for name, value in table.items():
        if name not in _KEYS:
            known = ", ".join(sorted(_KEYS))
            raise UsageError(f"unknown setting {name!r} in {source}; known settings: {known}")
        attr, kind = _KEYS[name]
        if kind is float and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        if kind is float and not (isinstance(value, float) and 0 < value <= 3600):
            raise UsageError(
                f"setting {name!r} in {source} must be a number of seconds "
                "(more than 0, at most 3600)"
            )
        if kind is int and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise UsageError(
                f"setting {name!r} in {source} must be a whole number of bytes (1 or more)"
            )
        path: str | list[str] | dict[str, str]
        if kind in (float, int) and isinstance(value, int | float):
            numbers[attr] = value
            continue
        if kind is bool and isinstance(value, bool):
            flags[attr] = value
            continue
        if kind is str and isinstance(value, str):
            texts[attr] = path = value
        elif kind is list and isinstance(value, list) and all(isinstance(v, str) for v in value):
            lists[attr], path = tuple(value), value
        elif (
            kind is dict
            and isinstance(value, dict)
            and all(isinstance(v, str) for v in value.values())
        ):
            tables[attr] = path = value
        else:
            what: dict[type[object], str] = {
                str: "a string",
                list: "a list of strings",
                dict: "a table of strings",
                bool: "true or false",
            }
            raise UsageError(
                f"setting {name!r} in {source} must be {what.get(kind, kind.__name__)}"
            )
        if name in _PATHS:
            _check_paths(name, path, source)
    d = Settings(root=found.root)
    settings = Settings(
        root=found.root,
        source=source,
        changelog=texts.get("changelog", d.changelog),
        master_configs=lists.get("master_configs", d.master_configs),
        recipe_prefixes=tables.get("recipe_prefixes", d.recipe_prefixes),
        recipe_dirs=lists.get("recipe_dirs", d.recipe_dirs),
        protected_ref=lists.get("protected_ref", d.protected_ref),
        repository=texts.get("repository", d.repository),
        placeholders=lists.get("placeholders", d.placeholders),
        duplicate_entry=texts.get("duplicate_entry", d.duplicate_entry),
        correction=texts.get("correction", d.correction),
        format=texts.get("format", d.format),
        severity=tables.get("severity", d.severity),
        lock_timeout=numbers.get("lock_timeout", d.lock_timeout),
        max_bytes=int(numbers.get("max_bytes", d.max_bytes)),
        fill_before_merge=flags.get("fill_before_merge", d.fill_before_merge),
        entry_schema=texts.get("entry_schema", d.entry_schema),
    )
    for code, level in settings.severity.items():
        if code not in LINT_CODES or level not in LEVELS:
            raise UsageError(
                f"setting 'severity' in {source}: {code} = {level!r}; the codes are "
                f"{', '.join(LINT_CODES)}, the levels {', '.join(LEVELS)}"
            )
    for name, level in (
        ("duplicate-entry", settings.duplicate_entry),
        ("correction", settings.correction),
    ):
        if level not in ("warning", "error"):
            raise UsageError(f"setting '{name}' in {source} must be 'warning' or 'error'")
    if settings.format not in ("warning", "error"):
        raise UsageError(f"setting 'format' in {source} must be 'warning' or 'error'")
    if not settings.placeholders or not all(p.strip() for p in settings.placeholders):
        raise UsageError(
            f"setting 'placeholders' in {source} needs at least one placeholder, none empty"
        )
    for placeholder in settings.placeholders:
        why = placeholder_problem(placeholder)
        if why is not None:
            raise UsageError(
                f"setting 'placeholders' in {source}: no entry could use {placeholder!r}: {why}"
            )
    if settings.protected_ref == ():
        raise UsageError(f"setting 'protected-ref' in {source} needs at least one ref")
    repository = settings.repository
    if repository is not None and not is_slug(repository):
        raise UsageError(
            f"setting 'repository' in {source}: {repository!r} is not owner/name "
            '(e.g. "SemiAnalysisAI/InferenceX")'
        )
    for ref in settings.protected_ref:
        if not ref or ref.startswith("-") or any(c.isspace() or ord(c) < 32 for c in ref):
            raise UsageError(f"setting 'protected-ref' in {source}: {ref!r} is not a ref name")
    return settings


def outside(path: str) -> str | None:
    """Why a configured path (or glob) would lead outside the repository, or ``None``."""
    if not path.strip():
        return "it is empty"
    if "\0" in path:
        return "it holds a NUL byte"
    posix = PurePosixPath(path.replace("\\", "/"))
    if posix.is_absolute() or _DRIVE.match(path):
        return "it is absolute"
    if ".." in posix.parts:
        return "it climbs out with '..'"
    return None


def _check_paths(name: str, value: str | list[str] | dict[str, str], source: str | None) -> None:
    if isinstance(value, dict):
        paths = list(value.values())
    else:
        paths = [value] if isinstance(value, str) else list(value)
    for path in paths:
        why = outside(path)
        if why is not None:
            raise UsageError(
                f"setting {name!r} in {source}: {path!r} leads outside the repository "
                f"({why}); configured paths are relative to the settings' folder and stay "
                "inside the repository"
            )
