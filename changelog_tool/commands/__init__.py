"""One module per verb: ``configure(parser)`` and ``run(**kwargs) -> int``."""
