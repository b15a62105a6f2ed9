"""The league formats (Market Draft, AutoBattler): their names, and the options a league is started with
(:class:`LeagueOptions`, journaled with the league)."""

from __future__ import annotations

from dataclasses import dataclass

from cockatrice_ext.formats import FORMAT_TITLES
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import market as mk

FORMATS = ("market", "autobattler")
TITLES = {name: FORMAT_TITLES[name] for name in FORMATS}
DEFAULT_BLOCKS = {"market": "market-pool", "autobattler": "autobattler-cube"}


@dataclass(frozen=True)
class LeagueOptions:
    """League options chosen at ``start`` (journaled with the league)."""

    format: str = "market"
    block: str = ""
    rounds: int = 3  # Market Draft only
    seed: int | None = None  # fixed shuffles for reproducible leagues; None = a fresh random seed
    game_password: str = ""
    # The game options (formats/options.py) set these: each is the engine config field of the same name,
    # with the engine's default.
    uncommon_cost: int = mk.MarketConfig.uncommon_cost
    rare_cost: int = mk.MarketConfig.rare_cost
    mythic_cost: int = mk.MarketConfig.mythic_cost
    common_worth: int = mk.MarketConfig.common_worth
    uncommon_worth: int = mk.MarketConfig.uncommon_worth
    rare_worth: int = mk.MarketConfig.rare_worth
    mythic_worth: int = mk.MarketConfig.mythic_worth
    color_balanced: bool = mk.MarketConfig.color_balanced
    bye_result: str = mk.MarketConfig.bye_result
    old_rare_limit: int = mk.MarketConfig.old_rare_limit
    flat_poison: int = ab.AutoBattlerConfig.flat_poison
    interest_threshold: int = ab.AutoBattlerConfig.interest_threshold
    streak_length: int = ab.AutoBattlerConfig.streak_length
    carousel: bool = ab.AutoBattlerConfig.carousel
    carousel_put_back: bool = ab.AutoBattlerConfig.carousel_put_back
    permanent_basic_cost: int = ab.AutoBattlerConfig.permanent_basic_cost
    basics_change_fee: int = ab.AutoBattlerConfig.basics_change_fee
    augment_packs: bool = ab.AutoBattlerConfig.augment_packs
    item_drafting: bool = ab.AutoBattlerConfig.item_drafting
    reseat_on_energy: bool = ab.AutoBattlerConfig.reseat_on_energy
    pick_timeout: int = 0  # the option timer: seconds per draft decision before the referee moves; 0 = none

    @property
    def block_name(self) -> str:
        return self.block or DEFAULT_BLOCKS[self.format]
