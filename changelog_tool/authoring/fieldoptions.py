"""``add``'s options for the entry schema's fields (``--<flag>``, ``--<field> N``), made from the
current repository's schema when the parser is built."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from changelog_tool import settings as settings_module
from changelog_tool.errors import ChangelogError
from changelog_tool.ledger import entryschema
from changelog_tool.ledger.entryschema import FLAG, INTEGER, EntrySchema, Field


def schema_here() -> EntrySchema:
    """The entry schema of the repository here; the built-in one when its settings cannot be
    read."""
    try:
        return entryschema.of_settings(settings_module.load())
    except (ChangelogError, OSError):
        return entryschema.builtin()


class _Number(argparse.Action):
    """``--<field> N``: N kept under the field's name in ``number``."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[object] | None,
        option_string: str | None = None,
    ) -> None:
        given = dict(getattr(namespace, self.dest) or {})
        given[self.const] = values
        setattr(namespace, self.dest, given)


def _bounds(field: Field) -> str:
    low, high = field.minimum, field.maximum
    if low is not None and high is not None:
        return f"an integer from {low} to {high}"
    if low is not None:
        return f"an integer >= {low}"
    return "an integer" if high is None else f"an integer <= {high}"


def add_field_options(parser: argparse.ArgumentParser, schema: EntrySchema) -> None:
    """An option per flag and integer field of ``schema``; one clashing with an ``add`` option is
    ``--json`` only."""
    group = parser.add_argument_group(
        "entry fields",
        f"from the entry schema ({schema.source or 'built in'}); other fields: --json",
    )
    for field in schema.fields:
        about = f" ({field.description})" if field.description else ""
        try:
            if field.kind == FLAG:
                group.add_argument(
                    field.option,
                    action="append_const",
                    const=field.name,
                    dest="flag",
                    help=f"sets {field.name}: true{about}",
                )
            elif field.kind == INTEGER:
                group.add_argument(
                    field.option,
                    action=_Number,
                    const=field.name,
                    dest="number",
                    type=int,
                    metavar="N",
                    help=f"sets {field.name}: N, {_bounds(field)}{about}",
                )
        except argparse.ArgumentError:
            continue  # the option is add's own
