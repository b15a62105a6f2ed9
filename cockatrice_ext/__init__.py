"""cockatrice-ext: referee bot and deck tooling for variant formats on Cockatrice."""

__version__ = "0.7.4"
