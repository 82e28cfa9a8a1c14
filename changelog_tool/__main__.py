"""`python -m changelog_tool`: the same as the `changelog` command."""

from __future__ import annotations

from changelog_tool.cli import main

raise SystemExit(main())
