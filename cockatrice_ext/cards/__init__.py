"""Card data: one model, many sources, name resolution, the embedded default."""
