"""The options an Auction Magic table is created with (:class:`AuctionOptions`, journaled with the table).

Apart from the referee so that every part of it (and ``!resume``, which reads them back from the journal)
shares one definition without importing the referee itself; the room's words for them live in
:mod:`cockatrice_ext.formats.options`.
"""

from __future__ import annotations

from dataclasses import dataclass

from cockatrice_ext.formats import auction as rules


@dataclass(frozen=True)
class AuctionOptions:
    """Table options chosen when the game is created (journaled with the table)."""

    seats: int = 2
    block: str = "auction-sample"
    starting_gold: int = 10
    income: int = 3
    one_round_bidding: bool = False
    empty_block_rule: str = "active_player_loses"
    noncreature_follow_up: str = rules.AuctionConfig.noncreature_follow_up  # game option noncreature
    commander: bool = False
    auction_at: str = "draw"  # "draw" (the draw step) or "turn" (as soon as the turn begins)
    bid_timeout: float = 0.0  # seconds; 0 = no bid timer
    password: str = ""
    judge: bool = False  # ask for a judge seat even if the account has no judge rights
    seed: int | None = None  # fixed shuffle for reproducible games; None = a fresh random seed
