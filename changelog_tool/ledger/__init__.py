"""The changelog as bytes: document model, entries, emitter, the one writer and the file checks."""
