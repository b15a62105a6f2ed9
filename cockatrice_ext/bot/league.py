"""Market Draft and AutoBattler leagues: one journaled league, run over private messages and many games.

Theory of operation
-------------------
The rules live in :mod:`cockatrice_ext.formats.market` and :mod:`cockatrice_ext.formats.autobattler`
(on the shared core :mod:`cockatrice_ext.formats.league`); these modules only adapt them, each depending
only on those listed before it:

* ``league_options``: the formats' names, :class:`~cockatrice_ext.bot.league_options.LeagueOptions`;
* ``league_commands``: players' arguments (positions, names) read as engine actions;
* ``league_views``: what players read (effects rendered as lines, listings, prompts, refusals);
* ``league_cards``: a league's block and augments, loaded decks checked, pools written out;
* ``league_games``: the game of one pairing (:class:`~cockatrice_ext.bot.league_games.LeagueGame`);
* ``league_referee``: one running league (:class:`~cockatrice_ext.bot.league_referee.LeagueReferee`), with
  its parts: ``league_parts`` (what the parts share), ``league_chat`` (private lines, follow-ups, pages),
  ``league_recap`` (what a member missed), ``league_restart``, ``league_pairings`` (each pairing's game),
  ``league_away`` (away and idle members, stand-ins, forfeits), ``league_leaving`` (``!leave``) and
  ``league_private_commands`` (the private desk);
* ``league_rooms``: each format's room command and its lobby;
* this module: installation (restoring leagues at start), a fleet's take-over, ``!resume``.

* **Lobby.** In room chat players ``!market join`` (or ``!autobattler join``); any member then says
  ``!market start [ROUNDS] [BLOCK]`` / ``!autobattler start [BLOCK]``. The league becomes one journaled
  :class:`~cockatrice_ext.journal.Table` keyed by server, room, format and league number. With the web
  view on, a join is answered by private message with the joiner's page link (the room hears only that a
  lobby opened): the page shows the lobby (``league_rooms.Lobby``) live, and becomes the league's page at the
  start.
* **Private desk.** Everything else is a private message to the bot (``!pick``, ``!shop``, ``!swap``,
  ``!buy``, ``!pool``, ``!standings``, ``!result``...). Identity is the server's sender name. Players see
  numbered lists (packs, shops, the market, their pool) and answer with those 1-based positions or with
  card names; ``league_commands`` turns them into engine actions carrying card identities.
* **Games.** Each pairing gets its own Cockatrice game created by the bot with shared decklists. The bot
  sits with an empty deck and presses ready only once both players of the match are seated with legal
  decks (the engines' ``check_deck``), so an illegal deck cannot start. An account with the server's judge
  level watches instead, from a judge's spectator seat that the per-user game limit does not count, and
  takes back (acting as the player) any ready given before both decks are legal. It learns the result from the
  game: a life total reaching 0, a concession or a player leaving (AutoBattler refuses concessions, as
  its engine does); ``!result win|loss|draw`` from both players is the fallback. For AutoBattler the
  Treasure tokens on each player's battlefield are reported before the result. The game's line saying the
  result waits for the chat budget like any other; a game left before it went out (the room needs its
  slot, the referee's stay ends) tells the pairing the result privately instead
  (``LeagueGame.tell_result_unsaid``): leaving drops what a game's chat still holds.
* **Away and idle members.** A running league checks every ``STAND_IN_TICK`` seconds whose move
  it waits for (each engine's ``waiting_for``): a member out of its room ``LOBBY_GRACE`` seconds, and silent
  to us since, or past the league option ``timer`` (warned at half time), gets the referee's move
  (``core.StandIn``: a pick at random, a pass, the end of a draft phase), journaled like any other; the room
  hears once that the referee moves for an away member, and when they are back. A paired member gone
  ``FORFEIT_GRACE`` seconds (out of the room and not connected in their game) loses the match by forfeit
  (a referee's result; both gone, nothing is guessed).
* **Leaving.** A member who has to go sends ``!leave`` by private message, then ``!leave confirm`` (it
  cannot be undone): journaled in the league's meta (``left``), so a restart keeps it; the other members are
  told once, the referee makes the leaver's every move at once (``core.StandIn``, no "away" line) and their
  games are lost by forfeit at once (both players of a match gone this way: a draw); the leaver hears no
  more of it (``!standings``, ``!pool``, ``!status`` still answer) and may join another league. A running
  member's room ``join``/``start``/``leave`` names their league and this way out; a lobby member's private
  ``!help``/``!rules``/``!leave`` point to the room's commands (``league_rooms.LobbyDesk``).
* **Restart.** The installer restores every open league of its format from the journal; the games of
  undecided matches are adopted again where the bot is re-seated (a registered account) or, with judge
  rights, watches them again; a game under way is taken over without a word (its decks were checked and
  its start announced before); a game gone from the server is created anew; a game the account is seated
  in again that no open journal table or league claims is left (:func:`leave_unclaimed_games`): closed
  first when its own table says it is over, else left as it is for its players, with a warning (the bot
  may run with another journal or server address than it played it with). An open lobby is a journal
  note, written before a join or leave is answered: a restarted bot opens it again and says so in the room
  (a fleet keeps its lobbies in memory).

Rendering effects to chat lines is pure (``league_views.render_effects``): public lines go to the league's
room, private ones (packs, shops, pools) to the player concerned.

**Private views and the chat budget.** Every room, game and private message shares the bot's one chat
budget (about 1,000 characters per 10 s), so a view listing a shop and a pool (~300 characters) for each
of eight players would reach the last one tens of seconds late. With the web view on (``bot run --web``,
which sets ``bot.league_pages``), each player's view lives on a private page, whose link the join's
answer carried (a player without one gets it with their first private message: ``Your shop and pool:
URL or !shop``); later lines point there instead of listing cards, and players watching their page (its
live stream open) get no chat copy of what it shows: the start of an eight-player league costs the room's
line, no private message. Without it, the first view of a draft phase is one message that can be acted on:
the shop and the numbered pool, the treasures and the commands (~320 characters; a later phase's random card
is said before it). Rolls show the whole view at once. ``!shop`` and ``!pool`` answer in full at any time.
A batch's private lines are queued before its room lines, but under the server's limits that is not the
order they leave in: the chat scheduler sends rooms' and games' lines first while those used less than a
third of the budget lately, else the destination that used the least of it lately goes first (a player's
first view before a busy room's announcements, and before the result line of a game that has just said its
start line); only among destinations that weigh the same (a server without limits: nothing is weighed) does
one that began to wait first, not served in the last window, go first. Servatrice keeps no order of its own
between these lines: each is a command of its own. It runs the commands of one container last to first
(``Client.game_commands`` sends each batch reversed), and their events reach the players in the order it ran
them.
"""

from __future__ import annotations

import contextlib
import logging

from cockatrice_ext.bot.league_options import TITLES, LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.league_rooms import AutoBattlerRoom, LeagueRoom, MarketRoom
from cockatrice_ext.bot.referee import GameReferee, unreplayable_line
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.client.errors import ClientError
from cockatrice_ext.journal import JournalError, journal_location
from cockatrice_ext.protocol import commands as pc

LOGGER = logging.getLogger(__name__)

CLOSED_AFTER_RESTART = "This game is over and closes now (the referee restarted meanwhile)."
"""What players still in a game nothing referees hear before it closes (:func:`leave_unclaimed_games`)."""


async def _install(bot: Bot, fmt: str) -> None:
    defaults = bot.options.format_options.get(fmt)
    room_cls = MarketRoom if fmt == "market" else AutoBattlerRoom
    room = room_cls(bot, defaults if isinstance(defaults, LeagueOptions) else None)
    bot.room_referees.append(room)
    engine_name = "market" if fmt == "market" else "autobattler"
    for key in bot.journal.open_tables(engine_name):
        if not key.startswith(f"{bot.server_key}:league:"):
            continue
        try:
            meta = bot.journal.table_meta(key)
            if meta.get("kind") != "league" or meta.get("format") != fmt:
                continue
            if bot.fleet is not None and not bot.fleet.acquire(key):
                continue  # another live process of the fleet referees it
            league = await LeagueReferee.restore(bot, key)
            room.leagues.append(league)
            LOGGER.info("restored league %s", key)
            await league.tell_members_again()
        except JournalError as exc:  # its players are told, not left waiting for a referee that is gone
            LOGGER.error("could not restore league %s: %s", key, exc)
            room_id = int(bot.journal.table_meta(key).get("room_id", -1))
            if room_id in bot.room_ids:
                what = f"The {TITLES[fmt]} league #{key.rsplit(':', 1)[-1]}"
                await bot.room_say(room_id, unreplayable_line(what, exc))
        except Exception:
            LOGGER.exception("could not restore league %s", key)
    await leave_unclaimed_games(bot)
    await room.restore_lobbies()


def claimed_games(bot: Bot) -> set[int]:
    """The game numbers something will referee: games adopted already, games with an open table of their
    own in the journal (resumed after the formats are installed; or another fleet process's), and the games
    and games cut short in an open league's record (a league restored here has cleaned its record; one
    leased by another process, or whose restore failed, keeps its games)."""
    claimed = set(bot.all_games())
    own_game = f"{bot.server_key}{bot.GAME_KEY}"
    for key in bot.journal.open_tables():
        if key.startswith(own_game) and key[len(own_game) :].isdigit():
            claimed.add(int(key[len(own_game) :]))
        elif key.startswith(f"{bot.server_key}:league:"):
            meta = bot.journal.table_meta(key)
            for record in ("games", "cut"):
                claimed |= {int(number) for number in meta.get(record, {}) if str(number).isdigit()}
    return claimed


FINISHED_LEAGUE_GAMES = "over"
"""A league table's meta: the numbers of its last played-out games (a finished game lingers with the
referee as its host, see ``LeagueGame.close``), so that a restart knows them as over."""


def finished_games(bot: Bot) -> set[int]:
    """The game numbers this journal knows are over on this server: a game whose own table is closed, and
    a league's played-out games (:data:`FINISHED_LEAGUE_GAMES`)."""
    own_game = f"{bot.server_key}{bot.GAME_KEY}"
    finished = set()
    for key in bot.journal.closed_tables(own_game):
        number = key[len(own_game) :]
        if number.isdigit():
            finished.add(int(number))
    own_league = f"{bot.server_key}:league:"
    for key in [*bot.journal.open_tables(), *bot.journal.closed_tables(own_league)]:
        if key.startswith(own_league):
            with contextlib.suppress(JournalError):  # a damaged record claims nothing
                over = bot.journal.table_meta(key).get(FINISHED_LEAGUE_GAMES)
                if isinstance(over, list):
                    finished |= {int(n) for n in over if str(n).isdigit()}
    return finished


async def leave_unclaimed_games(bot: Bot) -> None:
    """After a restart: leave each game the account was seated in again that nothing referees.

    A game the journal knows is over (:func:`finished_games`: its own table closed, or a league's played-out
    game, which lingers as its host for the game limit) is closed when we are its host (its players hear
    :data:`CLOSED_AFTER_RESTART` and are kicked), so that it does not count against the account's games on
    the server for good. A game nothing in this journal knows is not assumed finished: the bot may have been
    started with another journal, or another spelling of the server's address, than the one it played it
    with. It is left as it is, its players may play on or ask another referee, and the operator's log names
    it (a WARNING); a new journal while the account sits in such games is named too (its absolute path)."""
    claimed = claimed_games(bot)
    finished = finished_games(bot)
    seated = {
        game_id: mirror
        for game_id, mirror in bot.client.games.items()
        if game_id not in claimed and not mirror.spectator
    }
    if seated and bot.journal.new:
        LOGGER.warning(
            "the journal %s is new (created by this run), but the account sits in %d game(s) (%s): if this"
            " referee played them, stop it and start it again with --journal naming the journal it played"
            " them with (the default cockatrice-ext.sqlite3 is in the folder the bot starts from)",
            journal_location(bot.journal.path),
            len(seated),
            ", ".join(f"#{game_id}" for game_id in sorted(seated)),
        )
    for game_id, mirror in seated.items():
        host = mirror.host_id == mirror.local_player_id
        humans = [p for p in mirror.seated_players if p.player_id != mirror.local_player_id]
        destination = ("game", game_id)
        if game_id in finished:
            LOGGER.info(
                "game %d: seated in it again after the restart, and the journal says it is over (a finished"
                " game): leaving it%s",
                game_id,
                f" and closing it ({len(humans)} player(s) still in it)" if host else "",
            )
            if host and humans:
                with contextlib.suppress(ClientError, ConnectionError, TimeoutError):  # refused, or gone
                    bot.chat.say(destination, CLOSED_AFTER_RESTART)
                    await bot.chat.flush(destination, timeout=10)
                    await bot.client.game_commands(game_id, [pc.kick_from_game(p.player_id) for p in humans])
        else:
            LOGGER.warning(
                "game %d (%s): seated in it again after the restart, but no table or league of the journal %s"
                " claims it for %s: leaving it without closing it (%d player(s) still in it may play on, or"
                " ask another referee); if this referee played it, restart it with the journal and server"
                " address it played it with",
                game_id,
                mirror.description[:80] or "no description",
                journal_location(bot.journal.path),
                bot.server_key,
                len(humans),
            )
        with contextlib.suppress(ClientError, ConnectionError, TimeoutError):
            await bot.client.leave_game(game_id)
        bot.chat.drop(destination)


async def take_over_league(bot: Bot, key: str) -> None:
    """Referee league ``key`` from now on (its process died; the fleet holds its lease for us): restore it
    into this format's room and tell its members where to send their commands."""
    meta = bot.journal.table_meta(key)
    fmt = str(meta.get("format", ""))
    room = next((r for r in bot.room_referees if isinstance(r, LeagueRoom) and r.format_name == fmt), None)
    if room is None or any(league.key == key for league in room.leagues):
        return
    league = await LeagueReferee.restore(bot, key)
    room.leagues.append(league)
    number = league.number
    await league.tell_members_again(
        f"{TITLES[fmt]} league #{number} goes on with me as its referee: send me your commands (!help)."
    )


def drop_league(bot: Bot, key: str) -> None:
    """Stop refereeing league ``key`` (another process of the fleet holds it now)."""
    for room in bot.room_referees:
        if isinstance(room, LeagueRoom):
            room.leagues = [league for league in room.leagues if league.key != key]
    bot.private_referees = [
        r for r in bot.private_referees if not (isinstance(r, LeagueReferee) and r.key == key)
    ]


TAKERS = {"market": take_over_league, "autobattler": take_over_league}
DROPPERS = {"market": drop_league, "autobattler": drop_league}


async def install_market(bot: Bot) -> None:
    await _install(bot, "market")


async def install_autobattler(bot: Bot) -> None:
    await _install(bot, "autobattler")


async def resume(bot: Bot, game_id: int, room_id: int, key: str) -> GameReferee:
    """League games are not tables of their own: their league adopts them when it is restored."""
    for referee in bot.private_referees:
        if isinstance(referee, LeagueReferee) and game_id in referee.games:
            return referee.games[game_id]
    raise LookupError(f"no league owns game {game_id}")


INSTALLERS = {"market": install_market, "autobattler": install_autobattler}
RESUMERS = {"market": resume, "autobattler": resume}
