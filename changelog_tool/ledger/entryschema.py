"""The entry schema in use (:func:`current`): the built-in JSON Schema combined (``allOf``) with
the repository's ``entry-schema`` file, references resolved by a registry of the two that retrieves
nothing else, within limits (:func:`check`). See docs/design.md."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache, cached_property

import jsonschema
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing._core import Resolver
from referencing.exceptions import NoSuchAnchor, NoSuchResource, PointerToNowhere, Unresolvable
from referencing.jsonschema import DRAFT202012, Schema
from referencing.typing import URI

from changelog_tool.confinement import confined
from changelog_tool.errors import UsageError
from changelog_tool.settings import MAX_SETTINGS_BYTES, Reader, Settings, schema_document
from changelog_tool.yaml.limits import MAX_DEPTH, deeper_than

SETTING = "entry-schema"  # the setting that names the repository's schema file
SCENARIO = "scenario-type"
FLAG, INTEGER, TEXT, LIST = "flag", "integer", "text", "list"
_KINDS = {"boolean": FLAG, "integer": INTEGER, "string": TEXT, "array": LIST}
REPOSITORY_URI = "https://perf-changelog.invalid/repository/entry-schema.json"
"""Where the registry holds the repository's file (its own ``$id`` is not used)."""
KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")  # the keywords that name another schema
MAX_SUBSCHEMAS = 500
"""Subschemas of the repository's file, its references followed (as checked)."""


@dataclass(frozen=True)
class Field:
    """One field an entry may hold, of a ``kind`` (:data:`FLAG`, :data:`INTEGER`, ...)."""

    name: str
    kind: str
    description: str = ""
    minimum: int | None = None
    maximum: int | None = None

    @property
    def option(self) -> str:
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
        """Draft 2020-12, where an entry's ``integer`` is an ``int``, never a bool or a float."""
        base = jsonschema.Draft202012Validator
        checker = base.TYPE_CHECKER.redefine(
            "integer", lambda _, value: isinstance(value, int) and not isinstance(value, bool)
        )
        strict: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
            base, type_checker=checker
        )
        return strict(self.document, registry=self.registry)

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def of_kind(self, kind: str) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.kind == kind)

    def kind(self, name: str) -> str | None:
        return next((f.kind for f in self.fields if f.name == name), None)

    def where_to_declare(self, what: str = "a field") -> str:
        if self.source is None:
            return (
                f"to add {what}, name a schema file in the `{SETTING}` setting and declare "
                "it there (docs/usage.md, 'Adding a field')"
            )
        return f"to add {what}, declare it in {self.source} (the `{SETTING}` setting)"


def builtin_definition(name: str) -> dict[str, object]:
    """The built-in schema's ``$defs`` entry ``name`` (``config-key``)."""
    here = "the built-in schema"
    return _object(_object(schema_document()["$defs"], here)[name], here)


def _object(value: object, where: str) -> dict[str, object]:
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
    resources = [(uri, DRAFT202012.create_resource(document))]
    if extra is not None:
        resources.append((REPOSITORY_URI, DRAFT202012.create_resource(extra)))
    refusing: Registry[Schema] = Registry(retrieve=_nothing_else)  # type: ignore[call-arg]
    held = refusing.with_resources(resources)
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


def _nothing_else(uri: URI) -> Resource[Schema]:  # the registry's retrieval: none
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # an attrs class


def _subschemas(node: object, definitions: bool) -> Iterator[object]:
    if isinstance(node, dict) and not definitions:
        node = {k: v for k, v in node.items() if k not in ("$defs", "definitions")}
    yield from DRAFT202012.subresources_of(node)


def every_subschema(document: object) -> Iterator[object]:
    """The document and each schema inside it, ``$defs`` included (no recursion)."""
    pending: list[object] = [document]
    while pending:
        node = pending.pop()
        yield node
        pending.extend(_subschemas(node, definitions=True))


def _lookup(
    resolver: Resolver[Schema], keyword: str, ref: str, where: str
) -> tuple[Schema, Resolver[Schema]]:
    """What ``ref`` names and where its own references are looked up; or the refusal."""
    try:
        resolved = resolver.lookup(ref)
        return resolved.contents, resolved.resolver
    except (PointerToNowhere, NoSuchAnchor):
        why = f"{keyword} {ref!r} names nothing in the file; define it under $defs"
    except Unresolvable:
        why = (
            f"{keyword} {ref!r} leads outside the file; a reference may name a schema "
            "of this file (#/$defs/<name>) or of the built-in one: no other file or "
            "address is read"
        )
    raise UsageError(f"{where}: {why}")


def check(held: Registry[Schema], where: str) -> None:
    """Refuse (naming ``where``) references of the repository's file outside the registry, and a
    schema that loops or grows past the limits: every subschema measured once, its references
    followed, as (subschemas, depth)."""
    resolver = held.resolver(REPOSITORY_URI)
    document = held.contents(REPOSITORY_URI)
    for node in every_subschema(document):
        if node is not document and isinstance(node, dict) and "$id" in node:
            raise UsageError(
                f"{where}: a subschema declares its own $id ({node['$id']!r}); the file is one "
                "schema: move it under $defs and refer to it as #/$defs/<name>"
            )
    known: dict[int, tuple[int, int]] = {}
    walking: set[int] = set()

    def measure(node: object, resolver: Resolver[Schema], level: int) -> tuple[int, int]:
        key = id(node)
        if key in walking:
            raise UsageError(f"{where}: its references lead back to themselves in a loop")
        if key not in known and level <= MAX_DEPTH:  # deeper: refused before recursion runs out
            walking.add(key)
            parts = [(sub, resolver) for sub in _subschemas(node, definitions=False)]
            for keyword in KEYWORDS:
                ref = node.get(keyword) if isinstance(node, dict) else None
                if isinstance(ref, str):
                    parts.append(_lookup(resolver, keyword, ref, where))
            size, depth = 1, 0
            for sub, its_resolver in parts:
                more, deeper = measure(sub, its_resolver, level + 1)
                size, depth = size + more, max(depth, deeper)
                if size > MAX_SUBSCHEMAS:
                    raise UsageError(
                        f"{where}: its references, followed, make more than {MAX_SUBSCHEMAS} "
                        "subschemas, and an entry may be checked against each; refer to a rule "
                        "from fewer places"
                    )
            walking.discard(key)
            known[key] = size, depth + 1
        size, depth = known.get(key, (0, MAX_DEPTH + 1))
        if level + depth > MAX_DEPTH:
            raise UsageError(
                f"{where}: its schemas, references followed, nest deeper than {MAX_DEPTH} levels"
            )
        return size, depth

    for node in every_subschema(document):
        measure(node, resolver, 0)


def followed(node: dict[str, object], resolver: Resolver[Schema]) -> Iterator[dict[str, object]]:
    """``node``, then what its ``$ref`` names, and so on: together they define a field."""
    for _ in range(MAX_DEPTH):
        yield node
        ref = node.get("$ref")
        if not isinstance(ref, str):
            return
        resolved = resolver.lookup(ref)
        if not isinstance(resolved.contents, dict):
            return
        node, resolver = resolved.contents, resolved.resolver


def seen_through(node: object, resolver: Resolver[Schema]) -> dict[str, object]:
    """A field's schema with its own keywords over those of what it refers to."""
    if not isinstance(node, dict):
        return {}
    view: dict[str, object] = {}
    for part in reversed(list(followed(node, resolver))):
        view.update(part)
    view.pop("$ref", None)
    return view


@cache
def builtin() -> EntrySchema:
    return combine(None)


def parse(data: bytes, source: str) -> EntrySchema:
    try:
        document = json.loads(data.decode("utf-8"))
    except RecursionError:  # the decoder recurses per level
        raise UsageError(_too_deep(source)) from None
    except (UnicodeDecodeError, ValueError) as exc:
        raise UsageError(f"{source}: not a JSON file: {exc}") from None
    return combine(document, source)


def _named(where: str) -> str:
    return f"{where} (the `{SETTING}` setting)"


def _too_deep(where: str) -> str:
    return f"{_named(where)}: nested deeper than {MAX_DEPTH} levels"


def of_settings(settings: Settings, read: Reader | None = None, origin: str = "") -> EntrySchema:
    """The entry schema ``settings`` name, read with ``read`` (else from the work tree)."""
    if settings.entry_schema is None:
        return builtin()
    shown = f"{settings.entry_schema}{f' {origin}' if origin else ''}"
    if read is None:
        path, data = confined(settings.root, settings.entry_schema), None
        if path.is_file():
            with path.open("rb") as handle:  # one past the limit: a larger file is refused unread
                data = handle.read(MAX_SETTINGS_BYTES + 1)
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


_IN_USE: list[EntrySchema] = []


def current() -> EntrySchema:
    return _IN_USE[-1] if _IN_USE else builtin()


def use(definition: EntrySchema) -> None:
    _IN_USE[:] = [definition]


def use_settings(settings: Settings) -> None:
    use(of_settings(settings))


@contextmanager
def using(definition: EntrySchema) -> Iterator[EntrySchema]:
    """``definition`` in use inside the block, the previous one after it."""
    saved = list(_IN_USE)
    use(definition)
    try:
        yield definition
    finally:
        _IN_USE[:] = saved
