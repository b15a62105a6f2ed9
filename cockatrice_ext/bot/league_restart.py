"""A league taken up again after a restart (:class:`LeagueRestart`, a part of
:class:`~cockatrice_ext.bot.league_referee.LeagueReferee`).

The rules:

* :meth:`LeagueRestart.restore` rebuilds an open league from its journal and takes its games back: in place
  where the account kept its seat or, with judge rights, watches the game again (a game under way is taken
  over without a word); a game that is gone is opened anew, and so are the games cut short and the pairings
  that waited for a slot, unless a forfeit is certain; the meta drops the stale records first (the server
  may give a new game a stale one's number);
* a member who left before the engine was told (a journal of an older version) is told to it now;
* :meth:`LeagueRestart.tell_members_again` gives each member a new link to their page where theirs died,
  and what the league waits for from them (the lines queued before the restart went with the old process).

Why: a restart must lose no game of the league, and no line a member needs to go on.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from cockatrice_ext.bot.blocks import LoadedBlock
from cockatrice_ext.bot.league_chat import PRIVATE_LIMIT, league_pages
from cockatrice_ext.bot.league_games import LeagueGame
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_parts import LeagueParts
from cockatrice_ext.bot.league_views import led
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.words import shorten
from cockatrice_ext.formats.base import Effect
from cockatrice_ext.journal import Table

if TYPE_CHECKING:
    from cockatrice_ext.bot.league_referee import LeagueReferee


class LeagueRestart(LeagueParts):
    """Restoring the league from its journal (a part of ``LeagueReferee``: see the module)."""

    @classmethod
    async def restore(cls, bot: Bot, key: str) -> LeagueReferee:
        """Rebuild an open league from the journal and take its games back: in place where the account kept
        its seat or, with judge rights, watches the game again; a game that is gone is opened anew."""
        meta = bot.journal.table_meta(key)
        options = LeagueOptions(**meta["options"])
        table = Table.restore(bot.journal, key)
        facts = tuple(table.engine.config.cards)
        block = LoadedBlock(
            name=str(meta.get("block", "")), facts=facts, game_names=tuple(meta["game_names"]), cod=""
        )
        page_key = meta.get("page_key")
        league = cls(bot, int(meta["room_id"]), options, block, table, page_key=str(page_key or ""))
        bot.private_referees.append(league)
        if (pages := league_pages(bot)) is not None:
            pages.changed(league)  # its pages' links, kept by the web view, open it again
        newest: dict[tuple[int, tuple[str, ...]], int] = {}
        for game_key, (round_no, *players) in meta.get("games", {}).items():
            pairing = (int(round_no), tuple(players))
            newest[pairing] = max(newest.get(pairing, -1), int(game_key))
        stale = {
            k for k, v in meta.get("games", {}).items() if newest.get((int(v[0]), tuple(v[1:]))) != int(k)
        }
        reopen: list[tuple[int, tuple[str, ...], int]] = []
        for (round_no, players), game_id in sorted(newest.items()):
            match = league.engine.league.match_of(players[0], round_no)
            if match is None or match.decided:
                stale.add(str(game_id))
                continue
            watched_again = (
                game_id not in bot.client.games  # a seat is kept by a registered account, not a spectator's
                and bot.judge_level
                and league.room_id in bot.room_ids
                and await bot.watch_game_again(league.room_id, game_id)
            )
            if game_id in bot.client.games or watched_again:
                game = LeagueGame(bot, league, game_id, round_no, players)
                if bot.client.games[game_id].started:
                    game.take_over_under_way()
                league.games[game_id] = game
                bot.adopt_game(game)
            else:
                stale.add(str(game_id))
                reopen.append((round_no, players, game_id))
        for game_key, (round_no, *players) in meta.get("cut", {}).items():  # cut short: a new game now
            match = league.engine.league.match_of(players[0], int(round_no))
            if match is not None and not match.decided:
                reopen.append((int(round_no), tuple(players), int(game_key)))
        waiting = [
            (int(round_no), tuple(players))
            for round_no, *players in meta.get("waiting", [])
            if (m := league.engine.league.match_of(players[0], int(round_no))) is not None and not m.decided
        ]
        if stale or meta.get("cut") or meta.get("waiting"):  # before any new game: the server may give a new
            meta = bot.journal.table_meta(key)  # one the number of a stale one
            meta["games"] = {k: v for k, v in meta.get("games", {}).items() if k not in stale}
            meta["cut"], meta["waiting"] = {}, []
            bot.journal.set_table_meta(key, meta)
        for round_no, players, lost in reopen:
            if not league.forfeit_certain(players):  # a member who left loses it at the first check instead
                await league.open_game(round_no, players, instead_of=lost)
        for round_no, players in waiting:
            if league.forfeit_certain(players):
                continue
            if not any(set(g.players) == set(players) for g in league.games.values()):
                await league.open_game(round_no, players)
        told: list[Effect] = []
        for member in sorted(league.left):  # left before the engine was told (a journal of an older version)
            told += await league.tell_engine_left(member)
        if told:
            await league.perform(told)
        league.watch()
        return league

    async def tell_members_again(self, line: str = "") -> None:
        """After a restore: ``line`` (when given) to each member, with a new link to their page for those
        whose link died (the pages are served at another address now, or by another process), and to each
        member the league waits for, what it waits for (:meth:`waiting_line`: the lines queued for them
        before the restart went with the old process)."""
        present = getattr(self.bot.client, "room_users", {}).get(self.room_id)
        for member in (m for m in self.engine.league.members if m not in self.left):
            link = self.link_line(member)  # their page shows what the league waits for
            here = present is None or member in present  # one away is welcomed back when they return
            waiting = "" if link or not here else self.waiting_line(member) or self.waited_line(member)
            back = led("The referee is back", waiting) if waiting and not line else waiting
            text = " ".join(part for part in (line, link, back) if part)
            if text:
                await self.tell(member, shorten(text, PRIVATE_LIMIT))
