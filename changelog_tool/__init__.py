"""perf-changelog: keep a benchmark repository's perf-changelog.yaml honest."""

__version__ = "0.1.0"
