"""Review lints on the YAML a branch added or changed: key spelling conventions
(``key-style``), near-identical sibling blocks (``repeated-block``), and recipe
references that name no file (``recipe-reference``). Pure over bytes."""
