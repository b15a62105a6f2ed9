"""Several ``bot run`` processes sharing one PostgreSQL journal: who referees what, and take-over.

Theory of operation
-------------------
Each process has an *owner id* (account, host, pid and a random part) and holds journal leases
(:meth:`~cockatrice_ext.journal.Journal.acquire`), renewed every third of their time to live by
one asyncio task:

* ``member:<server>:<room id>:<owner>``: the process is alive and sits in that room (the room's
  fleet members are these leases' owners);
* ``room:<server>:<room id>``: this process answers the room's commands, the others stay silent;
* ``<server>:game:<id>`` (a game's journal key): this process referees that game. A lease that
  cannot be renewed means another process may have it: the referee is dropped at once, and
  :meth:`Fleet.may_act` refuses its actions until then, so a game never has two referees.
* ``held:<server>:<account>``: this process sends what that account (one of its sessions) keeps for
  offline users. The messages are journal notes per account; the lease's holder has them in memory.
  A dead member's lease expires and the first survivor to take it moves them to its main session (and
  lets the lease go), so what a player was to be told is sent by a live account when they are back.

A game-creating room command (a stand-alone format's, e.g. ``!auction new``) goes to the least
loaded member, counting its game leases: when that is not the room's holder, the holder hands the
command over as an ``ask:<server>:<owner>:<id>:<json>`` lease owned by the chosen member, which
claims it (an atomic ``release``) and answers in the room itself. ``!resume GAME`` goes to whoever
holds that game's lease. A request still unclaimed after :data:`ASK_TIMEOUT` (its member died) is
taken back by the holder, by the same atomic ``release``, and answered there: exactly once.

Take-over: every renewal round also reads :meth:`~cockatrice_ext.journal.Journal.expired_tables`.
An expired game of one of our rooms is leased, then resumed in place when one of our sessions is
seated in it: a registered account re-seated at login, or the game's referee account (journaled in
the table's meta) which this process logs in as, with the fleet's one password, so that the server
re-seats it. Otherwise (auth none: a seat dies with its connection) the game is announced in its
room with ``!resume GAME``, as a restarted bot does; its lease is kept until it is resumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
import os
import socket
import uuid
from collections import Counter
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from cockatrice_ext.bot.commands import BadArgument, parse_invocation
from cockatrice_ext.journal import Journal, JournalError, Lease

if TYPE_CHECKING:
    from cockatrice_ext.bot.referee import Context
    from cockatrice_ext.bot.runtime import Bot

LOGGER = logging.getLogger(__name__)

DEFAULT_LEASE_TTL = 5.0
"""Seconds a lease lasts unless renewed: a dead process's games are taken over within about
``ttl * 4 / 3`` (expiry, then the next round of the survivor)."""

ASK_POLL_SECONDS = 0.25
"""How often a process looks for room commands handed to it."""

ASK_TIMEOUT = 2.0
"""Seconds after which the room's holder takes back a room command nobody claimed, and answers it."""


def owner_id(user: str) -> str:
    """A process's owner id: unique per process, readable in the leases table."""
    return f"{user}@{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


def owner_parts(owner: str) -> tuple[str, str, int | None]:
    """``(account, host, pid)`` of an owner id (pid None when the id is not one of ours: foreign input)."""
    left, _, _random = owner.rpartition(":")
    left, _, pid = left.rpartition(":")
    account, _, host = left.rpartition("@")
    return (account, host, int(pid)) if pid.isdigit() and host else ("", "", None)


def describe_owner(owner: str) -> str:
    """Who holds a lease, for the operator: ``pid 123 on host h, as RefereeBot``."""
    account, host, pid = owner_parts(owner)
    return f"pid {pid} on host {host}, as {account}" if pid is not None else f"owner {owner[:80]!r}"


def owner_is_gone(owner: str) -> bool:
    """Whether ``owner`` was a process of this host that no longer runs (killed, crashed), or an earlier bot
    of this very process that never stopped: its lease may be taken at once instead of waiting it out."""
    _, host, pid = owner_parts(owner)
    if pid is None or host != socket.gethostname():
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it runs, as another user
        return False
    return False


JOURNAL_KEY = "bot:journal"
"""The lease of the one bot process, not in a fleet, that uses a journal (see :class:`JournalLease`)."""


class JournalInUse(JournalError):
    """Another live bot process uses this journal: a second one refuses to start."""


class JournalLease:
    """The one bot process outside a fleet that uses a journal holds :data:`JOURNAL_KEY`.

    Two such processes on one journal would both answer every room command and fork its games, so a second
    one refuses to start. The lease is renewed every third of its ``ttl`` while the process runs and let go
    at a clean stop. A process killed outright leaves it until it expires, by the database's clock; a start
    on the same host whose holder's pid no longer runs takes it at once, and a holder on another host is
    waited out for one ``ttl`` (a live one renews it meanwhile). Taking it is also the start's proof that
    the journal can be written. A fleet member instead refuses a journal whose lease a live process holds,
    and the lone process refuses a journal with live fleet members.
    """

    def __init__(self, journal: Journal, user: str, ttl: float, on_lost: Callable[[str], None]) -> None:
        self.journal = journal
        self.owner = owner_id(user)
        self.ttl = ttl
        self.on_lost = on_lost
        self._task: asyncio.Task[None] | None = None

    def in_use(self, lease: Lease | None, by: str = "another bot process") -> JournalInUse:
        holder = f" ({describe_owner(lease.owner)})" if lease is not None else ""
        return JournalInUse(
            f"journal {self.journal.path} is in use by {by}{holder}; stop it first, or run several processes"
            " as a fleet (see README)"
        )

    def _write(self, work: Callable[[], Any]) -> Any:
        return written(self.journal, work)

    async def take(self) -> None:
        """Take the journal for this process, or raise :class:`JournalInUse` (:class:`JournalError` when it
        cannot be written)."""
        members = [lease for lease in self.journal.leases("member:") if not owner_is_gone(lease.owner)]
        if members:
            raise self.in_use(members[0], "a fleet of bot processes")
        loop = asyncio.get_running_loop()
        deadline: float | None = None
        while True:
            if self._write(lambda: self.journal.acquire(JOURNAL_KEY, self.owner, self.ttl)) is not None:
                break
            holder = self.journal.lease(JOURNAL_KEY)
            if holder is None:
                continue  # it expired or was let go meanwhile
            if owner_is_gone(holder.owner):
                LOGGER.info(
                    "journal %s: its last holder (%s) is gone",
                    self.journal.path,
                    describe_owner(holder.owner),
                )
                self.journal.release(JOURNAL_KEY, holder.owner)
                continue
            _, host, pid = owner_parts(holder.owner)
            if host == socket.gethostname() and pid is not None:
                raise self.in_use(holder)  # alive on this host
            deadline = deadline if deadline is not None else loop.time() + self.ttl * 1.5
            if loop.time() >= deadline:
                raise self.in_use(holder)
            await asyncio.sleep(min(0.25, self.ttl / 4))
        self._task = loop.create_task(self._keep())

    async def _keep(self) -> None:
        """Renew the lease; one taken by another process meanwhile (this one stalled past it) is lost."""
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                kept = self.journal.renew(JOURNAL_KEY, self.owner, self.ttl) or self.journal.acquire(
                    JOURNAL_KEY, self.owner, self.ttl
                )
            except Exception as exc:  # a closed journal (the bot is stopping) or a hiccup: the next round
                LOGGER.debug("journal lease not renewed: %s", exc)
                continue
            if kept is None:
                holder = self.journal.lease(JOURNAL_KEY)
                self.on_lost(
                    f"journal {self.journal.path} was taken by another bot process"
                    f"{f' ({describe_owner(holder.owner)})' if holder is not None else ''} while this one"
                    " stalled; this one stops"
                )
                return

    def release(self) -> None:
        """Stop renewing and let the journal go (a clean stop: the next start need not wait)."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
            with contextlib.suppress(Exception):
                self.journal.release(JOURNAL_KEY, self.owner)


def written(journal: Journal, work: Callable[[], Any]) -> Any:
    """Run a lease write at start; a journal that cannot be written (a read-only file, an immutable one, a
    database that refuses) is named in one line instead of failing at the first game."""
    try:
        return work()
    except JournalError:
        raise
    except Exception as exc:  # sqlite3 or psycopg: the start names the journal and the cause
        raise JournalError(f"the journal {journal.path} cannot be written: {exc}") from exc


def check_writable(journal: Journal, user: str) -> None:
    """A fleet member's start: the journal takes a write (a lease of its own, let go at once)."""
    owner = owner_id(user)
    written(journal, lambda: journal.acquire(f"probe:{owner}", owner, 1.0))
    journal.release(f"probe:{owner}", owner)


def check_no_lone_process(journal: Journal) -> None:
    """A fleet member's start: refuse a journal a live lone process holds (:class:`JournalLease`)."""
    holder = journal.lease(JOURNAL_KEY)
    if holder is not None and not owner_is_gone(holder.owner):
        raise JournalInUse(
            f"journal {journal.path} is in use by a bot process that is no fleet member"
            f" ({describe_owner(holder.owner)}); stop it first, or run several processes as a fleet"
            " (see README)"
        )


class Fleet:
    """This process's part in a fleet: its owner id, the leases it holds and the task renewing them."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.journal: Journal = bot.journal
        self.owner = owner_id(bot.options.user)
        self.ttl = bot.options.lease_ttl
        self.server = bot.server_key
        self._held: dict[str, float] = {}  # key -> loop time after which we no longer trust it
        self._lost: set[str] = set()
        self._tasks: list[asyncio.Task[None]] = []
        self._taking_over: asyncio.Task[None] | None = None
        self._background: set[asyncio.Task[None]] = set()  # referenced until done (the loop keeps weak ones)

    # -- keys --------------------------------------------------------------------------------------

    def room_key(self, room_id: int) -> str:
        return f"room:{self.server}:{room_id}"

    def game_key(self, game_id: int) -> str:
        return f"{self.server}:game:{game_id}"

    def game_id_of(self, key: str) -> int | None:
        """The game id of a stand-alone game's journal key (None for leagues and their games)."""
        prefix = f"{self.server}:game:"
        rest = key[len(prefix) :] if key.startswith(prefix) else ""
        return int(rest) if rest.isdigit() else None

    # -- leases ------------------------------------------------------------------------------------

    def acquire(self, key: str) -> bool:
        """Take ``key`` (free, expired or already ours); False when another live process holds it."""
        started = asyncio.get_running_loop().time()
        if self.journal.acquire(key, self.owner, self.ttl) is None:
            return False
        self._held[key] = started + self.ttl * 0.9  # trusted a little less long than it lasts
        self._lost.discard(key)
        return True

    def release(self, key: str) -> None:
        if self._held.pop(key, None) is not None:
            self.journal.release(key, self.owner)

    def holds(self, key: str) -> bool:
        deadline = self._held.get(key)
        return deadline is not None and asyncio.get_running_loop().time() < deadline

    def may_act(self, key: str) -> bool:
        """Whether a referee may apply an action to table ``key``: never on a lease lost or gone stale."""
        return key not in self._lost and (key not in self._held or self.holds(key))

    def renew_all(self) -> None:
        """Renew every lease held; a lease that cannot be renewed nor taken back is lost. A lapsed ``held:``
        lease is lost even when free (a survivor may have moved its messages): taken again, it is read again
        from the journal (:meth:`take_held`)."""
        loop = asyncio.get_running_loop()
        for key in list(self._held):
            started = loop.time()
            renewed = self.journal.renew(key, self.owner, self.ttl) is not None
            if renewed or (not key.startswith(self.held_key("")) and self.acquire(key)):
                self._held[key] = started + self.ttl * 0.9
            else:
                self._lose(key)

    def _lose(self, key: str) -> None:
        """Another process took ``key``: stop refereeing what it covers (never two referees)."""
        self._held.pop(key, None)
        self._lost.add(key)
        LOGGER.warning("lease %s lost: no longer acting for it", key)
        if key.startswith("room:"):
            for referee in self.bot.room_referees:
                drop = getattr(referee, "drop_lobbies", None)
                if drop is not None:
                    drop(int(key.rsplit(":", 1)[-1]))
        if ":league:" in key:
            from cockatrice_ext.bot import formats as bot_formats

            dropper = bot_formats.LEAGUE_DROPPERS.get(str(self.journal.table_meta(key).get("format", "")))
            if dropper is not None:
                dropper(self.bot, key)
        for session in self.bot.sessions:
            for game_id, referee in list(session.games.items()):
                if referee.table_key == key:
                    session.forget_game(game_id, keep_lease=True)
        account = key.removeprefix(self.held_key(""))
        if account != key:
            for session in self.bot.sessions:  # the journal has them: the lease's taker sends them now
                if session.client.user_name == account:
                    session.chat.forget_held()

    # -- members and load --------------------------------------------------------------------------

    def member_key(self, room_id: int) -> str:
        return f"member:{self.server}:{room_id}:{self.owner}"

    def load(self, room_id: int) -> Counter[str]:
        """Games (and requests handed over) per live member sitting in the room, every member counted."""
        members = {lease.owner for lease in self.journal.leases(f"member:{self.server}:{room_id}:")}
        members.add(self.owner)
        load: Counter[str] = Counter({member: 0 for member in members})
        for prefix in (f"{self.server}:game:", f"ask:{self.server}:"):
            for lease in self.journal.leases(prefix):
                if lease.owner in members:
                    load[lease.owner] += 1
        return load

    def least_loaded(self, room_id: int) -> str:
        """The member that should open the room's next game: fewest leases; this process on a tie."""
        load = self.load(room_id)
        return min(load, key=lambda member: (load[member], member != self.owner, member))

    def games_elsewhere(self) -> list[int]:
        """Games other live members referee (or hold for ``!resume``), for ``!games``."""
        games = [
            self.game_id_of(lease.key)
            for lease in self.journal.leases(f"{self.server}:game:")
            if lease.owner != self.owner
        ]
        return sorted(game for game in games if game is not None)

    def claimable(self, key: str) -> bool:
        """Whether this process may rebuild game ``key``: it holds it, or nobody alive does."""
        lease = self.journal.lease(key)
        return lease is None or lease.owner == self.owner

    # -- room commands -------------------------------------------------------------------------------

    def answers_room(self, room_id: int) -> bool:
        return self.holds(self.room_key(room_id))

    async def route_room_command(self, ctx: Context, text: str) -> bool:
        """Whether this process answers ``text`` itself; False when it stays silent or handed it over."""
        if ctx.room_id is None or not self.answers_room(ctx.room_id):
            return False
        try:
            invocation = parse_invocation(text)
        except BadArgument:
            return True
        if invocation is None:
            return True
        target = self._target(invocation.name, invocation.args, ctx.room_id)
        if target is None or target == self.owner:
            return True
        payload = json.dumps([ctx.room_id, ctx.sender, text])
        key = f"ask:{self.server}:{target}:{uuid.uuid4().hex}:{payload}"
        if self.journal.acquire(key, target, self.ttl) is None:
            return True  # cannot hand it over: answer here rather than never
        LOGGER.info("room command %r of %s handed to %s", text, ctx.sender, target)
        self._spawn(self._take_back(key, target, ctx, text))
        return False

    async def _take_back(self, key: str, target: str, ctx: Context, text: str) -> None:
        """Answer a handed-over command here if its member has not claimed it in time (it died)."""
        await asyncio.sleep(ASK_TIMEOUT)
        if self.journal.release(key, target):
            LOGGER.warning("%s did not claim room command %r: answering it here", target, text)
            await self.bot.answer_room_command(ctx, text)

    def _target(self, name: str, args: str, room_id: int) -> str | None:
        """Who should run room command ``name``: a game's holder, the least loaded member, or us (None)."""
        from cockatrice_ext.bot import formats as bot_formats
        from cockatrice_ext.bot.referee import FormatRoom

        if name == "resume":
            word = args.split()[0] if args.split() else ""
            lease = self.journal.lease(self.game_key(int(word))) if word.isdigit() else None
            return lease.owner if lease is not None else None
        for referee in self.bot.room_referees:
            if name in referee.commands.names("room"):
                stand_alone = (
                    isinstance(referee, FormatRoom) and referee.format_name in bot_formats.REBUILDERS
                )
                return self.least_loaded(room_id) if stand_alone else None
        return None

    async def serve_asks(self) -> None:
        """Claim the room commands handed to this process (each exactly once) and answer them."""
        from cockatrice_ext.bot.referee import Context

        prefix = f"ask:{self.server}:{self.owner}:"
        for lease in self.journal.leases(prefix):
            if not self.journal.release(lease.key, self.owner):
                continue
            room_id, sender, text = json.loads(lease.key[len(prefix) :].split(":", 1)[1])
            ctx = Context(self.bot, "room", str(sender), room_id=int(room_id))
            answer = functools.partial(self.bot.answer_room_command, ctx, str(text))
            self.bot.commands_of(str(sender)).submit(answer)  # in order with the sender's other commands

    # -- messages kept for offline users -----------------------------------------------------------

    def held_key(self, account: str) -> str:
        return f"held:{self.server}:{account}"

    def take_own_held(self) -> int:
        """Take each of our sessions' account lease, even from the process that ran it before (it is gone:
        we are logged in under that name), and its messages from the journal, which has every one (also
        after a lapsed lease). At start, before anything is kept: a new message never overwrites an old
        one. How many users' messages were given back."""
        given = 0
        for session in self.bot.sessions:
            account = session.client.user_name
            key = self.held_key(account)
            if key in self._held:
                continue
            taken = self.acquire(key)
            if not taken and (lease := self.journal.lease(key)) is not None:
                taken = self.journal.release(key, lease.owner) and self.acquire(key)
            session.chat.forget_held()  # in memory only while ours (else the lease's holder sends them)
            if taken:
                given += self.bot.adopt_held(self.journal.notes(self.bot.held_prefix(account)))
        return given

    async def take_held(self) -> None:
        """Each round: our sessions' accounts (:meth:`take_own_held`), and the messages of accounts nobody
        runs any more, whose lease has expired: moved to our main session, the lease let go."""
        bot = self.bot
        given = self.take_own_held()
        ours = {session.client.user_name for session in bot.sessions}
        prefix = bot.held_prefix()
        accounts = {key[len(prefix) :].partition("\n")[0] for key in self.journal.notes(prefix)} - ours
        for account in sorted(accounts):
            key = self.held_key(account)
            if key not in self._held and self.acquire(key):
                given += bot.adopt_held(self.journal.notes(bot.held_prefix(account)))
                LOGGER.info("%s is gone: the messages it kept for offline users are sent from here", account)
                self.release(key)
        if given:
            await bot.watch_users()  # users already back get theirs now

    # -- take-over ---------------------------------------------------------------------------------

    async def take_over(self) -> None:
        """Lease the expired games of our rooms: resume them in place if seated, else announce them; take
        the messages kept for offline users by accounts nobody runs any more."""
        for key in self.journal.expired_tables():
            game_id = self.game_id_of(key)
            if game_id is None and (handle := self.moved_aside_handle(key)):
                await self._take_over_moved_aside(key, handle)
                continue
            if game_id is None:
                await self._take_over_league(key)
                continue
            meta = self.journal.table_meta(key)
            room_id = int(meta.get("room_id", -1))
            if room_id not in self.bot.room_ids or not self.acquire(key):
                continue
            seated = next((s for s in self.bot.sessions if game_id in s.client.games), None)
            if seated is None:
                seated = await self._log_in_as_referee(str(meta.get("referee", "")), game_id)
            if seated is not None and game_id not in seated.games:
                LOGGER.info("taking over game %d in place (seated as %s)", game_id, seated.options.user)
                try:
                    await seated.resume_game(game_id, room_id)
                except Exception:  # offered for !resume below rather than held and forgotten
                    LOGGER.exception("resuming game %d in place failed", game_id)
            if game_id not in self.bot.all_games():
                LOGGER.info("taking over lost game %d: offering !resume", game_id)
                await self.bot.room_say(room_id, self.bot.lost_line(game_id, key))
        await self.take_held()

    def moved_aside_handle(self, key: str) -> str:
        """``N@K`` for a game record moved aside (its number given to a new game), else ""."""
        prefix = f"{self.server}:game:"
        number, _, generation = key.removeprefix(prefix).partition("@")
        return (
            f"{number}@{generation}"
            if key.startswith(prefix) and number.isdigit() and generation.isdigit()
            else ""
        )

    async def _take_over_moved_aside(self, key: str, handle: str) -> None:
        """An expired record moved aside: its game is gone from the server, so offer ``!resume N@K``."""
        room_id = int(self.journal.table_meta(key).get("room_id", -1))
        if room_id in self.bot.room_ids and self.acquire(key):
            LOGGER.info("taking over lost game %s: offering !resume", handle)
            await self.bot.room_say(room_id, self.bot.lost_line(handle, key))

    async def _take_over_league(self, key: str) -> None:
        """An expired league of one of our rooms: lease it and referee it from here on."""
        from cockatrice_ext.bot import formats as bot_formats

        if not key.startswith(f"{self.bot.server_key}:league:"):
            return
        meta = self.journal.table_meta(key)
        taker = bot_formats.LEAGUE_TAKERS.get(str(meta.get("format", "")))
        if taker is None or int(meta.get("room_id", -1)) not in self.bot.room_ids or not self.acquire(key):
            return
        LOGGER.info("taking over league %s", key)
        try:
            await taker(self.bot, key)
        except Exception:
            LOGGER.exception("taking over league %s failed", key)
            self.release(key)

    async def _log_in_as_referee(self, account: str, game_id: int) -> Bot | None:
        """With registered accounts (one password for the fleet), log in as the account seated as the
        game's referee: the server re-seats it, and the game resumes in place. None when that fails."""
        if not self.bot.options.password or not account:
            return None
        if any(session.options.user == account for session in self.bot.sessions):
            return None  # already logged in, and not seated in that game
        try:
            session = await self.bot.add_session(account)
        except Exception as exc:  # a wrong password, a server refusal: fall back to !resume
            LOGGER.warning("cannot log in as %s to take game %d over: %s", account, game_id, exc)
            return None
        return session if game_id in session.client.games else None

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    # -- the task ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Join the fleet and take the free rooms now (so a ready process answers), then keep at it."""
        self.keep_leases()
        await self.take_over()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._keep()), loop.create_task(self._poll_asks())]

    def keep_leases(self) -> None:
        """One renewal round: our leases, our membership, and the rooms nobody answers (a room taken opens
        the league lobbies its journal notes keep: its last holder may have died with them)."""
        self.renew_all()
        for key in map(self.member_key, self.bot.room_ids):
            if not self.holds(key):
                self.acquire(key)
        taken = [room for room in self.bot.room_ids if not self.holds(self.room_key(room))]
        taken = [room for room in taken if self.acquire(self.room_key(room))]
        if taken:
            self._spawn(self._rooms_taken(taken))

    async def _rooms_taken(self, room_ids: list[int]) -> None:
        for referee in list(self.bot.room_referees):
            restore = getattr(referee, "restore_lobbies", None)
            if restore is not None:
                try:
                    await restore(room_ids)
                except Exception:  # a lobby note that cannot be read must not stop the others
                    LOGGER.exception("opening the kept lobbies of rooms %s failed", room_ids)

    async def _keep(self) -> None:
        """Renew every third of the ttl; take-overs (logins, resumes) run beside, never delaying it."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.ttl / 3)
            try:
                self.keep_leases()
            except Exception:  # a database hiccup: the next round tries again
                LOGGER.exception("renewing the fleet's leases failed")
            if self._taking_over is None or self._taking_over.done():
                self._taking_over = loop.create_task(self._take_over_logged())

    async def _take_over_logged(self) -> None:
        try:
            await self.take_over()
        except Exception:
            LOGGER.exception("taking games over failed")

    async def _poll_asks(self) -> None:
        while True:
            await asyncio.sleep(ASK_POLL_SECONDS)
            try:
                await self.serve_asks()
            except Exception:
                LOGGER.exception("serving handed-over room commands failed")

    async def stop(self) -> None:
        """Leave the fleet: stop the task and give every lease up, so the others take over at once."""
        tasks = [*self._tasks, *([self._taking_over] if self._taking_over is not None else [])]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for key in list(self._held):
            self.release(key)
