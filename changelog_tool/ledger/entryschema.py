"""The one definition of an entry: the JSON Schema in ``schema/``, combined (``allOf``) with the
repository's file (the ``entry-schema`` setting). A command puts it in use once (:func:`use`);
until then the built-in schema is in use; its references resolve through
:mod:`~changelog_tool.ledger.schemarefs`. See docs/design.md, "Parse only what the job needs"."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, cached_property
from pathlib import Path

import jsonschema
from jsonschema.protocols import Validator
from referencing import Registry
from referencing._core import Resolver
from referencing.jsonschema import Schema

from changelog_tool.confinement import confined
from changelog_tool.errors import UsageError
from changelog_tool.ledger.schemarefs import REPOSITORY_URI, check, followed, registry, seen_through
from changelog_tool.settings import MAX_SETTINGS_BYTES, Reader, Settings, schema_document
from changelog_tool.yaml.limits import MAX_DEPTH, deeper_than

SETTING = "entry-schema"
"""The setting that names the repository's schema file."""
SCENARIO = "scenario-type"
FLAG, INTEGER, TEXT, LIST = "flag", "integer", "text", "list"
_KINDS = {"boolean": FLAG, "integer": INTEGER, "string": TEXT, "array": LIST}


@dataclass(frozen=True)
class Field:
    """One field an entry may hold: name, kind (:data:`FLAG`, :data:`INTEGER`, :data:`TEXT` or
    :data:`LIST`), description, an integer's bounds."""

    name: str
    kind: str
    description: str = ""
    minimum: int | None = None
    maximum: int | None = None

    @property
    def option(self) -> str:
        """``add``'s option for it (``--evals-only``)."""
        return f"--{self.name}"


@dataclass(frozen=True)
class EntrySchema:
    """The entry schema in use: fields in emitter order, scenario types, ``source`` (``None``:
    built-in only), and its validator, built once."""

    fields: tuple[Field, ...]
    scenario_types: tuple[str, ...]
    source: str | None
    document: dict[str, object] = field(compare=False, repr=False)
    registry: Registry[Schema] = field(compare=False, repr=False)

    @cached_property
    def validator(self) -> Validator:
        """The validator of :attr:`document`, built once, on first use."""
        return _strict()(self.document, registry=self.registry)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def of_kind(self, kind: str) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.kind == kind)

    def kind(self, name: str) -> str | None:
        return next((f.kind for f in self.fields if f.name == name), None)

    def where_to_declare(self, what: str = "a field") -> str:
        """How ``what`` (a field, a scenario type) is added, for messages."""
        if self.source is None:
            return (
                f"to add {what}, name a schema file in the `{SETTING}` setting and declare "
                "it there (docs/usage.md, 'Adding a field')"
            )
        return f"to add {what}, declare it in {self.source} (the `{SETTING}` setting)"


def _is_integer(_checker: object, value: object) -> bool:
    """JSON Schema's ``integer`` as an entry means it: an ``int``, never a bool or a float."""
    return isinstance(value, int) and not isinstance(value, bool)


@cache
def _strict() -> type[Validator]:
    """Draft 2020-12 with :func:`_is_integer`."""
    base = jsonschema.Draft202012Validator
    checker = base.TYPE_CHECKER.redefine("integer", _is_integer)
    strict: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
        base, type_checker=checker
    )
    return strict


def builtin_definition(name: str) -> dict[str, object]:
    """The built-in schema's ``$defs`` entry ``name`` (``config-key``)."""
    here = "the built-in schema"
    return _object(_object(schema_document()["$defs"], here)[name], here)


def _object(value: object, where: str) -> dict[str, object]:
    """``value`` as a JSON object, or a refusal naming ``where`` it should be one."""
    if not isinstance(value, dict):
        raise UsageError(f"{where} must be a JSON object")
    return value


def _field(name: str, node: object, resolver: Resolver[Schema], where: str) -> Field:
    spec = seen_through(node, resolver)
    kind = _KINDS.get(str(spec.get("type"))) if spec else None
    items = seen_through(spec.get("items", {}), resolver)
    if kind is None or (
        kind == LIST and not (isinstance(items, dict) and items.get("type") in (None, "string"))
    ):
        raise UsageError(
            f'{where}: field {name!r} needs a type the changelog can hold: "boolean", '
            '"integer", "string", or "array" of strings'
        )
    minimum, maximum = (
        v if isinstance(v, int) and not isinstance(v, bool) else None
        for v in (spec.get("minimum"), spec.get("maximum"))
    )
    return Field(name, kind, str(spec.get("description", "")), minimum, maximum)


def _scenario_enum(entry: dict[str, object], resolver: Resolver[Schema], where: str) -> list[str]:
    """The scenario types a one-entry schema lists, taken out of it (combined apart)."""
    properties = entry.get("properties")
    node = seen_through(properties.get(SCENARIO), resolver) if isinstance(properties, dict) else {}
    items = node.get("items")
    chain = followed(items, resolver) if isinstance(items, dict) else iter(())
    holder = next((n for n in chain if "enum" in n), None)
    kinds = holder.pop("enum") if holder is not None else []
    if not isinstance(kinds, list) or not all(isinstance(k, str) for k in kinds):
        raise UsageError(f"{where}: the scenario types (scenario-type items enum) are strings")
    return [str(k) for k in kinds]


def combine(extension: dict[str, object] | None, source: str | None = None) -> EntrySchema:
    """The built-in schema with the repository's ``extension``, both applying (``allOf``); a
    field either declares is allowed; built-in scenario types first."""
    here = "the built-in schema"
    document = copy.deepcopy(schema_document())  # the copy the registry holds
    uri = str(document["$id"])
    builtin = _object(_object(document["$defs"], here)["entry"], here)
    del builtin["additionalProperties"]  # decided below, over both schemas' fields
    where = source or "the entry schema"
    extra = None if extension is None else _checked(extension, where)
    held = registry(document, uri, extra)
    found = held.resolver(uri)
    kinds = _scenario_enum(builtin, found, here)
    fields = {
        n: _field(n, node, found, here) for n, node in _object(builtin["properties"], here).items()
    }
    parts: list[object] = [{"$ref": f"{uri}#/$defs/entry"}]
    if extra is not None:
        check(held, _named(where))
        found = held.resolver(REPOSITORY_URI)
        for name, node in _object(extra.get("properties", {}), where).items():
            if name in fields:
                declared = node.get("type") if isinstance(node, dict) else None
                if declared is not None and _KINDS.get(declared) != fields[name].kind:
                    raise UsageError(
                        f"{where}: {name!r} is a built-in field of another type; a repository "
                        "schema may tighten a built-in field, not change its type"
                    )
            else:
                fields[name] = _field(name, node, found, where)
        kinds += [k for k in _scenario_enum(extra, found, where) if k not in kinds]
        parts.append({"$ref": REPOSITORY_URI})
    scenario = {"type": "array", "items": {"enum": kinds}}
    combined: dict[str, object] = {
        "allOf": parts,
        "properties": {name: scenario if name == SCENARIO else True for name in fields},
        "additionalProperties": False,
    }
    return EntrySchema(tuple(fields.values()), tuple(kinds), source, combined, held)


def _checked(extension: object, where: str) -> dict[str, object]:
    """The repository's schema, as a valid 2020-12 schema of one entry (a copy)."""
    if not isinstance(extension, dict):
        raise UsageError(f"{where}: a schema of one entry is a JSON object")
    if deeper_than(extension, MAX_DEPTH):
        raise UsageError(_too_deep(where))
    try:
        jsonschema.Draft202012Validator.check_schema(extension)
    except jsonschema.SchemaError as exc:
        raise UsageError(f"{where}: not a valid JSON Schema: {exc.message}") from None
    if extension.get("type", "object") != "object":
        raise UsageError(f'{where}: an entry is an object; "type" must be "object"')
    if (
        extension.get("additionalProperties", False) is not False
        or "unevaluatedProperties" in extension
    ):
        raise UsageError(
            f"{where}: fields that neither schema declares are always refused; declare "
            'each new field under "properties" (drop additionalProperties)'
        )
    _object(extension.get("$defs", {}), f"{where}: $defs")
    extra = copy.deepcopy(extension)
    for keyword in ("additionalProperties", "$schema", "$id"):  # said by the combination
        extra.pop(keyword, None)
    if not isinstance(extra.get("properties", {}), dict):
        raise UsageError(f'{where}: "properties" must be an object')
    return extra


@cache
def builtin() -> EntrySchema:
    return combine(None)


def parse(data: bytes, source: str) -> EntrySchema:
    """The entry schema of a repository whose schema file (``source``) holds ``data``."""
    try:
        document = json.loads(data.decode("utf-8"))
    except RecursionError:  # the decoder recurses per level
        raise UsageError(_too_deep(source)) from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{source}: not a JSON file: {exc}") from None
    return combine(document, source)


def _named(where: str) -> str:
    """The schema file, and the setting that names it."""
    return f"{where} (the `{SETTING}` setting)"


def _too_deep(where: str) -> str:
    return f"{_named(where)}: nested deeper than {MAX_DEPTH} levels"


def of_settings(settings: Settings, read: Reader | None = None, origin: str = "") -> EntrySchema:
    """The entry schema ``settings`` name, read with ``read`` or from the work tree."""
    if settings.entry_schema is None:
        return builtin()
    shown = f"{settings.entry_schema}{f' {origin}' if origin else ''}"
    if read is None:
        path = confined(settings.root, settings.entry_schema)
        data = _head(path) if path.is_file() else None
    else:
        data = read(settings.root / settings.entry_schema)
    if data is None:
        raise UsageError(
            f"setting `{SETTING}` names {shown}, which does not exist; create it, "
            "or remove the setting"
        )
    if len(data) > MAX_SETTINGS_BYTES:
        raise UsageError(f"{shown}: over the {MAX_SETTINGS_BYTES}-byte limit of a schema file")
    return parse(data, shown)


def _head(path: Path) -> bytes:
    """The file's first bytes, one past the limit (a larger file is refused unread)."""
    with path.open("rb") as handle:
        return handle.read(MAX_SETTINGS_BYTES + 1)


_IN_USE: list[EntrySchema] = []


def current() -> EntrySchema:
    """The entry schema in use (the built-in one until a command puts another in use)."""
    return _IN_USE[-1] if _IN_USE else builtin()


def use(definition: EntrySchema) -> None:
    """Put ``definition`` in use for the rest of this command."""
    _IN_USE[:] = [definition]


def use_settings(settings: Settings) -> EntrySchema:
    """Put in use the entry schema the work tree's ``settings`` name, and return it."""
    definition = of_settings(settings)
    use(definition)
    return definition


@contextmanager
def using(definition: EntrySchema) -> Iterator[EntrySchema]:
    """``definition`` in use inside the block, the previous one after it."""
    saved = list(_IN_USE)
    use(definition)
    try:
        yield definition
    finally:
        _IN_USE[:] = saved
