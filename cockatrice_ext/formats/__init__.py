"""Pure format engines: one module per format, one interface (see base.py)."""
