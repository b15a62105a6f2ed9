"""Reports computed from the journal (no replay: they read the effects the engines recorded)."""
