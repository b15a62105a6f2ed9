"""What an Auction referee reads back from its journal besides the engine's replay: the table-meta records
it keeps for itself and the card facts it folds from the journaled effects.

The engine's state comes back by replay (:class:`~cockatrice_ext.journal.Table`); what only the physical game
needs is read here: which cards were bought for what (:func:`bought_labels`, so a rebuilt game labels them as
the first did), which hand cards were drawn and never named to the table (:func:`drawn_unseen`: a rebuilt or
restarted game deals them face down and names them to their drawer alone), which cards a draw gave
(:func:`drawn_in`) and which went back into the block after everyone saw their ids (:func:`put_back`: after a
restart in place the referee's deck cards of those names count as seen). The table-meta keys (:data:`DEALING`,
:data:`RETURNED`, :data:`DRAW_ASKED`) are records outside the engine's actions, so old journals replay as
they did.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from cockatrice_ext.bot.auction_view import bought_label
from cockatrice_ext.journal import JournalEntry

DEALING = "dealing"
"""Table meta: ``{"game", "seq", "deck", "sb"}``, journaled as a draw's cards start to move: the game, the
draw's journal entry and how many cards our deck and spares held then. Back in its seat after a stop that
cut the draw short, the referee counts how many of the drawn cards left them and deals the rest
(:meth:`AuctionReferee.finish_draw`)."""
RETURNED = "returned"
"""Table meta: ``{"game", "cards": [{"card", "name", "player", "face_down"}]}``: the cards players gave
back onto game ``game``'s referee table that still wait for ``!top`` / ``!bottom``
(:attr:`AuctionReferee.returned`), journaled as they come and go. A face-down one is nameless to a referee
back after a stop, which knew neither that it waited nor which card it was
(:meth:`AuctionReferee.journaled_returns`); a game ``!resume`` rebuilds puts them back on its referee's
table (:meth:`AuctionReferee.returns_to_deal`)."""
DRAW_ASKED = "draw_asked"
"""Table meta: ``[player, turn]`` of the active player's early ``!draw`` that was answered with how the
auction starts (journaled, so that after a restart the repeat draws instead of asking again)."""


def bought_labels(entries: Iterable[JournalEntry]) -> dict[int, str]:
    """Each card bought so far (engine card index) -> :func:`bought_label`, from a game's journaled
    effects: a game rebuilt by ``!resume`` labels its cards as the first game did."""
    labels: dict[int, str] = {}
    for entry in entries:
        for effect in entry.effects:
            if effect.get("type") != "LotSold":
                continue
            try:
                label = bought_label(int(effect["price"]), int(effect["lot_no"]))
                labels.update((int(card["index"]), label) for card in effect.get("cards", ()))
            except (KeyError, TypeError, ValueError):  # an effect of another shape: no label, nothing else
                continue
    return labels


SHOWN_EFFECTS = frozenset(
    {
        "LotOpened",
        "LotSold",
        "LotUnsold",
        "CardKept",
        "CardCast",
        "CardsRevealed",
        "RevealedUntilCreature",
        "CardsAwarded",
        "CommanderChosen",
    }
)
"""Journaled effects that name their cards to the whole table."""


def drawn_unseen(entries: Iterable[JournalEntry]) -> set[int]:
    """Engine card indices whose last journaled way into a hand was a draw (``CardsDrawn``: the name told
    to the drawer alone) with no effect naming them to the table since: a game rebuilt by ``!resume``
    deals them face down and tells their names privately, as the draw did."""
    unseen: set[int] = set()
    for entry in entries:
        for effect in entry.effects:
            kind = effect.get("type")
            if kind != "CardsDrawn" and kind not in SHOWN_EFFECTS:
                continue
            refs = [
                *effect.get("cards", ()),
                *([effect["card"]] if isinstance(effect.get("card"), dict) else []),
            ]
            try:
                indices = {int(ref["index"]) for ref in refs}
            except (KeyError, TypeError, ValueError):  # an effect of another shape: hidden stays hidden
                continue
            if kind == "CardsDrawn":
                unseen |= indices
            else:
                unseen -= indices
    return unseen


def drawn_in(entry: JournalEntry) -> list[tuple[Any, int]]:
    """(drawer, engine card index) for each card ``entry``'s draws (``CardsDrawn``) gave, in the order the
    referee deals them; an effect of another shape gives none."""
    drawn: list[tuple[Any, int]] = []
    for effect in entry.effects:
        if effect.get("type") != "CardsDrawn":
            continue
        with contextlib.suppress(KeyError, TypeError, ValueError):
            drawn += [(effect["player"], int(ref["index"])) for ref in effect.get("cards", ())]
    return drawn


PUT_BACK_EFFECTS = frozenset({"LotUnsold", "CardReturned"})
"""Journaled effects that put block cards back into the referee's deck, their ids seen with their names."""


def put_back(entries: Iterable[JournalEntry]) -> set[int]:
    """Engine card indices the journal says went back into the block at some point (an unsold lot, a card
    given back): after a restart the referee cannot tell which of its deck's cards of those names they are
    (Servatrice numbers a hidden zone's cards by position when it lists them), so it takes every card of
    those names in its deck for seen."""
    back: set[int] = set()
    for entry in entries:
        for effect in entry.effects:
            if effect.get("type") not in PUT_BACK_EFFECTS:
                continue
            refs = [
                *effect.get("cards", ()),
                *([effect["card"]] if isinstance(effect.get("card"), dict) else []),
            ]
            with contextlib.suppress(KeyError, TypeError, ValueError):
                back |= {int(ref["index"]) for ref in refs}
    return back
