"""perf-changelog: keep a benchmark repository's perf-changelog.yaml honest."""

DISTRIBUTION = "perf-changelog"


def __getattr__(name: str) -> str:
    """``__version__``: the installed version, read only when asked."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # a source tree that is not installed
        return "unknown (not installed)"
