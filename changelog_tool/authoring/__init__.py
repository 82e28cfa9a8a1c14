"""Writing an entry: the answers a person gives (``Draft``) and the add session the TUI drives."""
