"""Pure format engines: one module per format, one interface (see base.py)."""

FORMAT_TITLES = {
    "auction": "Auction Magic",
    "vortex": "Vortex",
    "combat": "Magic Combat Rules",
    "market": "Market Draft",
    "autobattler": "AutoBattler",
}
"""How players are told each format's name (chat, pages, charts), by the name the bot and journal use."""
