"""Entries in the layout the emitter writes, read without the YAML parser.

Nearly every entry of a long changelog looks like this::

    - config-keys:
        - dsr1-fp4-b200-sglang
      description:
        - "Bump the image"
      pr-link: https://github.com/owner/repo/pull/1

:func:`quick_item` reads a block only when each of its lines has one of three
shapes whose YAML meaning is plain: the first line ``- config-keys:``; a known
field at indent 2, alone or followed by one space and a scalar; a list item at
indent 4. A scalar is on one line, without trailing spaces: double-quoted without
escapes, single-quoted, or plain and made of harmless characters; every character
is one YAML prints, and none breaks a line (no tab, CR, NEL, U+2028/9, BOM). It
returns the :class:`Item` the strict loader builds for that block, or ``None`` for
anything else (comments, flow lists, escapes, other indentation, a repeated field,
no final newline), which the caller then parses with the strict loader; values
come from the same scalar resolution (:func:`resolve_plain`). The tests hold the
two readers to the same result on generated blocks and on real history.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Any

from changelog_tool.ledger.boundaries import ENTRY_HEAD
from changelog_tool.ledger.document import Ledger
from changelog_tool.ledger.entryschema import builtin
from changelog_tool.yaml.items import Item, resolve_plain

HEAD = ENTRY_HEAD + b"\n"
_FIELD = "|".join(re.escape(name) for name in builtin().names)  # others: the full reader
# Every character libyaml prints, minus what needs care here: no control character,
# line break or BOM. As a class of what is allowed it would list U+00A0 to U+10FFFF in
# five ranges, which Python's regex compiler fills in one code point at a time
# (slowly: docs/performance.md); so a class for text that is not ASCII is written as what it refuses: the ASCII
# characters the class does not take, then every other character libyaml does not
# print (C1 controls, U+2028/9, surrogates, the BOM, U+FFFE/F). The tests check both
# spellings take the same code points, all 1,114,112 of them.
_NOT_PRINTED = "\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff"
_CLASSES = {  # the class's ASCII characters; the ASCII characters it refuses
    "double": (" !#-\\[\\]-~", '\\x00-\\x1f"\\\\'),  # no backslash: no escape to decode
    "single": (" -&(-~", "\\x00-\\x1f'"),
    "inside": ('!-"$-9;-~', "\\x00-\\x20#:"),  # plain: no "#", no ":" (see below)
    "first": ("A-Za-z0-9_./", "\\x00-\\x2d\\x3a-\\x40\\x5b-\\x5e\\x60\\x7b-\\x7e"),
}


def char_class(name: str, ascii: bool) -> str:
    """The class ``name`` of :data:`_CLASSES`, for ASCII text (a 256-bit table) or for
    any text (spelled by what it refuses)."""
    takes, refuses = _CLASSES[name]
    return f"[{takes}]" if ascii else f"[^{refuses}{_NOT_PRINTED}]"


@cache
def _lines(ascii: bool) -> re.Pattern[str]:
    """A line break, then one whole line up to the next (no class holds one); the
    break in front lets the regex engine skip to the next line in one C loop.
    Compiled on first use (``verify --base`` and the merge driver seldom need it); on
    ASCII text the classes become 256-bit tables."""
    # the quotes are captured too: a group that did not take part is the only empty one
    double = f'("{char_class("double", ascii)}*")'
    single = f"('(?:{char_class('single', ascii)}|'')*')"
    # plain: no indicator first; no "#" and no ": " inside; no trailing space
    # (possessive: a run of safe characters is never split again when a later one fails)
    inside = char_class("inside", ascii)
    plain = f"({char_class('first', ascii)}(?:{inside}++|:(?={inside})| (?={inside}))*+)"
    return re.compile(f"\n(?:    -|  ({_FIELD}):)(?: (?:{double}|{single}|{plain}))?(?=\n)")


def quick_item(block: bytes, line: int, *, lines: bool = True) -> Item | None:
    """The entry in ``block`` (one entry's lines, starting on ``line``) when it is in
    the plain layout described above, else ``None``. Without ``lines`` the item's
    ``key_lines`` stay empty (they only place findings; reading is then faster)."""
    if not block.startswith(HEAD):
        return None
    try:
        text = block.decode("utf-8")
    except UnicodeDecodeError:
        return None
    found = _lines(text.isascii()).findall(text, len(HEAD) - 1)
    if len(found) != text.count("\n", len(HEAD)) or not text.endswith("\n"):
        return None  # a line of another shape
    value: dict[str, Any] = {"config-keys": None}
    key_lines = {"config-keys": line} if lines else {}
    key: str | None = "config-keys"  # the field whose list items may follow
    items: list[Any] | None = None
    number = line
    for field, double, single, plain in found:
        number += 1
        if double:
            scalar: Any = double[1:-1]
        elif plain:
            scalar = resolve_plain(plain)
        elif single:
            scalar = single[1:-1].replace("''", "'")
        elif field:  # a field whose list follows (or that is empty)
            if field in value:
                return None
            if lines:
                key_lines[field] = number
            value[field], key, items = None, field, None
            continue
        else:
            return None  # an empty item
        if not field:
            if key is None:
                return None  # an item after a field that has a scalar
            if items is None:
                items = value[key] = []
            if lines:
                key_lines[f"{key}/{len(items)}"] = number
            items.append(scalar)
        elif field in value:
            return None
        else:
            if lines:
                key_lines[field] = number
            value[field], key = scalar, None
    return Item(value, line, key_lines)


def quick_items(data: bytes) -> list[Item] | None:
    """The entries of a whole document that is nothing but entries in the plain layout
    above, each after blank lines only, else ``None``: every block starts with ``-``
    at column 0 and reads alone as its item, and what lies between blocks is blank,
    so YAML reads the document as the block list of exactly these items."""
    ledger = Ledger(data)
    if ledger.preamble_end != 0:
        return None
    items = []
    for block in ledger.blocks:
        item = quick_item(data[block.start : block.end], block.line, lines=False)
        if item is None:
            return None
        items.append(item)
    return items or None
