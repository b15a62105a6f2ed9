"""``!augment N`` reads its number off the augment pack listed to the player, as ``!pick N`` reads a pack:
while that list (or any private line to them) is still on its way, a number may point into a list they have
not seen, so it is refused with why, as every other pick by number is; a name goes through."""

from __future__ import annotations

from tests.formats import test_autobattler_augments as aug


def test_an_augment_by_number_waits_for_the_list_on_its_way() -> None:
    from cockatrice_ext.bot.league_options import LeagueOptions
    from cockatrice_ext.bot.league_referee import LeagueReferee
    from cockatrice_ext.bot.referee import NUMBERS_UNREAD, Context
    from cockatrice_ext.journal import Journal, Table
    from tests.bot.test_chat_budget import run_simulated
    from tests.bot.test_league_bot import block_of
    from tests.bot.test_league_stale_views import _SlowChat, drained

    async def scenario() -> tuple[list[str], list[int], list[int], list[int]]:
        bot = _SlowChat(Journal(":memory:"))
        engine = aug.make_engine()
        engine.apply(aug.Start(None))
        aug.end_draft(engine)
        winner, loser = engine.league.current_matches()[0].players
        engine.poison[loser] = 5  # one more: past 5, an augment pack is dealt once the mini-game is over
        engine.apply(aug.ReportResult(None, winner=winner))
        aug.play_round(engine)
        pack = list(engine.augment_packs[loser])
        table = Table.create(bot.journal, "ws://test:league:0:autobattler:1", engine)
        options = LeagueOptions(format="autobattler", augment_packs=True)
        league = LeagueReferee(bot, 0, options, block_of(engine), table)  # type: ignore[arg-type]
        league.chat_players.update(engine.league.members)  # chat players: every view comes listed in chat
        bot.chat.say(("user", loser), "Your augment pack: ...")  # the listing, still waiting for the budget
        answers: list[str] = []

        async def answer(line: str) -> None:
            answers.append(str(line))

        ctx = Context(bot, "private", loser, reply_hook=answer)  # type: ignore[arg-type]
        assert await league.handle_command(ctx, "!augment 1")
        by_number = list(engine.augments[loser])
        name = engine.config.augment_cards[pack[1]].name
        assert await league.handle_command(ctx, f"!augment {name}")
        by_name = list(engine.augments[loser])
        await drained(bot, league)
        return answers, pack, by_number, by_name

    answers, pack, by_number, by_name = run_simulated(scenario)
    assert by_number == [] and by_name == [pack[1]], (by_number, by_name, answers)
    assert any(NUMBERS_UNREAD in line for line in answers), answers
