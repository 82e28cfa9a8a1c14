"""Master-config key names no entry can name (pure): a character the schema's config-key pattern
refuses (an invisible or look-alike one), as the schema in ``schema/`` defines it."""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from changelog_tool.ledger.entryschema import builtin_definition

_SHOWN = 3
_UNNAMED = {
    "Cc": "a control character",
    "Cf": "a format character",
    "Co": "a private-use character",
}


@cache
def _pattern() -> re.Pattern[str]:
    return re.compile(str(builtin_definition("config-key")["pattern"]))


def _refused(char: str, first: bool) -> bool:
    """Does the schema refuse ``char`` first in a key (``first``) or after an accepted character?"""
    return _pattern().fullmatch(char if first else "a" + char) is None


def describe(char: str) -> str:
    """``'x' U+0078 LATIN SMALL LETTER X``; an invisible character is only named."""
    code = f"U+{ord(char):04X}"
    category = unicodedata.category(char)
    name = unicodedata.name(char, "") or _UNNAMED.get(category, "an unassigned character")
    if category.startswith("Z") or char.isspace():
        return f"{code} {name} (looks like a space)"
    if char.isprintable():
        return f"{char!r} {code} {name}"
    return f"{code} {name} (invisible)"


def key_name_problem(key: str) -> str | None:
    """Why no entry can name ``key`` (its refused characters and 1-based positions), or ``None``."""
    if _pattern().fullmatch(key) is not None:
        return None
    if not key:
        return "an empty key name cannot be named in a changelog entry; name the key"
    found: dict[str, int] = {}
    for index, char in enumerate(key):
        if char not in found and _refused(char, index == 0):
            found[char] = index + 1
    if not found:
        return f"key {key!r} does not match the schema's config-key pattern; rename the key"
    parts = [f"{describe(c)} at position {p}" for c, p in list(found.items())[:_SHOWN]]
    if len(found) > _SHOWN:
        parts.append(f"{len(found) - _SHOWN} more")
    return (
        f"key {key!r} contains {', '.join(parts)}, which no changelog entry can name "
        "(config-keys accept ASCII letters, digits and . _ + - *, not beginning with + or -); "
        "rename the key"
    )
