"""``python -m cockatrice_ext`` runs the CLI."""

from cockatrice_ext.cli import main

main()
