"""Settings from ``[tool.perf-changelog]`` in pyproject.toml or ``.perf-changelog.toml``; the
defaults fit InferenceX. One parser for the work tree and for a commit's bytes (see
docs/security.md); unknown settings and paths outside the repository are refused."""

from __future__ import annotations

import json
import re
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path, PurePosixPath

import jsonschema

from changelog_tool.confinement import confined_file, work_tree_top
from changelog_tool.errors import UsageError
from changelog_tool.github import is_slug, pull_link

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


_PLACEHOLDER_LINK = re.compile(pull_link("[^/]+"))
"""A pull-request link of any last part: a placeholder when that part is one."""


def is_placeholder(link: object, placeholders: Sequence[str]) -> bool:
    """The one placeholder rule: ``XXX`` or ``https://github.com/<owner>/<repo>/pull/XXX``."""
    if not isinstance(link, str):
        return False
    shaped = _PLACEHOLDER_LINK.fullmatch(link)
    return (shaped.group(2) if shaped is not None else link) in placeholders


@dataclass(frozen=True)
class Settings:
    """Each setting as docs/usage.md ("Settings") describes it, ``_`` for its ``-``."""

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
    format: str = "warning"
    severity: dict[str, str] = field(default_factory=dict)
    lock_timeout: float = 30.0
    max_bytes: int = DEFAULT_MAX_BYTES
    fill_before_merge: bool = False
    entry_schema: str | None = None
    source: str | None = None

    @property
    def changelog_path(self) -> Path:
        return self.root / self.changelog

    def placeholder_link(self) -> str:
        return self.placeholders[0]


@cache
def schema_document(name: str = "perf-changelog.schema.json") -> dict[str, object]:
    text = resources.files("changelog_tool.schema").joinpath(name).read_text(encoding="utf-8")
    loaded: dict[str, object] = json.loads(text)
    return loaded


_SCHEMA = schema_document("settings.schema.json")


KNOWN: dict[str, dict[str, object]] = _SCHEMA["properties"]  # type: ignore[assignment]
"""Each setting's schema, by name; its field is the name with ``_`` for ``-``."""
LINT_CODES = tuple(map(str, KNOWN["severity"]["propertyNames"]["enum"]))  # type: ignore[index]
LEVELS = tuple(map(str, KNOWN["severity"]["additionalProperties"]["enum"]))  # type: ignore[index]
_VALIDATOR = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
    ),  # TOML's 5.0 is no whole number of bytes
)(_SCHEMA)
_PATHS = ("changelog", "master-configs", "recipe-dirs", "recipe-prefixes", "entry-schema")
_DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class Found:
    """Where the settings are: the root, the file holding them (``None``: defaults)."""

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
    tool = document.get("tool")
    return tool.get("perf-changelog") if isinstance(tool, dict) else None


def holds_settings(where: Path, data: bytes) -> bool:
    """Does this pyproject.toml hold the settings? One that cannot be read counts as holding
    them, so :meth:`Found.table` refuses it rather than defaults applying."""
    try:
        return _tool_table(read_toml(where, data)) is not None
    except UsageError:
        return True


def read_work_tree(path: Path) -> bytes | None:
    return path.read_bytes() if path.is_file() and confined_file(path) else None


def find(start: Path, read: Reader = read_work_tree) -> Found:
    """The nearest ancestor of ``start`` up to the work tree's top with settings, else that top."""
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


def load(start: Path | None = None, *, read: Reader | None = None, origin: str = "") -> Settings:
    """``origin`` says where in messages."""
    return parse(find(start or Path.cwd(), read or read_work_tree), origin)


def parse(found: Found, origin: str = "") -> Settings:
    table = found.table()
    source = None
    if found.file is not None:
        source = str(found.root / found.file)
        if found.file == PYPROJECT:
            source += f" {TABLE}"
        if origin:
            source += f" {origin}"
    problems = sorted(_problems(table, source), key=lambda found: found[0])
    if problems:
        raise UsageError(problems[0][1])
    given: dict[str, object] = {
        name.replace("-", "_"): tuple(value) if isinstance(value, list) else value
        for name, value in table.items()
    }
    return Settings(root=found.root, source=source, **given)  # type: ignore[arg-type]


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


_LATER = ("severity", "duplicate-entry", "correction", "format", "placeholders")


def _problems(
    table: dict[str, object], source: str | None
) -> Iterator[tuple[tuple[int, int], str]]:
    """What is wrong with the settings, each with its rank (the lowest is said)."""
    order, in_ = list(table), f"in {source}"
    for error in _VALIDATOR.iter_errors(table):
        if not error.path:  # additionalProperties: the first name the schema lacks
            name = next(name for name in order if name not in KNOWN)
            known = ", ".join(sorted(KNOWN))
            yield (0, order.index(name)), f"unknown setting {name!r} {in_}; known settings: {known}"
            continue
        name = str(error.path[0])
        rank = (1, _LATER.index(name) if name in _LATER else 6)
        if error.validator == "type" or KNOWN[name].get("type") in ("number", "integer"):
            what = KNOWN[name]["description"]  # what the value must be, in words
            yield (0, order.index(name)), f"setting {name!r} {in_} must be {what}"
        elif name == "severity":
            code = str(error.path[1] if len(error.path) > 1 else error.instance)
            section = table[name]
            level = section.get(code) if isinstance(section, dict) else None
            yield (
                rank,
                f"setting 'severity' {in_}: {code} = {level!r}; the codes are "
                + (f"{', '.join(LINT_CODES)}, the levels {', '.join(LEVELS)}"),
            )
        elif name == "placeholders":
            yield rank, f"setting {name!r} {in_} needs at least one placeholder, none empty"
        elif error.validator == "minItems":  # protected-ref
            yield rank, f"setting {name!r} {in_} needs at least one ref"
        elif error.validator == "not":  # protected-ref
            yield (1, 8), f"setting {name!r} {in_}: {error.instance!r} is not a ref name"
        else:
            yield rank, f"setting {name!r} {in_} must be 'warning' or 'error'"
    pr_link = re.compile(schema_document()["$defs"]["pr-link"]["pattern"])  # type: ignore[index]
    for placeholder in _strings(table.get("placeholders")):
        # an entry holds it as its pr-link in both spellings
        for link in (placeholder, f"https://github.com/owner/repo/pull/{placeholder}"):
            if not pr_link.search(link):
                yield (
                    (1, 5),
                    f"setting 'placeholders' {in_}: no entry could use {placeholder!r}: the "
                    f"entry schema's pr-link pattern refuses {link!r}; a placeholder is "
                    "capital letters, such as XXX or TODO",
                )
                break
    repository = table.get("repository")
    if isinstance(repository, str) and not is_slug(repository):
        example = '(e.g. "SemiAnalysisAI/InferenceX")'
        yield (1, 7), f"setting 'repository' {in_}: {repository!r} is not owner/name {example}"
    for name in _PATHS:
        for path in _strings(table.get(name)):
            why = outside(path)
            if why is not None:
                yield (
                    (0, order.index(name)),
                    (
                        f"setting {name!r} {in_}: {path!r} leads outside the repository ({why}); "
                        "configured paths are relative to the settings' folder and stay inside "
                        "the repository"
                    ),
                )


def _strings(value: object) -> list[str]:
    if isinstance(value, dict):
        value = list(value.values())
    items = value if isinstance(value, list) else [value]
    return [item for item in items if isinstance(item, str)]
