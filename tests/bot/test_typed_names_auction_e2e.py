"""Card names as players type them, in a real Servatrice Auction game (the smoke test's findings): a
double-faced card is named as Cockatrice shows it (its front face) and kept by one face, names with commas
are sold whole (bare or quoted), and a refusal that suggests cards of the player's hand goes to them alone."""

from __future__ import annotations

from pathlib import Path

import pytest
from bot_players import bot_line, wait_until
from servatrice import ServatriceServer
from test_auction_e2e import close_all, run, seated_pair

pytestmark = pytest.mark.servatrice

LOT = [
    *["Delver of Secrets // Insectile Aberration"] * 3,
    *["Valki, God of Lies // Tibalt, Cosmic Impostor"] * 2,
    *["Fire // Ice"] * 3,
    "Grizzly Bears",
    "Grizzled Outrider",
]
"""The engine's names of the ten cards put up together with ``!lot 10``."""

BLOCK = """\
3 Delver of Secrets
2 Valki, God of Lies
3 Fire // Ice
1 Grizzly Bears
1 Grizzled Outrider
1 Mikaeus, the Lunarch
1 Jaya Ballard, Task Mage
"""


def test_typed_card_names_in_an_auction_game(servatrice: ServatriceServer, tmp_path: Path) -> None:
    async def scenario() -> None:
        bot, players, game_id, referee, by_id = await seated_pair(servatrice, tmp_path, BLOCK, "typed")
        try:
            engine = referee.engine
            active_id = int(engine.active)  # type: ignore[arg-type]
            active, other = by_id[active_id], next(p for pid, p in by_id.items() if pid != active_id)
            me, them = active.name, other.name
            mark = active.mark()

            # The lot's ten cards on top, Mikaeus and Jaya under them (numbers from !look).
            await active.say(game_id, "!look 12")
            await wait_until(lambda: bool(engine.looks.get(active_id)), what="the look")
            seen = list(engine.looks[active_id])
            names = [engine.ref(i).name for i in seen]
            wanted = [*LOT, "Mikaeus, the Lunarch", "Jaya Ballard, Task Mage"]
            order: list[int] = []
            for name in wanted:
                order.append(
                    next(n for n, seen_name in enumerate(names, 1) if seen_name == name and n not in order)
                )
            await active.say(game_id, "!order " + " ".join(map(str, order)))
            await bot_line(active, rf"{me} reorders the top of the block", mark)

            await active.say(game_id, "!lot 10")
            opened = await bot_line(active, r"Auction 1: ", mark)
            assert opened.count("Delver of Secrets (creature 1/1)") == 3, opened
            await active.say(game_id, "!bid 1")
            await wait_until(lambda: engine.whose_bid() == other_ids(by_id, active_id), what="bob to bid")
            await other.say(game_id, "!pass")
            sold = await bot_line(active, rf"Sold: .* to {me} for 1", mark)
            assert (
                "Sold: Delver of Secrets, Delver of Secrets, Delver of Secrets, Valki, God of Lies," in sold
            )

            # Kept or cast by one face, or by the name Cockatrice shows.
            await active.say(game_id, "!keep Delver of Secrets")
            await bot_line(active, rf"{me} keeps Delver of Secrets\.", mark)
            await bot_line(active, rf"{me}: drag Delver of Secrets from your table to your hand\.", mark)
            await active.say(game_id, "!keep Fire")
            await bot_line(active, rf"{me} keeps Fire // Ice\.", mark)
            await active.say(game_id, "!cast Valki, God of Lies")
            await bot_line(active, rf"{me} casts Valki, God of Lies\.", mark)
            await active.say(game_id, "!keep Insectile Aberration")
            await wait_until(  # the lock waits for the cast card's moves: slow on a loaded machine (CI)
                lambda: len(engine.hand[active_id]) == 2, timeout=30, what="a second card kept"
            )
            for card in ("Grizzly Bears", "Grizzled Outrider"):
                await active.say(game_id, f"!keep {card}")
                await bot_line(active, rf"{me} keeps {card}\.", mark)
            mine = active.client.games[game_id].players[active_id].zone("table").cards
            await wait_until(lambda: any(c.name == "Delver of Secrets" for c in mine), what="Delver moved")

            # Suggestions drawn from the hand reach the player alone.
            heard_by_other = other.mark()
            await active.say(game_id, "!sell Griz")
            told = await active.wait_private(lambda t: "which one" in t)
            assert told == "Refused: which one: Grizzly Bears or Grizzled Outrider?"
            await bot_line(active, rf"{me}: refused \(the reason was sent to you privately\)\.", mark)
            await active.say(game_id, "!sell Grizly Bears")
            told = await active.wait_private(lambda t: "did you mean" in t)
            assert told == "Refused: no such card here; did you mean Grizzly Bears?"

            # A name with commas, then another card after a comma.
            await active.say(game_id, "!sell Valki, God of Lies, Fire")
            await bot_line(
                active, r"Auction 2: Valki, God of Lies \(creature .*\), Fire // Ice \(instant\)", mark
            )
            await other.say(game_id, "!bid 1")
            await bot_line(
                active, rf"{me}: drag Valki, God of Lies and Fire // Ice onto {them}'s table", mark
            )

            await active.say(game_id, "!draw 2")  # before the turn's auction: asked once, then drawn
            await bot_line(active, r"say !draw again to draw anyway", mark)
            await active.say(game_id, "!draw 2")
            await active.wait_private(lambda t: t.startswith("You drew"))
            await active.say(game_id, "!sell Mikaeus, the Lunarch")
            await bot_line(active, r"Auction 3: Mikaeus, the Lunarch \(creature", mark)
            await other.say(game_id, "!bid 1")
            await bot_line(active, rf"{me}: drag Mikaeus, the Lunarch onto {them}'s table", mark)
            await active.say(game_id, '!sell "Jaya Ballard, Task Mage"')
            await bot_line(active, r"Auction 4: Jaya Ballard, Task Mage \(creature", mark)
            await other.say(game_id, "!bid 1")
            await bot_line(active, rf"{me}: drag Jaya Ballard, Task Mage onto {them}'s table", mark)

            everything = [text for _, text in active.heard] + [text for _, text in active.private]
            assert not [t for t in everything if "Insectile" in t or "Tibalt" in t]
            assert not [t for _, t in other.heard[heard_by_other:] if "Grizzled" in t or "Grizzly" in t]
        finally:
            await close_all(bot, players)

    run(scenario(), timeout=150)


def other_ids(by_id: dict[int, object], active_id: int) -> int:
    """The seat that is not ``active_id``."""
    return next(pid for pid in by_id if pid != active_id)
