"""Reading YAML, in one place. See docs/design.md, "Module layout" (``yaml/``)."""
