"""Review lints on the YAML a branch changed: ``key-style``, ``repeated-block``,
``recipe-reference``. Pure over bytes."""
