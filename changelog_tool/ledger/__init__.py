"""The changelog as bytes: the document model, the strict loader, entries, the emitter, the one writer and the file checks."""
