"""`changelog add`: the TUI in a terminal, or flags (and --json) with no prompt at all."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Unpack

from changelog_tool import settings as settings_module
from changelog_tool.authoring.drafts import Answers, Draft, missing
from changelog_tool.authoring.rows import rows_for, suggestion
from changelog_tool.authoring.session import append_entries, diff_answer
from changelog_tool.confinement import confined, confined_file
from changelog_tool.diff.keychange import ChangeSet
from changelog_tool.errors import ChangelogError, UsageError
from changelog_tool.gate.acceptance import refuse, work_tree_rules
from changelog_tool.gate.held import lazy_held_lines
from changelog_tool.gitrepo.state import unmerged, unmerged_problem
from changelog_tool.ledger import entryschema
from changelog_tool.ledger.document import regular_file
from changelog_tool.ledger.entry import Fields, normalize, scenario_types
from changelog_tool.ledger.entryschema import FLAG, INTEGER, Field
from changelog_tool.ledger.writer import Bounds
from changelog_tool.yaml.limits import MAX_DEPTH, deeper_than


def configure(parser: argparse.ArgumentParser) -> None:
    parser.set_defaults(**asdict(Draft()))  # the answer options' names: a Draft's fields
    parser.add_argument(
        "--key",
        action="append",
        dest="keys",
        metavar="KEY",
        help="config key or pattern ('*' = any run of characters); repeatable",
    )
    parser.add_argument(
        "--scenario-type",
        action="append",
        dest="scenario_types",
        metavar="TYPE",
        help=(
            f"scenario type to run: {', '.join(scenario_types())}; repeatable (none given: "
            "every scenario of each matched key runs)"
        ),
    )
    parser.add_argument(
        "--description", action="append", metavar="TEXT", help="one description bullet; repeatable"
    )
    parser.add_argument(
        "--pr-link", metavar="URL", help="pull-request link (default: the placeholder, e.g. XXX)"
    )
    parser.add_argument(
        "--json",
        action="store_true",
        dest="from_json",
        help="read one entry or a list of entries as JSON from stdin; print the result as JSON",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print the exact bytes that would be appended; write nothing",
    )
    parser.add_argument(
        "--file", type=Path, metavar="PATH", help="changelog to append to (default: from settings)"
    )
    parser.add_argument("--init", action="store_true", help="create the changelog if missing")
    parser.add_argument(
        "--no-input", action="store_true", help="never prompt; a missing answer is an error"
    )
    parser.add_argument(
        "--base",
        metavar="REF",
        help="TUI: compare against REF (default: merge-base with the protected ref)",
    )
    _field_options(parser)


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


def _field_options(parser: argparse.ArgumentParser) -> None:
    """An option per flag and integer field of the entry schema here (the built-in one when the
    settings cannot be read); one clashing with an ``add`` option is ``--json`` only."""
    try:
        schema = entryschema.of_settings(settings_module.load())
    except (ChangelogError, OSError):
        schema = entryschema.builtin()
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
                    dest="flags",
                    help=f"sets {field.name}: true{about}",
                )
            elif field.kind == INTEGER:
                group.add_argument(
                    field.option,
                    action=_Number,
                    const=field.name,
                    dest="numbers",
                    type=int,
                    metavar="N",
                    help=f"sets {field.name}: N, {_bounds(field)}{about}",
                )
        except argparse.ArgumentError:
            continue  # the option is add's own


MISSING = {  # what the flags path says of an answer drafts.missing finds lacking
    "config-keys": "a config key: pass --key KEY (repeatable; patterns allowed)",
    "description": "a description: pass --description TEXT (repeatable, one bullet each)",
}


def _entry_from_flags(
    draft: Draft, placeholder: str, changes: Callable[[], ChangeSet | str]
) -> Fields:
    """The entry the flags give; without ``--key`` (``--scenario-type``) what the TUI would
    preselect (suggest); missing answers named in one message."""
    suggesting = not draft.keys
    if suggesting:
        changed = changes()
        suggested = suggestion([] if isinstance(changed, str) else rows_for(changed), placeholder)
        draft.keys = suggested.keys
        draft.scenario_types = draft.scenario_types or suggested.scenario_types
    entry = draft.to_entry(placeholder, typed=False)
    if lacking := missing(entry):
        said = "; and ".join(MISSING[name] for name in lacking)
        raise UsageError(f"missing {said}; nothing was written")
    if suggesting:
        types = draft.scenario_types
        print(
            "changelog: no --key given: the keys this branch changed that need an entry "
            f"(what the add screen preselects): {', '.join(draft.keys)}"
            + (f"; scenario types: {', '.join(types)}" if types else ""),
            file=sys.stderr,
        )
    return entry


def _unique_pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """A JSON object, refused when it names a field twice (as the YAML loader does)."""
    found: dict[str, object] = {}
    for name, value in pairs:
        if name in found:
            raise ChangelogError(f"--json: the field {name!r} is given twice in one object")
        found[name] = value
    return found


def _entries_from_json(given: Draft, placeholder: str) -> list[Fields]:
    """The entries of ``add --json``'s stdin, normalized, nesting bounded; refused with a
    message."""
    if given != Draft():  # an answer flag was given
        raise UsageError("--json reads the entry from stdin; do not combine it with answer flags")
    try:
        text = sys.stdin.buffer.read().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ChangelogError(f"stdin is not UTF-8 (byte {exc.start}); send UTF-8 JSON") from None
    too_deep = f"--json: stdin is nested deeper than {MAX_DEPTH} levels; a list of entries needs 3"
    try:
        document = json.loads(text, object_pairs_hook=_unique_pairs)
    except RecursionError:  # the decoder recurses per level: refused before any walk
        raise ChangelogError(too_deep) from None
    except json.JSONDecodeError as exc:
        raise ChangelogError(f"stdin is not JSON: {exc}") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise ChangelogError(f"stdin cannot be read as JSON: {str(exc).split(';')[0]}") from None
    if deeper_than(document, MAX_DEPTH):
        raise ChangelogError(too_deep)
    entries = document if isinstance(document, list) else [document]
    if not entries or not all(isinstance(e, dict) for e in entries):
        raise ChangelogError("--json expects an entry object or a non-empty list of entry objects")
    for entry in entries:
        if entry.get("pr-link") is None:
            entry["pr-link"] = placeholder
    return [normalize(entry) for entry in entries]


def run(
    *,
    from_json: bool,
    dry_run: bool,
    file: Path | None,
    init: bool,
    no_input: bool,
    base: str | None,
    **answers: Unpack[Answers],
) -> int:
    settings = settings_module.load()
    entryschema.use_settings(settings)
    # the settings' file, or --file, never where a link leads out of the checkout or
    # into its git directory (one rule for both: a branch can commit such a link)
    path = confined_file(file) if file is not None else confined(settings.root, settings.changelog)
    tail = _tail(path)  # a FIFO or device is refused before anything waits
    operation = unmerged(path)  # an append to a conflicted file is lost to `resolve`
    if operation is not None:
        raise ChangelogError(
            f"{unmerged_problem(path.name, operation)} first, then add the entry (nothing "
            "was written)"
        )
    given = Draft(**answers)
    changes = functools.cache(lambda: diff_answer(settings, None))  # the branch's, once
    interactive = (
        not no_input
        and not from_json
        and sys.stdin.isatty()
        and sys.stdout.isatty()
        and not (given.keys and given.description)
    )
    if interactive:
        from changelog_tool.tui import run_add  # Textual, for the TUI only

        return run_add(settings=settings, path=path, base=base, prefill=given, init=init)
    if base is not None:
        raise UsageError(
            "--base sets the TUI's diff base, and this add runs without the TUI "
            "(flags, --json or no terminal): it compares nothing; drop --base"
        )
    placeholder = settings.placeholder_link()
    if from_json:
        entries = _entries_from_json(given, placeholder)
    else:
        entries = [_entry_from_flags(given, placeholder, changes)]
    rules = work_tree_rules(settings, tail, changed=lambda: _changed_keys(changes()))
    for warning in refuse(entries, rules):
        print(f"changelog: warning: {warning}", file=sys.stderr)
    return append_entries(
        entries,
        path=path,
        dry_run=dry_run,
        init=init,
        as_json=from_json,
        bounds=Bounds.of(settings),
        held=lazy_held_lines(path, settings.protected_ref),
    )


def _changed_keys(changes: ChangeSet | str) -> list[str] | None:
    """The changed keys needing an entry, as the TUI lists them; ``None`` without a base."""
    return None if isinstance(changes, str) else [c.key for c in changes.needing_entry()]


def _tail(path: Path, size: int = 1 << 16) -> bytes | None:
    """The last ``size`` bytes of the changelog, if it exists; a FIFO or device is refused."""
    real = regular_file(path, missing_ok=True)
    if real is None:
        return None
    try:
        with real.open("rb") as handle:
            handle.seek(max(0, handle.seek(0, 2) - size))
            return handle.read()
    except OSError:
        return None
