"""League steps the field scenarios share: forming a league in the room (with the web view: each joiner's
page open from the join on), a player's private web page as a browser keeps it open, the Market Draft's
initial draft played by private message, the pool list the bot sends for the deck editor, and the
hidden-card check (with the market's public reveals)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
import time
from collections.abc import Callable
from typing import Any

import aiohttp
from field_bot import BOT_NAME
from field_players import FieldPlayer, Mark
from hidden_cards import CardNames, Secret, block_names, find_leaks, private_secrets
from servatrice import find_servatrice_binary, shares_deck_lists
from shared_paths import ROOT

from cockatrice_ext.web.server import KEEPALIVE_SECONDS, STARTING_WAIT

PRIVATE = "Event_UserMessage"
POOL_LINE = re.compile(r"^(\d+) (\S.*)$")
MARKET_POOL = block_names(ROOT / "blocks" / "market-pool.txt")
PACK = re.compile(r"Your pack \((\d+)\): (.+?)\.(?= !pick N| \| |$)")
"""A pack as the bot lists it in chat: ``Your pack (N): 1. Name; 2. Name.``, the player's first pack followed
by `` !pick N (or the name).``"""
RECONNECT_SECONDS = 1.0
"""How long a page waits before opening its stream again (a browser waits a few seconds)."""
STREAM_IDLE_SECONDS = STARTING_WAIT + 2 * KEEPALIVE_SECONDS
"""A stream that brings nothing for this long is lost and is opened again: the web view writes a keepalive
line on an idle stream every ``KEEPALIVE_SECONDS``, and a restarted referee answers within
``STARTING_WAIT``."""
STREAM_TIMEOUT = aiohttp.ClientTimeout(total=None, sock_connect=10.0, sock_read=STREAM_IDLE_SECONDS)
"""The live stream's bounds: none in all (a browser keeps a page's ``EventSource`` open for hours, where
aiohttp's default would end the stream after five minutes), a connection within 10 s, and the idle bound."""
REQUEST_TIMEOUT = aiohttp.ClientTimeout(total=60.0, sock_connect=10.0)
"""The bounds of the page's other requests (loading it, pressing a button)."""


def deck_lists_shared() -> bool:
    """Whether the Servatrice under test shows loaded deck lists to the referee (2.11 and later)."""
    binary = find_servatrice_binary()
    return binary is None or shares_deck_lists(binary)


def deck_taken() -> str:
    """How the referee answers a pool's deck loaded on the Servatrice under test: checked where deck lists
    are shared, taken on trust where they are not."""
    return "deck OK" if deck_lists_shared() else "deck loaded, not checked"


def free_port() -> int:
    """A TCP port nobody listens on now (for the bot's ``--web``)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def form_league(
    players: list[FieldPlayer], room_id: int, league: str, starts: str, options: str = ""
) -> float:
    """Everyone says ``!LEAGUE join`` in the room, the last one ``!LEAGUE start [options]``; returns when
    the start was asked."""
    watcher = players[0]
    mark = watcher.mark()
    for player in players:
        await player.room_say(room_id, f"!{league} join")
        await watcher.line(rf"{player.name} joins", since=mark, timeout=20)
    asked = time.monotonic()
    await players[-1].room_say(room_id, f"!{league} start {options}".strip())
    await watcher.line(starts, since=mark, timeout=60)
    return asked


async def form_web_league(
    players: list[FieldPlayer], room_id: int, league: str, title: str, starts: str, options: str = ""
) -> list[PrivatePage]:
    """With the bot's web view on: each player says ``!LEAGUE join`` and opens the page whose link the bot
    answers with privately, which lists them among who joined; the room hears only that the lobby opened.
    The last one says ``!LEAGUE start [options]``. Returns the players' pages, open since their join."""
    watcher = players[0]
    mark = watcher.mark()
    pages: list[PrivatePage] = []
    for player in players:
        since = player.mark()
        await player.room_say(room_id, f"!{league} join")
        answer = await player.line(rf"^Your {title} page: \S+$", since=since, kind=PRIVATE, timeout=20)
        page = await PrivatePage.open(answer.rsplit(" ", 1)[1])
        pages.append(page)
        await page.lobby(lambda lobby, name=player.name: name in lobby["players"])
    await watcher.line(rf"^{players[0].name} opened a lobby for {title}: !{league} join$", since=mark)
    await players[-1].room_say(room_id, f"!{league} start {options}".strip())
    await watcher.line(starts, since=mark, timeout=60)
    joins = [text for _, _, text in watcher.chat(mark) if " joins the " in text]
    assert not joins, f"a room line per join with the web view on: {joins}"
    return pages


def assert_no_leaks(
    players: list[FieldPlayer], universe: set[str], started: float, public: dict[str, float] | None = None
) -> None:
    """Nothing told privately to one player reached another before it was made public (``public``: when a
    name was first shown to everyone by the rules)."""
    public = public or {}
    secrets = [
        Secret(s.name, s.holders, started, public.get(s.name, float("inf")))
        for s in private_secrets(players, BOT_NAME, universe)
    ]
    for player in players:
        assert any(player.name in s.holders for s in secrets), f"{player.name} was told their cards"
    leaks = find_leaks(players, secrets)
    assert not leaks, "\n".join(map(str, leaks))


def market_reveals(players: list[FieldPlayer]) -> dict[str, float]:
    """When a card was named to everyone in the room: listed in the market (``N. Name (rarity, cost)``, the
    listing may run over several messages) or traded in for a buy (``X buys Y (worth 12, cost 10), trading in
    A, B and 7 more.``)."""
    names = CardNames(MARKET_POOL)
    reveals: dict[str, float] = {}
    for player in players:
        for item, who, text in player.chat():
            if who == BOT_NAME and item.kind == "Event_RoomSay":
                shown = re.findall(r"\d+\. (.+?) \((?:common|uncommon|rare|mythic), \d+\)", text)
                shown += re.findall(r"trading in (.*?)(?:\. |\.$|$)", text)
                for name in names.find(" | ".join(shown)):
                    reveals[name] = min(item.at, reveals.get(name, item.at))
    return reveals


def named_in_public(players: list[FieldPlayer], universe: set[str]) -> dict[str, str]:
    """Card names the bot said in room or game chat (what every player there reads), with the line."""
    names = CardNames(universe)
    said: dict[str, str] = {}
    for player in players:
        for item, who, text in player.chat():
            if who == BOT_NAME and item.kind in ("Event_RoomSay", "Event_GameSay"):
                said.update(dict.fromkeys(names.find(text), text))
    return said


def pack_of(text: str) -> list[str]:
    """The cards of the pack a private message lists, in their numbered order (checked: 1..N, N cards)."""
    match = PACK.search(text)
    assert match is not None, f"no pack in {text!r}"
    entries = [re.fullmatch(r"(\d+)\. (.+)", entry) for entry in match.group(2).split("; ")]
    assert all(entries) and len(entries) == int(match.group(1)), text
    assert [int(e.group(1)) for e in entries] == list(range(1, len(entries) + 1)), text  # type: ignore[union-attr]
    return [e.group(2) for e in entries]  # type: ignore[union-attr]


async def draft_in_chat(player: FieldPlayer, picks: int, since: Mark | None) -> list[tuple[int, str]]:
    """The initial draft as a chat player does it: wait for the pack the bot lists privately, pick a card of
    it (by name and by number in turn, from varying positions), and wait for ``You picked X (K in your
    pool)`` naming that card before the next pack. Returns (pack size, card picked) per pick."""
    picked: list[tuple[int, str]] = []
    while len(picked) < picks:
        pack = pack_of(await player.line(PACK.pattern, since=since, kind=PRIVATE, timeout=90))
        chosen = (len(picked) * 7) % len(pack)
        since = player.mark()
        await player.tell(BOT_NAME, f"!pick {chosen + 1}" if len(picked) % 2 else f"!pick {pack[chosen]}")
        confirmed = rf"You picked {re.escape(pack[chosen])} \({len(picked) + 1} in your pool\)"
        await player.line(confirmed, since=since, kind=PRIVATE, timeout=90)
        picked.append((len(pack), pack[chosen]))
    return picked


async def pool_list(
    player: FieldPlayer, since: Mark, timeout: float = 60.0, *, ask: bool = False
) -> dict[str, int]:
    """The pool the bot sends as a deck list (``Your pool (N cards), to paste into the deck editor:`` and
    ``N Name`` lines, in pieces under the chat budget): card name -> copies, once all N have come. The bot
    lists a chat player's whole pool once, then only what changed, and a page player's never (the page
    shows it): ``ask`` says ``!pool`` first, as such a player does to have it whole."""
    if ask:
        since = player.mark()
        await player.tell(BOT_NAME, "!pool")
    intro = await player.line(
        r"Your pool \((\d+) cards\), to paste", since=since, kind=PRIVATE, timeout=timeout
    )
    size = int(re.search(r"\((\d+) cards\)", intro).group(1))  # type: ignore[union-attr]
    counts: dict[str, int] = {}

    def complete(_: Any) -> bool:
        counts.clear()
        for _, text in player.private_from(BOT_NAME, since):
            lines = text.split("\n")
            if all(POOL_LINE.match(line) for line in lines):
                for line in lines:
                    number, name = POOL_LINE.match(line).groups()  # type: ignore[union-attr]
                    counts[name] = counts.get(name, 0) + int(number)
        return sum(counts.values()) == size

    await player.wait_for(complete, since=since, timeout=timeout)
    return dict(counts)


class PrivatePage:
    """A player's private league page, open as a browser keeps it: every view the server pushes, in order.
    Its live stream has no time limit and is opened again whenever it ends or goes silent, until the page is
    closed or the server refuses it."""

    def __init__(self, link: str) -> None:
        self.link = link
        self.views: list[dict[str, Any]] = []
        self._changed = asyncio.Event()
        self._session: aiohttp.ClientSession | None = None
        self._task: asyncio.Task[None] | None = None
        self.connections = 0
        """How many times the live stream was opened (more than once: it reconnected)."""
        self.refused: int | None = None
        """The HTTP status the server refused the stream with, once it did (the page has ended)."""

    @classmethod
    async def open(cls, link: str) -> PrivatePage:
        """Load the page, then follow its live stream (``/events``) as the page's script does."""
        page = cls(link)
        page._session = aiohttp.ClientSession(timeout=REQUEST_TIMEOUT)
        async with page._session.get(link) as response:
            assert response.status == 200, f"{link}: HTTP {response.status}"
        page._task = asyncio.create_task(page._follow())
        return page

    async def _follow(self) -> None:
        """Read the stream; when it ends (the referee restarted, the server closed it) or is lost (nothing,
        not even a keepalive, for ``STREAM_IDLE_SECONDS``), connect again as a browser's ``EventSource``
        does, until the page is closed or the server refuses the stream (``refused`` holds its status)."""
        assert self._session is not None
        try:
            while True:
                try:
                    async with self._session.get(f"{self.link}/events", timeout=STREAM_TIMEOUT) as response:
                        if response.status != 200:
                            self.refused = response.status
                            return
                        self.connections += 1
                        await self._read(response)
                except (aiohttp.ClientError, ConnectionError, TimeoutError):
                    pass
                await asyncio.sleep(RECONNECT_SECONDS)
        finally:
            self._changed.set()  # a wait sees at once that the page no longer follows its stream

    async def _read(self, response: aiohttp.ClientResponse) -> None:
        """Every view the stream brings, until it ends."""
        buffer = b""
        async for chunk in response.content.iter_any():
            buffer += chunk
            while b"\n\n" in buffer:
                event, buffer = buffer.split(b"\n\n", 1)
                for line in event.decode().splitlines():
                    if line.startswith("data: ") and (view := json.loads(line[6:])):
                        self.views.append(view)
                        self._changed.set()

    async def wait(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        """The player's desk (the newest view's ``private`` part) once it matches ``predicate``."""
        return await self._newest("private", predicate, timeout)

    async def lobby(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 30.0
    ) -> dict[str, Any]:
        """The lobby the page shows before the start (the newest view's ``lobby`` part) once it matches."""
        return await self._newest("lobby", predicate, timeout)

    async def _newest(
        self, part: str, predicate: Callable[[dict[str, Any]], bool], timeout: float
    ) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while not (self.views and self.views[-1].get(part) and predicate(self.views[-1][part])):
            self._check_following()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                last = self.views[-1] if self.views else None
                refused = f" (its stream was refused: HTTP {self.refused})" if self.refused else ""
                raise AssertionError(
                    f"the private page never showed what was expected{refused}; last view: {last}"
                )
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)
        return dict(self.views[-1][part])

    def _check_following(self) -> None:
        """Raise at once if the stream's reader stopped on an error (a page that silently stopped following
        its stream would only show as a wait that times out)."""
        if self._task is not None and self._task.done() and not self._task.cancelled():
            error = self._task.exception()
            if error is not None:
                raise AssertionError(f"the private page stopped following its stream: {error!r}") from error

    async def act(self, command: str, args: str = "") -> list[str]:
        """Press one of the page's buttons (it posts ``command`` and ``args``); the bot's answers. A press
        the page's action budget refuses (HTTP 429) is pressed again a second later, as a person would."""
        assert self._session is not None
        for _ in range(10):
            async with self._session.post(
                f"{self.link}/act", data={"command": command, "args": args}
            ) as response:
                if response.status != 429:
                    assert response.status == 200, f"{command} {args}: HTTP {response.status}"
                    return list((await response.json())["replies"])
            await asyncio.sleep(1.0)
        raise AssertionError(f"{command} {args}: refused as too many requests for 10 s")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, aiohttp.ClientError):
                await self._task
        if self._session is not None:
            await self._session.close()


async def everyone_passes_the_market(players: list[FieldPlayer], since: dict[str, Mark]) -> None:
    """Each player, told it is their turn to buy (after ``since[name]``), passes, in the buying order."""
    for player in players:
        await player.line(r"Your turn to buy", since=since[player.name], kind=PRIVATE, timeout=60)
        await player.tell(BOT_NAME, "!pass")
        await player.line(rf"{player.name} passes", since=since[player.name], timeout=60)
