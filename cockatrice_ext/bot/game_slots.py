"""Opening games, and the few game slots the server gives the referee's account.

The rules (:class:`GameSlots`, a part of :class:`~cockatrice_ext.bot.runtime.Bot`):

* Servatrice lets one account create only a few games per room (5 as shipped), for everyone: a user may have
  :attr:`~cockatrice_ext.bot.runtime.BotOptions.max_waiting_per_user` games waiting for players at once (a
  game whose only seated player is its requester counts as waiting);
* a game nobody joins is closed after ``unjoined_timeout``, counted from when its announcement left the chat
  queue (:data:`~cockatrice_ext.bot.referee.ANNOUNCING`), and its room told;
* at the limit, finished games are left, then an old game nobody joined that someone else asked for makes
  room (``unjoined_yield_after``), the requester told at once that their game opens when a slot is free, the
  wait bounded by :data:`SLOT_WAIT`; else :meth:`GameSlots.limit_refusal` says what holds the slots, worded
  as it leaves the chat queue (a room's answers may wait a minute for the chat budget: true when read);
* a format with no pile of its own (``watch``) is watched from a judge's spectator seat when the account is
  judge-level (the limit does not count it), else it gets a seat.

Why: one user, or one busy room, must not hold every slot of the referee's account.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.referee import ANNOUNCING, GAME_REQUESTER, GameReferee, OpenedGame
from cockatrice_ext.bot.words import duration_words, game_list, plural, shorten
from cockatrice_ext.client.errors import ClientError

if TYPE_CHECKING:
    from cockatrice_ext.bot.runtime import Bot


LOGGER = logging.getLogger("cockatrice_ext.bot.runtime")
"""The session's one logger (operators filter the bot's session lines by it)."""


SLOT_FREED = "no new game (game limit reached), but a slot has freed since: ask again"
"""A game limit refusal read after a game holding a slot has closed (:meth:`GameSlots.refusal_as_read`)."""

ADOPT_WAIT = 10.0
"""Seconds, at most, a game's events wait for its referee while the game is being opened: room commands run
in their own tasks (:meth:`~cockatrice_ext.bot.runtime.Bot.commands_of`), so the dispatcher may read a new
game's first events (its joined event among them) before the command that opened it has made its referee."""

SLOT_WAIT = 20.0
"""Seconds a game request waits, at most, for a slot it frees at the server's game limit (an old game closed
to make room: its last lines, the kicks and the leave wait for the flood budgets of a busy referee)."""


class GameSlots:
    """Opening games within the server's game limit, and closing games nobody joined (see the module)."""

    async def open_game(
        self,
        room_id: int,
        *,
        description: str,
        seats: int,
        type_hint: str,
        password: str = "",
        judge: bool = False,
        share_decklists: bool = False,
        starting_life: int = 20,
        watch: bool = False,
        spectators_allowed: bool = True,
    ) -> int:
        """Create a game for ``seats`` human players and return its id (see :meth:`_open_game`); a number
        the journal already has moves the old record aside first (:meth:`number_given_again`).
        ``spectators_allowed``: False keeps spectators out (a league game shares its players' deck lists,
        which every spectator would receive).

        A game asked for by a user (:data:`GAME_REQUESTER`) is refused while that user's earlier games still
        wait for players (:attr:`BotOptions.max_waiting_per_user`), and is closed if nobody sits down in it
        within :attr:`BotOptions.unjoined_timeout` seconds (:meth:`close_if_unjoined`).

        Raises:
            NotAllowed: the server is about to shut down, the user's earlier game still waits, or the
                server's game limit is reached.
        """
        self.refuse_if_shutting_down()
        requester = GAME_REQUESTER.get()
        if requester:
            self.refuse_if_waiting(requester)
        async with self.opening_one:  # the account's slots are counted and freed by one request at a time
            game_id = await self._open_game(
                room_id,
                description=description,
                seats=seats,
                type_hint=type_hint,
                password=password,
                judge=judge,
                share_decklists=share_decklists,
                starting_life=starting_life,
                watch=watch,
                spectators_allowed=spectators_allowed,
                requester=requester,
            )
        await self.number_given_again(game_id)
        if requester:
            self.note_opened(game_id, room_id, requester)
        return game_id

    async def create_at_server(self, room_id: int, **settings: Any) -> int:
        """``Command_CreateGame``, counted while it is on its way and until the game's referee is made
        (:meth:`taken_up`): meanwhile the game's events wait for it (:meth:`until_taken_up`)."""
        self.games_being_created += 1
        try:
            game_id: int = await self.client.create_game(room_id, **settings)
        finally:
            self.games_being_created -= 1
            self.opening_changed()
        self.not_taken_up[game_id] = asyncio.get_running_loop().time() + ADOPT_WAIT
        return game_id

    def taken_up(self, game_id: int) -> None:
        """Game ``game_id`` has its referee (or is no longer ours): its events need not wait."""
        if self.not_taken_up.pop(game_id, None) is not None:
            self.opening_changed()

    def opening_changed(self) -> None:
        """Wake the events waiting in :meth:`until_taken_up` to look again."""
        changed, self.opening_news = self.opening_news, asyncio.Event()
        changed.set()

    async def until_taken_up(self, game_id: int) -> None:
        """Hold an event of game ``game_id``, which has no referee here, while a game is being opened, until
        it has one or turns out not to be the one opened (at most :data:`ADOPT_WAIT`): its first events go
        to its referee, and its joined event never resumes an old record under a number given again."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ADOPT_WAIT
        while game_id not in self.games:
            due = self.not_taken_up.get(game_id)
            if due is not None and loop.time() >= due:  # its format never took it up (it failed)
                del self.not_taken_up[game_id]
                due = None
            if due is None and self.games_being_created == 0:
                return
            left = min(deadline, due if due is not None else deadline) - loop.time()
            if left <= 0:
                return
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.opening_news.wait(), left)

    def waiting_games_of(self, user: str) -> list[tuple[int, Bot]]:
        """The games ``user`` asked for that still wait for players, oldest first, with their sessions (one
        opened but not yet refereed, its format still setting it up, waits too)."""
        main = self.main or self
        found = []
        for session in main.sessions:
            for game_id, opened in session.opened.items():
                referee = session.games.get(game_id)
                waits = (
                    referee.waiting_for_players if referee is not None else game_id in session.client.games
                )
                if opened.requester == user and waits:
                    found.append((opened.opened_at, game_id, session))
        return [(game_id, session) for _, game_id, session in sorted(found, key=lambda item: item[:2])]

    def refuse_if_waiting(self, user: str) -> None:
        """Refuse ``user`` a new game while as many of the games they asked for as allowed still wait for
        players: the referee's account may create only a few games per room, and they are everyone's.

        Raises:
            NotAllowed: which of their games waits, and that it must fill or close first.
        """
        main = self.main or self
        waiting = main.waiting_games_of(user)
        if len(waiting) < max(1, main.options.max_waiting_per_user):
            return
        if len(waiting) > 1:
            raise NotAllowed(
                f"your games {game_list(game_id for game_id, _ in waiting)} still wait for players. One must"
                " fill or close before you ask for another"
            )
        game_id, session = waiting[0]
        referee = session.games.get(game_id)
        what = f"{referee.format_name} game #{game_id}" if referee is not None else f"game #{game_id}"
        seated = referee.humans() if referee is not None and game_id in session.client.games else []
        if not seated:
            closes = session.closes_in(game_id)
            when = f": nobody has joined it, so it closes in about {duration_words(closes)}" if closes else ""
        elif all(player.name == user for player in seated):
            closes = session.closes_in(game_id)
            alone = f", or it closes in about {duration_words(closes)} if nobody else joins" if closes else ""
            when = f" ({len(seated)} seated): leave it to close it{alone}"
        elif any(player.name == user for player in seated):
            when = f" ({len(seated)} seated): leave it to close it"
        else:
            when = f" ({len(seated)} seated)"
        raise NotAllowed(
            f"your {what} still waits for players{when}. It must fill or close before you ask for another"
        )

    def closes_in(self, game_id: int) -> float:
        """Seconds until game ``game_id`` closes if nobody sits down in it (0: it does not close so)."""
        opened = self.opened.get(game_id)
        timeout = (self.main or self).options.unjoined_timeout
        if opened is None or timeout <= 0:
            return 0.0
        return max(1.0, timeout - opened.unjoined_for(asyncio.get_running_loop().time()))

    def note_opened(self, game_id: int, room_id: int, requester: str) -> None:
        """Remember who asked for game ``game_id`` and close it if nobody has sat down in it in time, counted
        from when its announcement left the chat queue (:data:`ANNOUNCING`; the room's answers may wait for
        the chat budget), or from now when no room command announces it."""
        loop = asyncio.get_running_loop()
        self.drop_opened(game_id)  # a number the server gave again: the old game's timer is not this one's
        opened = self.opened[game_id] = OpenedGame(requester, room_id, loop.time())
        starters = ANNOUNCING.get()
        if starters is not None:
            starters.append(lambda at: self.note_heard(game_id, opened, at))
        else:
            self.note_heard(game_id, opened, loop.time())

    def note_heard(self, game_id: int, opened: OpenedGame, at: float) -> None:
        """Players heard of game ``game_id`` at loop time ``at``: its unjoined clock starts there."""
        if self.opened.get(game_id) is not opened or opened.heard_at is not None:
            return  # gone meanwhile, or started already
        opened.heard_at = at
        loop = asyncio.get_running_loop()
        timeout = (self.main or self).options.unjoined_timeout
        if timeout > 0:
            self._unjoined_timers[game_id] = loop.call_later(
                max(0.0, at + timeout - loop.time()), lambda: self.spawn(self.close_if_unjoined(game_id))
            )

    def drop_opened(self, game_id: int) -> None:
        """Forget who asked for game ``game_id`` and stop its unjoined timer (the game is gone or left)."""
        self.opened.pop(game_id, None)
        timer = self._unjoined_timers.pop(game_id, None)
        if timer is not None:
            timer.cancel()

    def unjoined_again(self, game_id: int) -> bool:
        """Game ``game_id``, opened on request, has nobody seated again before its start: whether its unjoined
        clock will close it (and tell the room) if nobody sits down in time; a clock that already ran (someone
        else sat down meanwhile) starts again from now. False: no such clock (not opened on request, or the
        operator turned it off)."""
        opened = self.opened.get(game_id)
        timeout = (self.main or self).options.unjoined_timeout
        if opened is None or timeout <= 0:
            return False
        if game_id in self._unjoined_timers or opened.heard_at is None:
            return True  # its clock still runs, or starts when its announcement leaves
        loop = asyncio.get_running_loop()
        opened.heard_at = loop.time()
        self._unjoined_timers[game_id] = loop.call_later(
            timeout, lambda: self.spawn(self.close_if_unjoined(game_id))
        )
        return True

    async def close_if_unjoined(self, game_id: int) -> None:
        """The unjoined timeout passed: a game nobody joined (:meth:`nobody_joined`) is closed and its room
        told once."""
        self._unjoined_timers.pop(game_id, None)
        if game_id not in self.opened:
            return
        referee = self.games.get(game_id)
        if referee is None:  # opened, but its format never took it up (it failed): free the slot
            self.opened.pop(game_id, None)
            if game_id in self.client.games and not self.client.games[game_id].started:
                with contextlib.suppress(ClientError, ConnectionError, TimeoutError):
                    await self.client.leave_game(game_id)
            return
        if not self.nobody_joined(referee, self.opened[game_id]):
            return  # it started, or someone other than its requester sits in it (it closes when they leave)
        timeout = duration_words((self.main or self).options.unjoined_timeout)
        await self.give_up_unjoined(referee, f"game #{game_id} closed: nobody joined in {timeout}")

    @staticmethod
    def nobody_joined(referee: GameReferee, opened: OpenedGame) -> bool:
        """Whether a game opened on request still waits with nobody seated but the user who asked for it:
        sitting alone in one's own game does not hold one of the referee's slots for good."""
        return referee.waiting_for_players and all(
            player.name == opened.requester for player in referee.humans()
        )

    async def give_up_unjoined(self, referee: GameReferee, line: str) -> None:
        """Close a game nobody joined (see :meth:`GameReferee.close_unjoined`) and tell its room ``line``
        (and, for a continued game, that its record is kept)."""
        key = referee.table_key
        kept = referee.table is not None and self.journal.closed_reason(key) is None
        await referee.close_unjoined(line)
        if kept:
            line += f"; its record is kept: say !resume {referee.game_id} to continue it"
        await (self.main or self).room_say(referee.room_id, shorten(line + "."))

    async def _open_game(
        self,
        room_id: int,
        *,
        description: str,
        seats: int,
        type_hint: str,
        password: str,
        judge: bool,
        share_decklists: bool,
        starting_life: int,
        watch: bool,
        spectators_allowed: bool = True,
        requester: str = "",
    ) -> int:
        """Create a game for ``seats`` human players and return its id (``requester``: the user who asked
        for it, "" for none).

        The bot sits as one more player (a shared pile lives in its own zones), unless ``watch``: a
        format that needs no zone of its own asks for a judge's spectator seat, which an account with
        the server's judge level gets beyond the per-user game limit (Servatrice exempts judges who
        create games as spectators); it then acts for the players as their judge. Other accounts, and
        servers that refuse, get the seated game. The room's game types whose name contains
        ``type_hint`` are selected. A judge seat is asked for when ``judge`` or when the account has
        judge rights; a server that refuses it gets a plain seat instead.
        """
        from cockatrice_ext.client.errors import CommandFailed

        room = self.client.rooms.get(room_id)
        type_ids = [
            tid for tid, name in (room.game_types.items() if room else []) if type_hint in name.lower()
        ]
        ask_judge = judge or self.judge_level
        settings = {
            "description": description[:200],
            "max_players": seats + 1,
            "password": password or None,
            "spectators_allowed": spectators_allowed,
            "share_decklists": share_decklists,
            "game_type_ids": type_ids,
            "starting_life_total": starting_life,
        }
        if watch and self.judge_level:
            try:
                return await self.create_at_server(
                    room_id,
                    **{**settings, "max_players": seats},
                    join_as_judge=True,
                    join_as_spectator=True,
                )
            except CommandFailed as exc:
                LOGGER.info("no judge's spectator seat (%s); creating the game with a seat", exc)
        for as_judge in (True, False) if ask_judge else (False,):
            try:
                return await self._create_game(
                    room_id, join_as_judge=as_judge, watchable=watch, requester=requester, **settings
                )
            except CommandFailed as exc:
                if not as_judge:
                    raise
                LOGGER.info("no judge seat (%s); creating the game with a plain seat", exc)
        raise AssertionError("unreachable")

    async def _create_game(
        self, room_id: int, *, watchable: bool = False, requester: str = "", **settings: Any
    ) -> int:
        """``Command_CreateGame``; when the server's per-user game limit is reached, leave finished games,
        then a game nobody has joined that someone else asked for (:meth:`make_room`), and try again; else
        refuse with a sentence that says what holds the slots (``watchable``: the format could run from a
        judge's spectator seat, which the limit does not count).

        Freeing a slot waits for the old game's last lines, the kicks and the leave, each behind the flood
        budgets of a busy referee: the user who asked hears at once (privately) that their game opens as
        soon as a slot is free, and the wait is bounded (:data:`SLOT_WAIT`: then a refusal says so, and the
        old game goes on closing, so the slot is there for the next request).

        ``requester``: the user who asked (said explicitly: a refusal is worded again as it leaves the chat
        queue, where no command's context is set). Every refusal is worded as it is read
        (:meth:`refusal_as_read`): a room's answers may wait a minute for the chat budget."""
        from cockatrice_ext.client.errors import CommandFailed

        async def create() -> int | None:
            try:
                return await self.create_at_server(room_id, **settings)
            except CommandFailed as exc:
                if exc.code_name != "RespContextError":
                    raise
                return None

        game_id = await create()
        if game_id is not None:
            return game_id
        loop = asyncio.get_running_loop()
        deadline = loop.time() + SLOT_WAIT
        finished = [ref for ref in self.games.values() if ref.finished and ref.room_id == room_id]
        closing = self.room_maker(room_id, requester)
        if (finished or closing is not None) and requester:  # privately: the room's lines merge with it
            await self.tell(
                requester,
                "The referee is at the server's game limit: your new game opens as soon as a slot is free.",
            )
        freeing: list[int] = []
        if finished:
            freeing.extend(ref.game_id for ref in finished)
            if not await self.within(asyncio.gather(*(ref.leave() for ref in finished)), deadline):
                raise self.slot_refusal(room_id, freeing)
            game_id = await create()
            if game_id is not None:
                return game_id
        closing = self.room_maker(room_id, requester)
        if closing is not None:  # one game given up per request, at most
            freeing.append(closing[0])
            if not await self.within(self.make_room(room_id, requester), deadline):
                raise self.slot_refusal(room_id, freeing)
            while (game_id := await create()) is None:  # the server closes a game it has just left
                if loop.time() + 0.5 > deadline:
                    raise self.slot_refusal(room_id, freeing)
                await asyncio.sleep(0.5)
            return game_id
        raise self.limit_refusal(room_id, watchable, requester)

    async def within(self, work: Awaitable[Any], deadline: float) -> bool:
        """Wait for ``work`` until ``deadline`` (the loop's time): whether it was done by then (its fault is
        raised). Work not done goes on alone (its fault logged): a game being closed still closes."""
        task = asyncio.ensure_future(work)
        await asyncio.wait({task}, timeout=max(0.0, deadline - asyncio.get_running_loop().time()))
        if task.done():
            task.result()
            return True

        def done(finished: asyncio.Future[Any]) -> None:
            self._going_on.discard(finished)
            if not finished.cancelled() and finished.exception() is not None:
                LOGGER.error("freeing a game slot failed", exc_info=finished.exception())

        self._going_on.add(task)
        task.add_done_callback(done)
        return False

    def slot_refusal(self, room_id: int, freeing: list[int]) -> NotAllowed:
        """The refusal of a game request that freed a slot (``freeing``: the games closed for it) and got no
        game in :data:`SLOT_WAIT`, worded as it is read (:meth:`refusal_as_read`)."""
        games = " and ".join(f"#{game_id}" for game_id in freeing)
        closing = f"{games} {plural(len(freeing), 'is', 'are')} closing to make room"
        waited = duration_words(SLOT_WAIT)
        return self.refusal_as_read(
            room_id,
            lambda: f"no new game: {closing}, but no slot was free after {waited}. Ask again in a minute",
        )

    def slot_holders(self, room_id: int) -> set[int]:
        """The games in ``room_id`` that hold one of this session's game slots: those the room's game list
        shows as created by its account (a game it has left counts while players stay in it) and those it
        sits in, but for the ones it watches from a judge's spectator seat (the limit does not count them)."""
        own = self.client.user_name
        listed = getattr(self.main or self, "room_games", {}).get(room_id, {})
        held = {game_id for game_id, (creator, _) in listed.items() if own and creator == own}
        for game_id, game in self.client.games.items():
            if getattr(game, "room_id", room_id) != room_id:
                continue
            if getattr(game, "spectator", False) and getattr(game, "judge", False):
                held.discard(game_id)
            else:
                held.add(game_id)
        return held

    def refusal_as_read(self, room_id: int, words: Callable[[], str]) -> NotAllowed:
        """A refusal at the server's game limit in ``room_id``, worded by ``words`` now and again as its
        answer leaves the chat queue (a room's answers may wait a minute for the chat budget, and the games
        that held the slots may have started or closed meanwhile): true when read. When fewer games hold
        slots then than now, one has freed: the answer says to ask again. The renderer never raises (a
        fault keeps the first wording, and is logged)."""
        reason = words()
        held = len(self.slot_holders(room_id))

        def render() -> str:
            try:
                if len(self.slot_holders(room_id)) < held:
                    return SLOT_FREED
                return words()
            except Exception:  # a renderer must not raise: the first wording, still mostly true
                LOGGER.exception("the game limit refusal could not be worded again")
                return reason

        return NotAllowed(reason, render=render)

    def unjoined_games(self, room_id: int) -> list[tuple[float, int, OpenedGame]]:
        """This session's games in ``room_id`` opened on request that nobody joined (:meth:`nobody_joined`:
        its requester alone may sit in it), oldest first: (age in seconds, game number, who asked)."""
        now = asyncio.get_running_loop().time()
        found = []
        for game_id, opened in self.opened.items():
            referee = self.games.get(game_id)
            if opened.room_id != room_id or referee is None:
                continue
            if self.nobody_joined(referee, opened):
                found.append((opened.unjoined_for(now), game_id, opened))
        return sorted(found, key=lambda item: (-item[0], item[1]))

    def room_maker(self, room_id: int, requester: str) -> tuple[int, float] | None:
        """The game :meth:`make_room` would close for ``requester`` (its number and age), or None."""
        least_age = (self.main or self).options.unjoined_yield_after
        for age, game_id, opened in self.unjoined_games(room_id):
            if opened.requester != requester and age >= least_age:
                return game_id, age
        return None

    async def make_room(self, room_id: int, requester: str) -> bool:
        """The server's game limit is reached: close the oldest game in ``room_id`` nobody has joined for
        :attr:`BotOptions.unjoined_yield_after` seconds, asked for by someone other than ``requester``, and
        say so; False when there is none."""
        closing = self.room_maker(room_id, requester)
        if closing is None:
            return False
        game_id, age = closing
        await self.give_up_unjoined(
            self.games[game_id],
            f"game #{game_id} closed to make room for a new game: nobody joined it in {duration_words(age)}",
        )
        return True

    def limit_refusal(self, room_id: int, watchable: bool, requester: str) -> NotAllowed:
        """The refusal of ``requester``'s game request at the server's game limit in ``room_id``, worded as
        it is read (:meth:`limit_words`, :meth:`refusal_as_read`). The operator's remedy goes to the log,
        once, when the refusal is made (``watchable``: the format could run from a judge's spectator seat)."""
        if not self._told_limit:  # the operator's advice, for the operator: once, in the log
            self._told_limit = True
            LOGGER.warning(
                "%s is at the server's game limit in room %s: more games need %s--extra-user (each helper"
                " account has its own game limit and chat budget)",
                self.client.user_name,
                getattr(self.client.rooms.get(room_id), "name", room_id),
                "a judge-level referee account or " if watchable else "",
            )
        return self.refusal_as_read(room_id, lambda: self.limit_words(room_id, requester))

    def limit_words(self, room_id: int, requester: str) -> str:
        """Why no game can open in ``room_id`` now, true to what holds the referee's slots there, in few words
        (a room line takes a share of the whole connection's chat budget): the games waiting for players
        (which closes next when nobody joins), the games being played, else the games it has left (which
        count while players stay in them); and when ``requester`` may ask again (an old game nobody joined
        that someone else asked for makes room after a while)."""
        options = (self.main or self).options
        unjoined = self.unjoined_games(room_id)
        empty = sorted(game_id for _, game_id, _ in unjoined)
        waiting, playing = list(empty), []
        for game_id, referee in sorted(self.games.items()):
            if referee.room_id != room_id or referee.watching or game_id in empty:
                continue  # a judge's spectator seat is not counted by the limit
            (waiting if referee.waiting_for_players else playing).append(game_id)
        parts = []
        if waiting:
            part = f"{game_list(sorted(waiting))} {plural(len(waiting), 'waits', 'wait')} for players"
            closes = {game_id: self.closes_in(game_id) for game_id in empty}
            next_closing = min(
                (game_id for game_id in empty if closes[game_id]), key=closes.get, default=None
            )
            if next_closing is not None:
                which = "" if len(waiting) == 1 else f"#{next_closing} "
                part += f" ({which}closes in {duration_words(closes[next_closing])} if empty)"
            parts.append(part)
        if playing:
            parts.append(f"{game_list(playing)} {plural(len(playing), 'is', 'are')} being played")
        if not parts:
            parts.append("games the referee has left still have players in them")
        yielding = [
            options.unjoined_yield_after - age for age, _, opened in unjoined if opened.requester != requester
        ]
        if not yielding:
            again = "ask again when one closes"
        elif min(yielding) > 0:
            again = f"ask again in {duration_words(min(yielding))}"
        else:  # worded later than asked: an old unjoined game may make room now
            again = "ask again now"
        advice = f"Join one or {again}" if waiting else again[0].upper() + again[1:]
        return f"no new game (game limit): {'; '.join(parts)}. {advice}"
