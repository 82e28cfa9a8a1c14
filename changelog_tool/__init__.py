"""perf-changelog: keep a benchmark repository's perf-changelog.yaml honest."""

from __future__ import annotations

__version__ = "0.1.0"
HOME = "perf-changelog/perf-changelog"
"""The project's GitHub repository (``owner/name``): the Action, the pre-commit hook
and ``pip install git+https://github.com/{HOME}@v{__version__}`` name it; releases
are tagged ``v<version>``."""
