"""A fleet: two ``bot run`` processes sharing one PostgreSQL journal in one Servatrice room.

Room commands are answered once, new games spread over both processes, and when the room's holder is
killed with SIGKILL mid-auction the other process offers ``!resume`` (issue 11 asked for it within 10 s:
the tests print how long it took) and finishes the game with the gold its journal holds (skips with the
reason when PostgreSQL or Servatrice is absent).
The leases' rules (a lost lease stops a referee, load, a command applied twice) are also checked on
two unconnected bots sharing an SQLite journal: leases work the same there.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import select
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from bot_players import Player, bot_line, wait_until
from postgres_server import postgres_fixture, postgres_url_fixture  # noqa: F401  (fixtures)
from servatrice import ServatriceServer
from test_auction_e2e import BLOCK, wait_note

from cockatrice_ext.bot import fleet as fleet_module
from cockatrice_ext.bot.chat import ChatScheduler
from cockatrice_ext.bot.commands import NotAllowed
from cockatrice_ext.bot.referee import COMMAND_ACTION_IDS, Context, GameReferee
from cockatrice_ext.bot.runtime import Bot, BotOptions
from cockatrice_ext.client.errors import NameNotFound
from cockatrice_ext.formats import auction as rules
from cockatrice_ext.journal import Journal, Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from journal_toys import Add, CounterConfig, CounterEngine

TAKE_OVER_WAIT = 60.0
"""Seconds a test waits for a survivor to take over a killed member's game, room or league: the leases'
ttl (5 s) and a round of the survivor's, plus the line's way, on a loaded machine. A bound to wait, not a
promise (issue 11 asked for 10 s: the tests print what they saw)."""
START_WAIT = 60.0
"""Seconds a ``bot run`` process may take to say it is ready: Python's start-up and imports (up to 2.3 s on
a loaded 2-core machine), login, the journal, the room."""
GAMES = 20  # the figure: two processes, twenty games, one process killed mid-auction


def read_ready(process: subprocess.Popen[bytes], user: str, log: Path, timeout: float = START_WAIT) -> None:
    """Wait for the first line ``process`` prints, which must be its ready line; a process that says
    nothing (hung, or dead) within ``timeout`` s fails the test with its log, never blocks it."""
    assert process.stdout is not None
    said = b""
    deadline = time.monotonic() + timeout
    while b"\n" not in said:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([process.stdout], [], [], left)[0]:
            raise AssertionError(f"{user} said nothing within {timeout} s:\n{log.read_text()}")
        chunk = os.read(process.stdout.fileno(), 4096)
        if not chunk:  # the process ended
            break
        said += chunk
    ready = said.decode(errors="replace").partition("\n")[0]
    assert f"referee {user} is in 1 room(s)" in ready, f"{user} said {ready!r}, not ready:\n{log.read_text()}"


def start_bot(
    members: contextlib.ExitStack,
    url: str,
    journal_url: str,
    user: str,
    block: Path,
    log: Path,
    password: str = "",
    fmt: str = "auction",
) -> subprocess.Popen[bytes]:
    """``bot run`` as a fleet member refereeing ``fmt``; returns once it says it is ready. It is stopped
    when ``members`` closes, also when it never gets ready or a later member fails to start."""
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", url, "--user", user]
    command += ["--room", "Bot room", "--format", fmt, "--journal", journal_url, "--relaxed-flood"]
    command += ["--waiting-games", "30"]  # one player asks for many games here
    command += ["--auction-block", str(block), "--auction-seed", "7"] if fmt == "auction" else []
    secret = {"COCKATRICE_PASSWORD": password} if password else {}
    with log.open("wb") as errors:
        process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=errors,
            env={**os.environ, "PYTHONUNBUFFERED": "1", **secret},
        )
    members.callback(stop, process)
    read_ready(process, user, log)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    """Stop a member (SIGTERM, then SIGKILL); nothing for one that has ended."""
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdout is not None:
        process.stdout.close()


@pytest.fixture
def members() -> Iterator[contextlib.ExitStack]:
    """Where :func:`start_bot` registers the fleet processes a test starts: each is stopped at the test's
    end, whatever failed (a member that did not start, or one started after it)."""
    with contextlib.ExitStack() as stack:
        yield stack


async def room_answers(
    player: Player, room_id: int, command: str, pattern: str, settle: float = 1.5
) -> list[str]:
    """Say ``command`` in the room; every line matching ``pattern`` heard within ``settle`` s of the first."""
    since = player.mark()
    await player.client.room_say(room_id, command)
    await player.wait_line(lambda t: re.search(pattern, t) is not None, since=since)
    await asyncio.sleep(settle)  # a second process answering too would be heard by now
    return [text for scope, text in player.heard[since:] if scope == "room" and re.search(pattern, text)]


def game_owners(journal: Journal, server: str) -> dict[int, str]:
    """Game id -> the account of the fleet member leasing it (owner ids start with the account)."""
    prefix = f"{server}:game:"
    return {int(lease.key[len(prefix) :]): lease.owner.split("@")[0] for lease in journal.leases(prefix)}


async def bid_one_on_the_first_lot(
    players: tuple[Player, Player], room_id: int, game: int, referee: str
) -> tuple[Player, Player, int, str]:
    """Both players sit; the active one bids 1 on lot 1 (Giant Growth with seed 7).

    Returns the active and the other player, the referee's seat and the lot note then.
    """
    alice, bob = players
    mark = alice.mark()  # every game played says its own turn order: this game's comes after the sits
    seats = {await alice.sit(room_id, game): alice, await bob.sit(room_id, game): bob}
    await bot_line(alice, r"Turn order", mark, timeout=20)
    mirror = alice.client.games[game]
    bot_pid = next(pid for pid, p in mirror.players.items() if p.name == referee)
    await wait_until(lambda: mirror.active_player_id in seats, timeout=20, what="a player's turn")
    active = seats[mirror.active_player_id]
    passive = bob if active is alice else alice
    await active.phase(game, 2)
    await wait_note(passive, game, bot_pid, rf"Auction 1: Giant Growth\nNo bid yet\nTo bid: {active.name}")
    await active.say(game, "!bid 1")
    note = await wait_note(passive, game, bot_pid, rf"High bid: 1 by {active.name}\nTo bid: {passive.name}")
    return active, passive, bot_pid, note


async def keep_and_concede(journal: Journal, key: str, active: Player, passive: Player) -> int:
    """The buyer keeps the card, the other concedes: the journal closes the game; the buyer's gold in it.

    Also checks that no action id was journaled twice.
    """
    game = int(key.rsplit(":", 1)[1])
    await active.say(game, "!keep")
    await passive.say(game, "!concede")
    await wait_until(lambda: journal.closed_reason(key) is not None, what="the game over")
    engine = journal.restore(key)
    assert isinstance(engine, rules.AuctionEngine) and engine.is_over()
    ids = [e.action_id for e in journal.entries(key)]
    assert len(ids) == len(set(ids)), ids
    names = journal.table_meta(key)["names"]
    return engine.gold(next(p for p in engine.players if names[str(p)] == active.name))


async def play_one_lot_to_the_end(
    journal: Journal, url: str, players: tuple[Player, Player], room_id: int, game: int, referee: str
) -> None:
    """Lot 1 bought for 1 and kept, then a concession: the journal holds the sale and 9 gold for the buyer."""
    active, passive, _, _ = await bid_one_on_the_first_lot(players, room_id, game, referee)
    mark = active.mark()
    await passive.say(game, "!pass")
    await bot_line(active, rf"{active.name}: !cast or !keep Giant Growth", mark)
    key = f"{url}:game:{game}"
    assert await keep_and_concede(journal, key, active, passive) == 9
    kept = [
        effect
        for entry in journal.entries(key)
        for effect in entry.effects
        if effect.get("type") == "CardKept" and effect.get("card", {}).get("name") == "Giant Growth"
    ]
    assert len(kept) == 1, kept


@pytest.mark.servatrice
def test_two_processes_share_the_room_and_take_over_a_killed_ones_game(
    servatrice: ServatriceServer, postgres_url: str, tmp_path: Path, members: contextlib.ExitStack
) -> None:
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    url = servatrice.ws_url
    holder = start_bot(members, url, postgres_url, "fleet_a", block, tmp_path / "a.log")
    other = start_bot(members, url, postgres_url, "fleet_b", block, tmp_path / "b.log")
    journal = Journal(postgres_url)

    async def scenario() -> None:
        alice = await Player.connect(url, "alice_f")
        bob = await Player.connect(url, "bob_f")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for player in (alice, bob):
                await player.client.join_room(room_id)

            # One answer per room command, although both processes hear it.
            listing = await room_answers(alice, room_id, "!games", r"^(No refereed games|Refereeing)")
            assert listing == ["No refereed games right now."], listing
            games = []
            for _ in range(GAMES):
                answers = await room_answers(alice, room_id, "!auction new 2", r"Auction Magic game #", 0.5)
                assert len(answers) == 1, answers
                games.append(int(re.search(r"#(\d+)", answers[0]).group(1)))  # type: ignore[union-attr]
            await asyncio.sleep(1.0)
            assert len([t for s, t in alice.heard if s == "room" and "Auction Magic game #" in t]) == GAMES
            owners = game_owners(journal, url)
            assert sorted(owners) == sorted(games), (owners, games)
            assert Counter(owners.values()) == {"fleet_a": GAMES // 2, "fleet_b": GAMES // 2}, owners
            listing = await room_answers(alice, room_id, "!games", r"^Refereeing")
            assert len(listing) == 1 and all(f"#{g}" in listing[0] for g in games), listing

            # Every game but two is played to its end now, on both processes: the buyer of lot 1 keeps it
            # and the journal says so, with the gold the buyer was seen to have.
            game = next(g for g in games if owners[g] == "fleet_a")  # killed mid-auction below
            last = next(g for g in reversed(games) if owners[g] == "fleet_b")  # played after the take-over
            for played in [g for g in games if g not in (game, last)]:
                await play_one_lot_to_the_end(journal, url, (alice, bob), room_id, played, owners[played])

            # Mid-auction in a game of the room's holder: a bought card kept, a standing bid of 2.
            active, passive, bot_pid, _ = await bid_one_on_the_first_lot(
                (alice, bob), room_id, game, "fleet_a"
            )
            mark = passive.mark()
            await passive.say(game, "!pass")
            await bot_line(passive, rf"{active.name}: !cast or !keep Giant Growth", mark)
            await active.say(game, "!keep")
            await wait_note(
                passive, game, bot_pid, rf"Auction 2: Naturalize\nNo bid yet\nTo bid: {active.name}"
            )
            await active.say(game, "!bid 2")
            before = await wait_note(
                passive, game, bot_pid, rf"High bid: 2 by {active.name}\nTo bid: {passive.name}"
            )
            old_key = f"{url}:game:{game}"
            old_ids = [e.action_id for e in journal.entries(old_key)]
            assert len(old_ids) == len(set(old_ids)) and all(i and i.startswith("cmd:") for i in old_ids[-4:])

            # SIGKILL the holder: the other process offers the game for !resume.
            mark = alice.mark()
            holder.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            holder.wait(10)
            await bot_line(alice, rf"lost its seat .*!resume {game}", mark, timeout=TAKE_OVER_WAIT)
            print(f"take-over: the lost game was offered {time.monotonic() - killed:.1f} s after the kill")
            assert game_owners(journal, url)[game] == "fleet_b"

            # The survivor now answers the room (once), rebuilds the game and referees it to its end.
            answers = await room_answers(alice, room_id, f"!resume {game}", rf"Game #{game} continues as")
            assert len(answers) == 1, answers
            new_game = int(re.search(r"as game #(\d+)", answers[0]).group(1))  # type: ignore[union-attr]
            mark = alice.mark()
            for player in (alice, bob):
                await player.sit(room_id, new_game)
            await bot_line(alice, rf"Game #{game} continues here: .*auction 2: Naturalize, high bid 2", mark)
            new_mirror = alice.client.games[new_game]
            new_bot = next(pid for pid, p in new_mirror.players.items() if p.name == "fleet_b")
            after = await wait_note(passive, new_game, new_bot, rf"High bid: 2 by {active.name}")
            assert after == before, (before, after)
            await passive.say(new_game, "!pass")
            await bot_line(alice, rf"Sold: Naturalize to {active.name} for 2 \(7 gold left\)", mark)
            await bot_line(alice, rf"{active.name}: !cast or !keep Naturalize", mark)
            new_key = f"{url}:game:{new_game}"
            assert await keep_and_concede(journal, new_key, active, passive) == 7

            # The journal: the old game's actions copied once, the game closed with the gold seen.
            assert journal.closed_reason(old_key) == f"resumed as game {new_game}"
            assert journal.table_meta(old_key)["referee"] == "fleet_a"
            assert journal.table_meta(new_key)["referee"] == "fleet_b"  # whom to log in as, next time
            assert [e.action_id for e in journal.entries(new_key)][: len(old_ids)] == old_ids

            # The survivor's own last game is played to its end too: all twenty games are over.
            await play_one_lot_to_the_end(journal, url, (alice, bob), room_id, last, "fleet_b")
            assert all(journal.closed_reason(f"{url}:game:{g}") for g in games)
        finally:
            await alice.close()
            await bob.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 150))
    finally:
        journal.close()
        stop(holder)
        stop(other)


@pytest.mark.servatrice
def test_with_registered_accounts_the_survivor_logs_in_as_the_dead_referee_and_resumes_in_place(
    servatrice_factory: Any, mariadb: Any, postgres_url: str, tmp_path: Path, members: contextlib.ExitStack
) -> None:
    """SQL mode: the killed process's account keeps its seat; the other process logs in as it (the fleet's
    one password), is re-seated, and the same game goes on with the same lot and gold, no ``!resume``."""
    from mariadb_server import sql_config

    for name in ("fleet_x", "fleet_y", "alice_x", "bobby_x"):
        mariadb.add_user(name, "secret")
    server = servatrice_factory.start(sql_config(mariadb))
    block = tmp_path / "block.txt"
    block.write_text(BLOCK)
    url = server.ws_url
    first = start_bot(members, url, postgres_url, "fleet_x", block, tmp_path / "x.log", password="secret")
    second = start_bot(members, url, postgres_url, "fleet_y", block, tmp_path / "y.log", password="secret")
    journal = Journal(postgres_url)

    async def scenario() -> None:
        alice = await Player.connect(url, "alice_x", "secret")
        bob = await Player.connect(url, "bobby_x", "secret")
        try:
            room_id = await alice.client.room_id_by_name("Bot room")
            for player in (alice, bob):
                await player.client.join_room(room_id)
            (answer,) = await room_answers(alice, room_id, "!auction new 2", r"Auction Magic game #", 0.5)
            game = int(re.search(r"#(\d+)", answer).group(1))  # type: ignore[union-attr]
            assert game_owners(journal, url) == {game: "fleet_x"}
            active, passive, bot_pid, before = await bid_one_on_the_first_lot(
                (alice, bob), room_id, game, "fleet_x"
            )
            mirror = alice.client.games[game]

            mark = alice.mark()
            first.send_signal(signal.SIGKILL)
            killed = time.monotonic()
            first.wait(10)
            back = r"Referee back\. .*auction 1: Giant Growth, high bid 1"
            await bot_line(alice, back, mark, timeout=TAKE_OVER_WAIT)
            print(f"take-over in place: back {time.monotonic() - killed:.1f} s after the kill")
            assert bot_pid in mirror.players and game_owners(journal, url) == {game: "fleet_y"}
            assert not [t for s, t in alice.heard[mark:] if "!resume" in t]
            assert await wait_note(passive, game, bot_pid, r"High bid: 1") == before
            await passive.say(game, "!pass")
            await bot_line(alice, rf"Sold: Giant Growth to {active.name} for 1 \(9 gold left\)", mark)
            assert await keep_and_concede(journal, f"{url}:game:{game}", active, passive) == 9
        finally:
            await alice.close()
            await bob.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 120))
    finally:
        journal.close()
        stop(first)
        stop(second)


LEASE_TTL = 1.5
"""Leases of the tests where a process dies: short, yet long enough that a loaded machine (CI, 2 cores)
installs both processes before the first one's lease runs out."""


def unconnected_bot(journal: Path, user: str, ttl: float = 5.0) -> Bot:
    """A fleet member that never connects: enough for its leases."""
    options = BotOptions(url="ws://fleet.test", user=user, fleet=True, lease_ttl=ttl)
    bot = Bot(options, journal=Journal(journal))
    bot.client = SimpleNamespace(games={}, user_name=user)  # seated nowhere
    return bot


class Users:
    """The server as far as private messages go: who is logged in, and what each bot sent to whom."""

    def __init__(self) -> None:
        self.online: set[str] = set()
        self.sent: list[tuple[str, str, str]] = []  # (sending account, user, message)

    def serve(self, bot: Bot) -> Bot:
        """``bot`` sends private messages here (refused for a user not logged in) and may list the users."""
        account = bot.client.user_name

        async def send(destination: Any, message: str) -> None:
            if destination[1] not in self.online:
                raise NameNotFound(6, None, command="Command_Message")
            self.sent.append((account, destination[1], message))

        async def list_users() -> list[Any]:
            return [SimpleNamespace(name=name) for name in sorted(self.online)]

        bot.client.list_users = list_users
        bot.chat = ChatScheduler(send, lambda _d, _m: 0.0, on_held=bot._record_held)
        return bot


def test_what_a_dead_member_kept_for_an_offline_player_is_sent_by_a_survivor(tmp_path: Path) -> None:
    """A fleet member keeps a message for zed (offline) in the journal and dies: while its lease lives the
    others leave the message alone; once it expires a survivor takes it and sends it when zed is back. The
    dead member, back from a stall, has lost the lease and forgets its copy: zed hears it once."""

    async def scenario() -> tuple[Users, list[str], list[str], dict[str, Any]]:
        users = Users()
        dead = users.serve(unconnected_bot(tmp_path / "j.sqlite3", "dead", ttl=LEASE_TTL))
        survivor = users.serve(unconnected_bot(tmp_path / "j.sqlite3", "survivor"))
        assert dead.fleet is not None and survivor.fleet is not None
        for bot in (dead, survivor):
            await bot.fleet.take_over()  # each holds its own account's lease now
        dead.chat.say(("user", "zed"), "Round 1: your game vs amy is #4.")
        await wait_until(lambda: dead.chat.held("zed"), timeout=5, what="the message kept for zed")
        await survivor.fleet.take_over()
        left_alone = survivor.chat.held("zed")  # its member is alive: not taken
        await asyncio.sleep(LEASE_TTL + 0.3)  # the dead member renews nothing: its lease expires
        await survivor.fleet.take_over()
        taken = survivor.chat.held("zed")
        dead.fleet.renew_all()  # back from a stall: the lease lapsed, its messages are the survivor's now
        await dead.fleet.take_over()  # its own lease again, read from the journal: nothing left for zed
        assert dead.chat.held("zed") == []
        users.online.add("zed")
        for bot in (dead, survivor):
            bot.user_seen("zed")
            await bot.chat.flush(timeout=5)
        notes = survivor.journal.notes(survivor.held_prefix())
        for bot in (dead, survivor):
            await bot.fleet.stop()
        return users, left_alone, taken, notes

    users, left_alone, taken, notes = asyncio.run(scenario())
    assert left_alone == [] and taken == ["Round 1: your game vs amy is #4."]
    assert users.sent == [("survivor", "zed", "While you were away: Round 1: your game vs amy is #4.")]
    assert notes == {}


def referee_with_table(bot: Bot, game_id: int) -> GameReferee:
    referee = GameReferee(bot, game_id, room_id=0)
    bot.adopt_game(referee)
    referee.table = Table.create(
        bot.journal, referee.table_key, CounterEngine(CounterConfig(limit=99), seed=1)
    )
    return referee


def test_a_lease_taken_by_another_process_stops_the_referee(tmp_path: Path) -> None:
    """Never two referees: once the lease cannot be renewed, the referee is dropped and cannot act."""

    async def scenario() -> None:
        slow = unconnected_bot(tmp_path / "j.sqlite3", "slow", ttl=LEASE_TTL)
        referee = referee_with_table(slow, 7)
        assert slow.fleet is not None and slow.fleet.may_act(referee.table_key)
        referee.apply(Add(player=1))
        await asyncio.sleep(LEASE_TTL + 0.3)  # the lease expired: the process stalled longer than its ttl
        with pytest.raises(NotAllowed, match="being handed to another referee"):
            referee.apply(Add(player=1))
        thief = Journal(tmp_path / "j.sqlite3")
        assert thief.acquire(referee.table_key, "taker", 10.0) is not None
        slow.fleet.renew_all()
        assert 7 not in slow.games and referee.closed
        with pytest.raises(NotAllowed):
            referee.apply(Add(player=1))
        assert [e.seq for e in thief.entries(referee.table_key)] == [1]

    asyncio.run(scenario())


def test_the_least_loaded_live_member_of_the_room_gets_the_next_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        busy, idle, elsewhere = (
            unconnected_bot(tmp_path / "j.sqlite3", name) for name in ("busy", "idle", "far")
        )
        assert busy.fleet is not None and idle.fleet is not None and elsewhere.fleet is not None
        for bot, room in ((busy, 1), (idle, 1), (elsewhere, 2)):
            bot.room_ids.append(room)
            await bot.fleet.start()  # type: ignore[union-attr]
        assert busy.fleet.least_loaded(1) == busy.fleet.owner  # a tie: the asked process keeps it
        referee_with_table(busy, 1)
        assert busy.fleet.least_loaded(1) == idle.fleet.owner
        referee_with_table(idle, 2)
        referee_with_table(idle, 3)
        assert busy.fleet.least_loaded(1) == busy.fleet.owner  # not the idle member of another room
        assert elsewhere.fleet.least_loaded(2) == elsewhere.fleet.owner
        await idle.fleet.stop()  # a member that left is not counted
        assert busy.fleet.load(1) == {busy.fleet.owner: 1}
        assert idle.journal.leases(f"{busy.server_key}:game:")[0].owner == busy.fleet.owner
        for fleet in (busy.fleet, elsewhere.fleet):
            await fleet.stop()

    asyncio.run(scenario())


def test_a_command_applied_twice_is_refused_by_its_id(tmp_path: Path) -> None:
    """The same chat command (game, seat, game clock, rank in that second, text) maps to the same action
    ids: applied again, e.g. by a process replaying it, the journal refuses it and nothing changes."""

    async def scenario() -> None:
        bot = unconnected_bot(tmp_path / "j.sqlite3", "once")
        referee = referee_with_table(bot, 4)
        ids = [referee.command_ids(2, "!add"), referee.command_ids(2, "!add")]
        assert ids[0].command != ids[1].command  # the same words twice in one second: two commands
        replayed = GameReferee(bot, 4, room_id=0).command_ids(2, "!add")  # another process, same event
        assert replayed.command == ids[0].command
        for command_ids in (ids[0], replayed):
            token = COMMAND_ACTION_IDS.set(command_ids)
            try:
                if command_ids is ids[0]:
                    referee.apply(Add(player=2))
                else:
                    with pytest.raises(NotAllowed, match="already applied"):
                        referee.apply(Add(player=2))
            finally:
                COMMAND_ACTION_IDS.reset(token)
        assert [e.action_id for e in bot.journal.entries(referee.table_key)] == [f"{ids[0].command}/1"]
        assert referee.table is not None and referee.table.engine.snapshot() == {"total": 1}

    asyncio.run(scenario())


def test_a_room_command_is_answered_by_one_member_and_resume_goes_to_the_games_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room's holder answers (``!games``); ``!resume GAME`` is handed to the member holding that game,
    which claims it once, or else taken back by the holder; a member without the room stays silent."""

    async def scenario() -> None:
        holder, other = (unconnected_bot(tmp_path / "j.sqlite3", name) for name in ("holder", "other"))
        ran: list[tuple[str, str, int | None, str]] = []
        for bot in (holder, other):
            bot.room_ids.append(3)
            assert bot.fleet is not None
            bot.fleet.keep_leases()

            async def answer(ctx: Context, text: str, bot: Bot = bot) -> None:
                ran.append((bot.options.user, ctx.sender, ctx.room_id, text))

            bot.answer_room_command = answer  # type: ignore[method-assign]
        assert holder.fleet is not None and other.fleet is not None
        assert holder.fleet.answers_room(3) and not other.fleet.answers_room(3)
        referee_with_table(other, 12)  # the other member holds game 12 (e.g. offered for !resume)

        for bot, fleet in ((holder, holder.fleet), (other, other.fleet)):
            ctx = Context(bot, "room", "alice", room_id=3)
            assert not await fleet.route_room_command(ctx, "!resume 12")  # handed over, or silent
            assert await fleet.route_room_command(ctx, "!games") is (bot is holder)
        await holder.fleet.serve_asks()  # not handed to the holder
        for _ in range(2):
            await other.fleet.serve_asks()
        await asyncio.sleep(0)
        assert ran == [("other", "alice", 3, "!resume 12")]
        assert other.journal.leases(f"ask:{other.server_key}:") == []

        # A member that dies before claiming: the holder takes the command back and answers it, once.
        monkeypatch.setattr(fleet_module, "ASK_TIMEOUT", 0.1)
        assert other.journal.acquire(f"{holder.server_key}:game:13", "dead member", 10.0) is not None
        assert not await holder.fleet.route_room_command(
            Context(holder, "room", "bob", room_id=3), "!resume 13"
        )
        await asyncio.sleep(0.3)
        await other.fleet.serve_asks()
        assert ran[1:] == [("holder", "bob", 3, "!resume 13")]

    asyncio.run(scenario())


@pytest.mark.parametrize("web", [False, True], ids=["chat", "web view"])
def test_a_league_whose_process_died_is_taken_over_and_its_members_told(tmp_path: Path, web: bool) -> None:
    """Leagues are leased like games: a restarting process leaves a live league alone, a survivor restores
    an expired one into its room and tells its members (with its web view, each with a new link to their
    page, which opens it there), and the old holder drops it when it comes back."""
    import aiohttp
    from servatrice import free_port
    from test_league_bot import market_cards

    from cockatrice_ext.bot.league import install_market
    from cockatrice_ext.bot.league_rooms import LeagueRoom
    from cockatrice_ext.formats import league as core
    from cockatrice_ext.formats import market as mk
    from cockatrice_ext.web.server import WebOptions, WebView

    async def scenario() -> None:
        journal_path = tmp_path / "j.sqlite3"
        dead = unconnected_bot(journal_path, "dead", ttl=LEASE_TTL)
        survivor = unconnected_bot(journal_path, "survivor", ttl=LEASE_TTL)
        for bot in (dead, survivor):
            bot.server_key = "ws://fleet.test"
            bot.room_ids.append(0)
        config = mk.MarketConfig(players=("al", "bo"), rounds=1, cards=market_cards())
        engine = mk.MarketDraftEngine(config, seed=3)
        names = [c.name for c in engine.config.cards]
        meta = {
            "kind": "league",
            "format": "market",
            "options": {"format": "market", "block": "", "rounds": 1, "seed": 3, "game_password": ""},
            "room_id": 0,
            "block": "test",
            "game_names": names,
            "games": {},
        }
        key = "ws://fleet.test:league:0:market:1"
        table = Table.create(dead.journal, key, engine, meta=meta)
        table.apply(core.Start(player=None))
        assert dead.fleet is not None and survivor.fleet is not None
        await install_market(dead)  # the first process referees it (its lease)
        assert [league.key for league in dead.private_referees] == [key]

        await install_market(survivor)  # the league is alive elsewhere: left alone
        room = next(r for r in survivor.room_referees if isinstance(r, LeagueRoom))
        assert room.leagues == []

        told: list[tuple[str, str]] = []

        async def tell(user: str, text: Any, *, raw: bool = False) -> None:
            told.append((user, str(text)))  # a league's line comes tagged (its topic, whether it is bulk)

        survivor.tell = tell  # type: ignore[method-assign]
        pages = WebView(survivor, WebOptions(port=free_port())) if web else None
        if pages is not None:
            await pages.start()
        await asyncio.sleep(LEASE_TTL + 0.3)  # the dead process renews nothing: its lease expires
        await survivor.fleet.take_over()
        assert [league.key for league in room.leagues] == [key]
        assert room.leagues[0].engine.snapshot() == engine.snapshot()
        assert sorted(user for user, _ in told) == ["al", "bo"]
        said = "Market Draft league #1 goes on with me as its referee: send me your commands (!help)."
        if pages is None:  # and what the league waits for from them (the queued lines died with the process)
            assert all(text.startswith(f"{said} Your pack (15): 1. ") for _, text in told), told
        else:
            async with aiohttp.ClientSession() as session:
                for user, text in told:
                    pattern = rf"{re.escape(said)} Your pack, market and pool: (\S+) or !pack"
                    link = re.fullmatch(pattern, text)
                    assert link is not None and link.group(1).startswith(pages.base_url), text
                    async with (
                        asyncio.timeout(5),
                        session.get(link.group(1) + "/events") as stream,  # the page's live view
                    ):
                        async for raw in stream.content:
                            if raw.startswith(b"data:"):
                                assert json.loads(raw[5:])["private"]["player"] == user
                                break
            await pages.stop()

        dead.fleet.renew_all()  # back from a stall: the lease is the survivor's now
        assert not dead.fleet.may_act(key) and dead.private_referees == []
        dead_room = next(r for r in dead.room_referees if isinstance(r, LeagueRoom))
        assert dead_room.leagues == []

    asyncio.run(scenario())


def test_a_lobby_of_a_process_that_died_is_opened_again_by_the_one_taking_its_room(tmp_path: Path) -> None:
    """The room's holder keeps its Market Draft lobby in the journal; when it dies, the member that takes
    the room opens the lobby again and says so in the room; the old holder, back from a stall, has lost
    the room and forgets its copy."""
    from cockatrice_ext.bot.league import install_market
    from cockatrice_ext.bot.league_rooms import LeagueRoom

    async def scenario() -> None:
        journal_path = tmp_path / "j.sqlite3"
        dead = unconnected_bot(journal_path, "dead", ttl=LEASE_TTL)
        survivor = unconnected_bot(journal_path, "survivor", ttl=LEASE_TTL)
        said: list[tuple[int, str]] = []

        async def room_say(room_id: int, text: str) -> None:
            said.append((room_id, text))

        for bot in (dead, survivor):
            bot.server_key = "ws://fleet.test"
            bot.room_ids.append(0)
            bot.room_say = room_say  # type: ignore[method-assign]
            await install_market(bot)
            assert bot.fleet is not None
        assert dead.fleet is not None and survivor.fleet is not None
        dead.fleet.keep_leases()
        survivor.fleet.keep_leases()
        assert dead.fleet.answers_room(0) and not survivor.fleet.answers_room(0)
        dead_room = next(r for r in dead.room_referees if isinstance(r, LeagueRoom))
        for user in ("al", "bo"):
            assert await dead_room.handle_command(Context(dead, "room", user, room_id=0), "!market join")
        assert dead_room.lobbies[0].members == ["al", "bo"]

        await asyncio.sleep(LEASE_TTL + 0.3)  # the dead process renews nothing: the room's lease expires
        said.clear()
        survivor.fleet.keep_leases()
        assert survivor.fleet.answers_room(0)
        await asyncio.sleep(0.05)  # the lobby is opened in the background
        room = next(r for r in survivor.room_referees if isinstance(r, LeagueRoom))
        assert room.lobbies[0].members == ["al", "bo"]
        assert said == [
            (
                0,
                "The Market Draft lobby is still open after the referee's restart: al, bo (2 joined)."
                " !market join, !market start.",
            )
        ]
        assert await room.handle_command(Context(survivor, "room", "cy", room_id=0), "!market join")
        assert room.lobbies[0].members == ["al", "bo", "cy"]

        dead.fleet.renew_all()  # back from a stall: the room is the survivor's now
        assert not dead.fleet.answers_room(0) and dead_room.lobbies == {}
        for bot in (dead, survivor):
            bot.journal.close()

    asyncio.run(scenario())


@pytest.mark.servatrice
def test_the_process_taking_a_killed_holder_s_room_opens_its_lobby_again(
    servatrice: ServatriceServer, postgres_url: str, tmp_path: Path, members: contextlib.ExitStack
) -> None:
    """Two fleet processes refereeing Market Draft; two players join the lobby (the room's holder answers);
    the holder is killed (SIGKILL): the other process takes the room and says the lobby is still open with
    both, a third player joins and the league starts with all three."""
    url, block = servatrice.ws_url, tmp_path / "unused.txt"
    holder = start_bot(members, url, postgres_url, "fleet_lobby_a", block, tmp_path / "a.log", fmt="market")
    other = start_bot(members, url, postgres_url, "fleet_lobby_b", block, tmp_path / "b.log", fmt="market")

    async def scenario() -> None:
        players = [await Player.connect(url, name) for name in ("ivy_fl", "jon_fl", "kay_fl")]
        try:
            room_id = await players[0].client.room_id_by_name("Bot room")
            for player in players:
                await player.client.join_room(room_id)
            for player in players[:2]:
                answers = await room_answers(player, room_id, "!market join", r"joins the Market Draft", 0.5)
                assert len(answers) == 1, answers  # one process answers the room
            mark = players[0].mark()
            killed = time.monotonic()
            holder.send_signal(signal.SIGKILL)
            holder.wait()
            kept = r"lobby is still open after the referee's restart: ivy_fl, jon_fl \(2 joined\)"
            await players[0].wait_line(
                lambda t: re.search(kept, t) is not None, since=mark, timeout=TAKE_OVER_WAIT
            )
            print(f"take-over: the lobby was open again {time.monotonic() - killed:.1f} s after the kill")
            await room_answers(players[2], room_id, "!market join", r"kay_fl joins the Market Draft .*\(3:")
            answers = await room_answers(
                players[1],
                room_id,
                "!market start 1",
                r"Market Draft league #\d+ starts: (?=[^(]*ivy_fl)(?=[^(]*jon_fl)(?=[^(]*kay_fl)",
            )
            assert len(answers) == 1, answers
        finally:
            for player in players:
                await player.close()

    try:
        asyncio.run(asyncio.wait_for(scenario(), 90))
    finally:
        stop(other)
        stop(holder)
    assert "Traceback" not in (tmp_path / "b.log").read_text()


def test_a_record_moved_aside_whose_process_died_is_offered_once_by_a_survivor(tmp_path: Path) -> None:
    """A game record moved aside (``N@K``: the server gave its number to a new game) that nobody holds any
    more is offered for ``!resume N@K`` by the process that takes it over, once."""

    async def scenario() -> None:
        survivor = unconnected_bot(tmp_path / "j.sqlite3", "survivor")
        survivor.server_key = "ws://fleet.test"
        survivor.room_ids.append(0)
        assert survivor.fleet is not None
        survivor.fleet.server = survivor.server_key
        said: list[tuple[int, str]] = []

        async def room_say(room_id: int, text: str) -> None:
            said.append((room_id, text))

        survivor.room_say = room_say  # type: ignore[method-assign]
        key = "ws://fleet.test:game:3@1"
        meta = {"room_id": 0, "format": "auction", "names": {"1": "al", "2": "bo"}}
        Table.create(survivor.journal, key, CounterEngine(CounterConfig(limit=9), seed=1), meta=meta)
        await survivor.fleet.take_over()
        await survivor.fleet.take_over()  # held now: not offered twice
        assert len(said) == 1 and said[0][0] == 0 and "auction game #3@1 (al, bo)" in said[0][1], said
        assert said[0][1].endswith("say !resume 3@1 to continue it in a new game.")
        assert survivor.lost_games() == {"3@1": key}
        survivor.journal.close()

    asyncio.run(scenario())


def test_a_member_started_again_at_once_takes_its_kept_messages_back_before_keeping_new_ones(
    tmp_path: Path,
) -> None:
    """A fleet member is killed with a message kept for zed, and started again at once under its account
    (its old lease still runs for seconds): at start it takes the lease over and the message back, so what
    it keeps for zed next comes after it instead of replacing it in the journal."""

    async def scenario() -> tuple[list[str], dict[str, Any], Any]:
        users = Users()
        killed = users.serve(unconnected_bot(tmp_path / "j.sqlite3", "keeper"))
        killed.restore_held()
        killed.chat.say(("user", "zed"), "Round 1: your game vs amy is #4.")
        await wait_until(lambda: killed.chat.held("zed"), timeout=5, what="the message kept for zed")
        again = users.serve(unconnected_bot(tmp_path / "j.sqlite3", "keeper"))
        assert again.fleet is not None and killed.fleet is not None
        again.restore_held()  # what start() does first, before any format is installed
        again.chat.say(("user", "zed"), "League #1 goes on.")
        await wait_until(lambda: "goes on" in str(again.chat.held("zed")), timeout=5, what="the new line")
        lease = again.journal.lease(again.fleet.held_key("keeper"))
        assert lease is not None and lease.owner == again.fleet.owner
        return again.chat.held("zed"), again.journal.notes(again.held_prefix()), lease.owner

    held, notes, owner = asyncio.run(scenario())
    assert held == ["Round 1: your game vs amy is #4. | League #1 goes on."]
    assert [note["messages"] for note in notes.values()] == [[[held[0], False]]]
    assert owner.startswith("keeper@")


@pytest.mark.servatrice
def test_a_killed_member_s_messages_for_an_offline_player_reach_him_from_a_survivor(
    servatrice: ServatriceServer, postgres_url: str, tmp_path: Path, members: contextlib.ExitStack
) -> None:
    """Two fleet processes referee Market Draft on PostgreSQL. ivy_fk and jon_fk join the lobby, jon_fk logs
    out, ivy_fk starts the league: its referee keeps jon_fk's first messages (his pack: the league's lines,
    kept as the league's topic) and is killed (SIGKILL). The other process takes the league over; when jon_fk
    logs in it sends him the league's recap, what is true now (his pack as it is then), not the lines the dead
    one kept; the journal keeps nothing more for him."""
    url, block = servatrice.ws_url, tmp_path / "unused.txt"
    bots = {
        name: start_bot(members, url, postgres_url, name, block, tmp_path / f"{name}.log", fmt="market")
        for name in ("fleet_keep_a", "fleet_keep_b")
    }
    journal = Journal(postgres_url)
    held = f"{url}{Bot.HELD_KEY}"

    async def scenario() -> tuple[str, list[tuple[str, str]], list[str], str]:
        ivy, jon = [await Player.connect(url, name) for name in ("ivy_fk", "jon_fk")]
        try:
            room_id = await ivy.client.room_id_by_name("Bot room")
            for player in (ivy, jon):
                await player.client.join_room(room_id)
                await room_answers(player, room_id, "!market join", rf"{player.name} joins the Market", 0.2)
            await jon.close()
            mark = ivy.mark()
            await ivy.client.room_say(room_id, "!market start")
            await ivy.wait_line(lambda t: "Market Draft league #1 starts" in t, since=mark)
            await wait_until(lambda: journal.notes(held), timeout=10, what="jon_fk's messages kept")
            [(key, note)] = journal.notes(held).items()
            referee = str(note["session"])
            assert key == f"{held}{referee}\njon_fk" and journal.leases(f"{url}:league:")[0].owner.startswith(
                f"{referee}@"
            )
            survivor = next(name for name in bots if name != referee)
            bots[referee].send_signal(signal.SIGKILL)
            bots[referee].wait()
            await ivy.wait_private(lambda t: "goes on with me as its referee" in t, timeout=TAKE_OVER_WAIT)
            kept = [str(message) for message, _ in note["messages"]]
            jon = await Player.connect(url, "jon_fk")
            await jon.wait_private(lambda t: t.startswith("Market Draft league #1"), timeout=10)
            await asyncio.sleep(1.0)  # anything else on its way arrives too
            return survivor, list(jon.private), kept, ivy.private[-1][0]
        finally:
            await ivy.close()
            await jon.close()

    try:
        survivor, heard, kept, ivy_hears_from = asyncio.run(asyncio.wait_for(scenario(), 90))
    finally:
        for process in bots.values():
            stop(process)
    assert ivy_hears_from == survivor
    assert {sender for sender, _ in heard} == {survivor}, heard
    assert kept and all(message.startswith("\x1ftopic:") for message in kept), kept  # the league's topic
    (recap,) = [text for _, text in heard]
    assert recap.startswith("Market Draft league #1 now: ") and "pack" in recap, recap
    assert journal.notes(held) == {}
    journal.close()
    assert "Traceback" not in (tmp_path / f"{survivor}.log").read_text()
