"""A Servatrice released before deck lists could be shared (2.10 and older, still run by public servers):
its games show a loaded deck list to its owner only, so the referee cannot read the players' decks.

Runs only against such a server (``SERVATRICE_BIN`` pointing at a Servatrice 2.10 build, with
``COCKATRICE_PROTO_DIR`` at that version's ``common/pb``); a current one skips these and runs the tests
marked ``shared_deck_lists`` instead. League games on trust are covered by ``test_league_field.py``, which
expects "deck loaded, not checked" on such a server.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from field_bot import BOT_NAME, SHIPPED, Referee
from field_players import Protos
from scenario import arrive, close_all, run
from servatrice import ServatriceFactory, shares_deck_lists
from test_auction_field import draw_read_by_its_drawer_only

pytestmark = pytest.mark.servatrice


@pytest.fixture
def old_server_factory(servatrice_factory: ServatriceFactory) -> ServatriceFactory:
    if shares_deck_lists(servatrice_factory.binary):
        pytest.skip("this Servatrice shares deck lists: the tests marked shared_deck_lists cover it")
    return servatrice_factory


def test_combat_is_refused_with_the_reason_and_the_operator_is_warned(
    protos: Protos, old_server_factory: ServatriceFactory, referee: Callable[..., Referee]
) -> None:
    """``!combat new`` is answered with why Combat cannot be refereed on this server, and no game opens
    (before, the game opened and every loaded deck was answered "no deck list was shared; load your deck
    again": the game could never start). The operator's console says it at start."""
    server = old_server_factory.start(SHIPPED)
    bot = referee(server)

    async def scenario() -> None:
        room_id, players = await arrive(protos, server, ["olga_os"])
        (olga,) = players
        try:
            mark = olga.mark()
            await olga.room_say(room_id, "!combat new")
            answer = await olga.line(r"Magic Combat Rules cannot be refereed here", since=mark, timeout=30)
            assert "does not share deck lists" in answer and "2.11" in answer, answer
            opened = [text for _, who, text in olga.chat(mark) if who == BOT_NAME and "is open for" in text]
            assert opened == [], opened
            await olga.room_say(room_id, "!games")
            await olga.line(r"No refereed games", since=mark, timeout=30)
        finally:
            await close_all(players)

    run(scenario(), bot)
    log = bot.log_text()
    assert "runs Servatrice 2." in log and "do not share deck lists" in log, log[-2000:]
    assert "Magic Combat Rules games cannot be refereed" in log, log[-2000:]


def test_an_auction_draw_still_reaches_its_drawer_alone(
    protos: Protos, old_server_factory: ServatriceFactory, referee: Callable[..., Referee]
) -> None:
    """A draw on an older server, dealt face down from the referee's spares (its sideboard): the drawn card
    reaches its drawer, and the other player never reads its name."""
    server = old_server_factory.start(SHIPPED)
    bot = referee(server, "--auction-seed", "7")
    run(draw_read_by_its_drawer_only(protos, server, ["pia_os", "quin_os"], 2), bot)
