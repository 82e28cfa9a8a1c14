"""perf-changelog: keep a benchmark repository's perf-changelog.yaml honest."""

from __future__ import annotations

__version__ = "0.1.0"
