"""The registry the entry schema's references resolve through, holding only the built-in schema
and the repository's file, and the limits those references are held to (:func:`check`)."""

from __future__ import annotations

from collections.abc import Iterator

from referencing import Registry, Resource
from referencing._core import Resolver
from referencing.exceptions import NoSuchAnchor, NoSuchResource, PointerToNowhere, Unresolvable
from referencing.jsonschema import DRAFT202012, Schema
from referencing.typing import URI

from changelog_tool.errors import UsageError
from changelog_tool.yaml.limits import MAX_DEPTH

REPOSITORY_URI = "https://perf-changelog.invalid/repository/entry-schema.json"
"""Where the registry holds the repository's file (its own ``$id`` is not used)."""
KEYWORDS = ("$ref", "$dynamicRef", "$recursiveRef")
"""The keywords that name another schema."""
MAX_SUBSCHEMAS = 500
"""Subschemas of the repository's file, its references followed (as checked)."""
_DEFINITIONS = ("$defs", "definitions")


def _nothing_else(uri: URI) -> Resource[Schema]:
    """The registry's retrieval: every URI it does not hold is refused, unread."""
    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]  # an attrs class


def registry(
    builtin: dict[str, object], builtin_uri: str, extension: dict[str, object] | None
) -> Registry[Schema]:
    """The built-in schema at ``builtin_uri`` and the repository's ``extension``, nothing else."""
    held = [(builtin_uri, DRAFT202012.create_resource(builtin))]
    if extension is not None:
        held.append((REPOSITORY_URI, DRAFT202012.create_resource(extension)))
    refusing: Registry[Schema] = Registry(retrieve=_nothing_else)  # type: ignore[call-arg]
    return refusing.with_resources(held)


def _subschemas(node: object, definitions: bool) -> Iterator[object]:
    if isinstance(node, dict) and not definitions:
        node = {k: v for k, v in node.items() if k not in _DEFINITIONS}
    yield from DRAFT202012.subresources_of(node)


def every_subschema(document: object) -> Iterator[object]:
    """The document and each schema inside it, ``$defs`` included (no recursion)."""
    pending: list[object] = [document]
    while pending:
        node = pending.pop()
        yield node
        pending.extend(_subschemas(node, definitions=True))


def lookup(
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


class _Walk:
    """Every subschema once, with its size and depth its references followed."""

    def __init__(self, where: str) -> None:
        self.where = where
        self.known: dict[int, tuple[int, int]] = {}
        self.open: set[int] = set()

    def measure(self, node: object, resolver: Resolver[Schema], level: int) -> tuple[int, int]:
        """(subschemas, depth) of ``node``, reached ``level`` schemas deep."""
        key = id(node)
        if key in self.open:
            raise UsageError(f"{self.where}: its references lead back to themselves in a loop")
        size, depth = self.known.get(key) or self._measure(node, resolver, level, key)
        if level + depth > MAX_DEPTH:
            raise UsageError(
                f"{self.where}: its schemas, references followed, nest deeper than {MAX_DEPTH} "
                "levels"
            )
        return size, depth

    def _measure(
        self, node: object, resolver: Resolver[Schema], level: int, key: int
    ) -> tuple[int, int]:
        if level > MAX_DEPTH:  # before the walk's own recursion could run out
            return 0, MAX_DEPTH + 1
        self.open.add(key)
        parts = [(sub, resolver) for sub in _subschemas(node, definitions=False)]
        for keyword in KEYWORDS:
            ref = node.get(keyword) if isinstance(node, dict) else None
            if isinstance(ref, str):
                parts.append(lookup(resolver, keyword, ref, self.where))
        size, depth = 1, 0
        for sub, its_resolver in parts:
            more, deeper = self.measure(sub, its_resolver, level + 1)
            size, depth = size + more, max(depth, deeper)
            if size > MAX_SUBSCHEMAS:
                raise UsageError(
                    f"{self.where}: its references, followed, make more than {MAX_SUBSCHEMAS} "
                    "subschemas, and an entry may be checked against each; refer to a rule from "
                    "fewer places"
                )
        self.open.discard(key)
        self.known[key] = size, depth + 1
        return size, depth + 1


def check(held: Registry[Schema], where: str) -> None:
    """Refuse (naming ``where``) references of the repository's file outside the registry, and a
    schema that loops or grows past the limits."""
    resolver = held.resolver(REPOSITORY_URI)
    document = held.contents(REPOSITORY_URI)
    for node in every_subschema(document):
        if node is not document and isinstance(node, dict) and "$id" in node:
            raise UsageError(
                f"{where}: a subschema declares its own $id ({node['$id']!r}); the file is one "
                "schema: move it under $defs and refer to it as #/$defs/<name>"
            )
    walk = _Walk(where)
    for node in every_subschema(document):
        walk.measure(node, resolver, 0)


def followed(node: dict[str, object], resolver: Resolver[Schema]) -> Iterator[dict[str, object]]:
    """``node``, then what its ``$ref`` names, and so on: the schemas that together define a
    field."""
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
