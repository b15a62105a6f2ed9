"""Block lists shipped with the package (data only)."""
