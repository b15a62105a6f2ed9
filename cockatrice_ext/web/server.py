"""The live web view: an aiohttp app served from the bot's own process and event loop.

Theory of operation
-------------------
The runtime calls :meth:`WebView.game_changed` (one of ``Bot.view_listeners``) whenever what a game
shows may have changed: an accepted action, a join or leave, the game finishing or being forgotten.
That only marks the game dirty; one flush task per loop turn then recomputes the views of the dirty
games (:mod:`cockatrice_ext.web.views`, only for pages someone has open) and hands each open page the
newest one through server-sent events. A slow page never queues: it gets the latest view, not every one.

Pages (all live, no reload):

* ``/`` the refereed games and leagues; ``/game/N`` one game's public board; ``/league/N`` one league's
  public board (standings, pairings, results, poison and treasures, the phase:
  :mod:`cockatrice_ext.web.league_pages`);
* ``/prices`` the ``stats prices`` report, ``/prices/CARD`` a card's prices with their chart, and the
  journal's charts as SVG (:mod:`cockatrice_ext.web.charts`; read when asked, not live);
* ``/game/N/private/TOKEN`` one player's private page (a Vortex pack with pick buttons, a Combat
  hand). Its link is sent once by private message when the game's engine starts. A pick posted from
  the page is run as the chat command ``!pick N`` from that player (same parser, same checks, same
  journal), and the command's answer is shown on the page.
* ``/league/N/private/TOKEN`` a league player's private page (AutoBattler: shop, pool, treasures with
  Swap, Roll, Done and the carousel's Pick; Market Draft: the pack with Pick, the market and the pool
  with a trade-in chooser). N is the web view's number for the league's ``page_key``: a lobby
  (:class:`~cockatrice_ext.bot.league_rooms.Lobby`) gets its number at the first join and asks for each
  joiner's link (:meth:`WebView.link`, through ``bot.league_pages``); the page then shows the lobby (who
  joined, names only) and, once the league started from it takes over the number, the league, with the
  same token. A league without a lobby asks for the link with its first private message to each player.
  Both say when they changed (:meth:`WebView.changed`); a player leaving a lobby loses their token
  (:meth:`WebView.revoke`). An open stream makes its player one of the league's ``page_players`` (no chat
  copy of what the page shows) until their last stream of it closes. A button posts ``command`` and
  ``args``; the page runs ``!command args`` as that player's private message to the league (same path).

Links outlive the process: each grant (by its token's digest) and each league's page number are journal
notes (:mod:`cockatrice_ext.web.kept`, not in a fleet), so a restarted bot serving on the same address
honours the links it gave and an open page's stream reconnects to the same view; a page asked for while the
bot is still starting waits for it (up to ``STARTING_WAIT`` seconds) instead of being told it is gone.

Security: tokens are 192-bit secrets bound to one player of one game or league and revoked when it ends
(:mod:`cockatrice_ext.web.tokens`); no page, error or log line carries a token (pages find their
streams from their own address; the access log redacts them); request bodies are capped, every client
address has a request budget and a limit on open streams, each token an action budget; errors are
one plain line. Public pages' streams may take only ``max_public_streams`` of the ``max_streams`` slots, so
the rest stays for players' private pages, and a stream whose client stops reading is closed (its slot
freed) once its unsent answer stays above ``stream_backlog_bytes`` for ``stream_stall_seconds``. Open
connections are capped per client address and in total, and a request must arrive within a deadline
(:mod:`cockatrice_ext.web.gate`), so idle or slow connections cannot take the file descriptors the referee
needs.
"""

from __future__ import annotations

import asyncio
import html
import itertools
import json
import logging
import re
import string
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from aiohttp import web
from aiohttp.abc import AbstractAccessLogger

from cockatrice_ext.bot.commands import MAX_COMMAND_LENGTH
from cockatrice_ext.bot.league_rooms import Lobby
from cockatrice_ext.bot.referee import Context, GameReferee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.web import views
from cockatrice_ext.web.charts import ChartPages
from cockatrice_ext.web.gate import AcceptErrors, ConnectionGate
from cockatrice_ext.web.kept import KeptPages
from cockatrice_ext.web.league_pages import LeagueBoards
from cockatrice_ext.web.tokens import Grant, TokenBook

LOGGER = logging.getLogger(__name__)
SERVER_LOG = logging.getLogger("aiohttp.server")
"""aiohttp's own error log (requests it could not parse); filtered through :class:`RedactTokens`."""

KEEPALIVE_SECONDS = 15.0
"""A ``keepalive`` event on idle streams, so proxies and browsers keep them open, and so a page sees that its
stream is alive (an SSE comment never reaches ``EventSource``): a page that hears nothing for
``2.5 * KEEPALIVE_SECONDS`` (told in the page, ``data-keepalive``) takes its stream for silently lost (a phone
that slept) and opens it again."""
CLOSED_CHECK_SECONDS = 1.0
"""How often streams whose page was closed, or whose client stopped reading, are looked for (aiohttp notices a
closed one only when writing)."""
PRIVATE_CHANNELS = frozenset({"private", "league"})
"""The kinds of channel behind a link bound to one player (``/game/N/private/...``,
``/league/N/private/...``): their streams may use the slots that public pages' streams cannot take
(``WebOptions.max_public_streams``)."""
STARTING_WAIT = 60.0
"""How long a page with a known link waits for a restarted bot to take its game or league back."""
MAX_CHOICE_LENGTH = 150
"""A pick is a pack number or a card name; nothing longer is a card."""
TOKEN_IN_PATH = re.compile(r"(/private/)[^/\s'\"]+")
ERRORS = {
    400: "error: bad request",
    404: "error: no such page",
    405: "error: method not allowed",
    410: "error: this game is over",
    413: "error: request too large",
    429: "error: too many requests; slow down",
}
NOT_FOUND = (
    (
        re.compile(r"/(game|league)/\d+/private/"),
        "error: no such page (a private link expires when its game or league ends)",
    ),
    (
        re.compile(r"/game/\d+(/events)?$"),
        "error: no such game now: the referee leaves a game once it is over; / lists its games",
    ),
    (re.compile(r"/league/\d+(/events)?$"), "error: no such league: / lists the referee's leagues"),
)
"""A 404's words by the page asked for: only a private page speaks of links (to its player); a public page
to whoever watches it. Other pages get ``ERRORS[404]``."""
GAME_PAGE = re.compile(r"/game/(\d{1,12})(?:/|$)")
"""A game's public or private page, its number captured."""
SECURITY_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'",
}


@dataclass(frozen=True)
class WebOptions:
    """Where the web view listens, the address players are given, and its limits."""

    host: str = "127.0.0.1"
    port: int = 8080
    public_url: str = ""
    """The base of the links sent to players (the operator's public address); default: http://HOST:PORT."""
    max_body: int = 2048
    requests_per_second: float = 20.0
    request_burst: int = 60
    actions_per_second: float = 1.0
    action_burst: int = 5
    max_streams_per_client: int = 100
    max_streams: int = 448
    """Below ``max_connections``, so pages still load (and are told 429) when every stream slot is taken."""
    max_public_streams: int = 336
    """Streams of public pages (``/events``, ``/game/N/events``, ``/league/N/events``) at most, three quarters
    of ``max_streams``: anyone may open those, so they must never take the slots of players' private pages."""
    stream_stall_seconds: float = 20.0
    stream_backlog_bytes: int = 4096
    """A stream whose unsent answer (beyond what the kernel buffers) stays above ``stream_backlog_bytes`` for
    ``stream_stall_seconds`` is closed: its client does not read, and would otherwise hold a slot for ever."""
    max_connections_per_client: int = 128
    """Open connections from one address (an IPv6 /64); above ``max_streams_per_client``. Behind a reverse
    proxy every page comes from the proxy's address, so this is the proxy's share too."""
    max_connections: int = 512
    """Open connections in all (at most half the process's limit on open files): the rest is the referee's."""
    request_seconds: float = 10.0
    """A request's headers and body must have arrived this long after the connection opened or the next
    request began; its answer (an event stream) is not timed (but see ``stream_stall_seconds``)."""
    idle_seconds: float = 15.0
    """A keep-alive connection with no request this long after the last answer is closed."""

    def base_url(self, bound_port: int) -> str:
        """Where players are sent: the public URL, else the address the view listens on."""
        if self.public_url:
            return self.public_url.rstrip("/")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{bound_port}"


def redact(path: str) -> str:
    """A request path fit for a log line: the token of a private page replaced."""
    return TOKEN_IN_PATH.sub(r"\1…", path)


class RedactTokens(logging.Filter):
    """For aiohttp's own error log: a request line it could not parse is quoted there, token and all."""

    def filter(self, record: logging.LogRecord) -> bool:
        text = record.getMessage()
        if record.exc_info:
            text += "\n" + logging.Formatter().formatException(record.exc_info)
            record.exc_info = None
            record.exc_text = None
        record.msg, record.args = redact(text), ()
        return True


class RedactingAccessLogger(AbstractAccessLogger):
    """aiohttp's access log, without the private pages' tokens."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            '%s "%s %s" %d %.3fs', request.remote, request.method, redact(request.path), response.status, time
        )


class RateLimiter:
    """Token buckets by key (a client address, a private token): ``rate`` per second, ``burst`` at once."""

    MAX_KEYS = 10_000

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str) -> bool:
        now = self.clock()
        tokens, since = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - since) * self.rate)
        if len(self._buckets) >= self.MAX_KEYS and key not in self._buckets:
            self._prune(now)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return False
        self._buckets[key] = (tokens - 1.0, now)
        return True

    def _prune(self, now: float) -> None:
        """Forget buckets that have refilled (they would start full anyway)."""
        full = [k for k, (t, s) in self._buckets.items() if t + (now - s) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]


@dataclass(eq=False)
class Subscriber:
    """One open page's stream: the newest view waiting to be sent, or the event that ends it."""

    client: str
    transport: asyncio.BaseTransport | None = None
    private: bool = False
    """A player's private page (counted apart from public pages' streams)."""
    pending: str | None = None
    final: str = ""
    gone: bool = False
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    backlogged_since: float | None = None
    """When the unsent answer last rose above the backlog bound (None while below it)."""

    def offer(self, payload: str) -> None:
        self.pending = payload
        self.wake.set()

    def end(self, event: str) -> None:
        self.final = event
        self.wake.set()

    def check_closed(self) -> None:
        """End the stream if its page went away (closed, reloaded, lost)."""
        if self.transport is None or self.transport.is_closing():
            self.gone = True
            self.wake.set()

    def check_stalled(self, now: float, backlog_bytes: int, stall_seconds: float) -> None:
        """Close the connection if its client does not read: the answer waiting to be sent (once the
        kernel's buffers are full) stayed above ``backlog_bytes`` for ``stall_seconds``. Its write, blocked
        meanwhile, then fails and the stream ends, freeing its slot."""
        transport = self.transport
        if not isinstance(transport, asyncio.WriteTransport) or transport.is_closing():
            return
        if transport.get_write_buffer_size() <= backlog_bytes:
            self.backlogged_since = None
        elif self.backlogged_since is None:
            self.backlogged_since = now
        elif now - self.backlogged_since >= stall_seconds:
            LOGGER.info("web view: closing a stream to %s that reads nothing", self.client)
            transport.abort()
            self.gone = True
            self.wake.set()


Channel = tuple[Any, ...]
"""``("games",)``, ``("game", N)``, ``("private", N, player, name)`` or ``("league", N, player)``."""


def _load_text(*parts: str) -> str:
    return resources.files("cockatrice_ext.web").joinpath(*parts).read_text(encoding="utf-8")


class WebView:
    """The bot's web app: pages, live streams, private links and page actions."""

    def __init__(self, bot: Bot, options: WebOptions) -> None:
        self.bot = bot
        self.options = options
        self.kept = KeptPages(bot.journal, bot.server_key) if bot.fleet is None else None
        self.tokens = TokenBook(self.kept.grant_changed if self.kept is not None else None)
        self.requests = RateLimiter(options.requests_per_second, options.request_burst)
        self.actions = RateLimiter(options.actions_per_second, options.action_burst)
        self.channels: dict[Channel, set[Subscriber]] = {}
        self.last: dict[Channel, str] = {}  # the view each channel last sent (unchanged views are not resent)
        self.streams_by_client: dict[str, int] = {}
        self._dirty: dict[int, GameReferee] = {}
        self._dirty_leagues: set[int] = set()
        self.leagues: dict[int, Any] = {}  # the web view's league number -> the LeagueReferee
        self._league_numbers: dict[str, int] = {}  # a league's (or lobby's) page key -> its number here
        self._numbers = itertools.count(1)
        self._flush_task: asyncio.Task[None] | None = None
        self._reaper: asyncio.Task[None] | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        self._accept_errors: AcceptErrors | None = None
        self.gate = ConnectionGate(
            per_client=options.max_connections_per_client,
            total=options.max_connections,
            request_seconds=options.request_seconds,
            idle_seconds=options.idle_seconds,
        )
        self._redact = RedactTokens()
        self.base_url = options.base_url(options.port)
        self._page = string.Template(_load_text("templates", "page.html"))
        self._static = {
            "app.js": (_load_text("static", "app.js"), "text/javascript"),
            "style.css": (_load_text("static", "style.css"), "text/css"),
        }
        self.boards = LeagueBoards(self)
        self.charts = ChartPages(self)
        self.app = self._make_app()

    # -- lifecycle -----------------------------------------------------------------------------------

    def _make_app(self) -> web.Application:
        app = web.Application(client_max_size=self.options.max_body, middlewares=[self._guard])
        app.add_routes(
            [
                web.get("/", self._games_page),
                web.get("/events", self._games_events),
                web.get("/static/{name}", self._static_file),
                web.get(r"/game/{game:\d{1,9}}", self._game_page),
                web.get(r"/game/{game:\d{1,9}}/events", self._game_events),
                web.get(r"/game/{game:\d{1,9}}/private/{token}", self._private_page),
                web.get(r"/game/{game:\d{1,9}}/private/{token}/events", self._private_events),
                web.post(r"/game/{game:\d{1,9}}/private/{token}/pick", self._pick),
                web.get(r"/league/{league:\d{1,9}}/private/{token}", self._league_page),
                web.get(r"/league/{league:\d{1,9}}/private/{token}/events", self._league_events),
                web.post(r"/league/{league:\d{1,9}}/private/{token}/act", self._league_act),
            ]
        )
        app.add_routes(self.boards.routes() + self.charts.routes())
        return app

    async def start(self) -> None:
        """Listen on the configured address and follow the bot's games (honouring the links kept)."""
        if self.kept is not None:  # a port of the moment (0) gives links no later process can honour
            fixed = self.options.public_url or self.options.port
            self.kept.load(self.options.base_url(self.options.port) if fixed else None)
            for digest, grant in self.kept.grants.items():
                self.tokens.load(digest, grant)
            self._league_numbers.update(self.kept.numbers)
            self._numbers = itertools.count(self.kept.next_number)
            self._sweeper = asyncio.get_running_loop().create_task(self._forget_what_did_not_come_back())
        self.bot.view_listeners.append(self.game_changed)
        self.bot.league_pages = self
        SERVER_LOG.addFilter(self._redact)
        self._runner = web.AppRunner(
            self.app, access_log_class=RedactingAccessLogger, keepalive_timeout=self.options.idle_seconds
        )
        await self._runner.setup()
        assert self._runner.server is not None
        loop = asyncio.get_running_loop()
        self._listener = await loop.create_server(  # not a TCPSite: each connection passes the gate first
            self.gate.protocol_factory(self._runner.server), self.options.host, self.options.port, backlog=128
        )
        self._accept_errors = AcceptErrors(loop, self._listener.sockets)
        self._reaper = asyncio.get_running_loop().create_task(self._end_closed_streams())
        self.base_url = self.options.base_url(self.port)
        LOGGER.info("web view on %s:%d, links as %s", self.options.host, self.port, self.base_url)

    @property
    def sockets(self) -> tuple[Any, ...]:
        """The listening sockets (none once stopped)."""
        return tuple(self._listener.sockets) if self._listener is not None else ()

    @property
    def port(self) -> int:
        """The port actually bound (useful with port 0)."""
        for sock in self.sockets:
            return int(sock.getsockname()[1])
        raise RuntimeError("the web view is not listening")

    async def stop(self) -> None:
        """End every open stream, then stop listening."""
        if self.game_changed in self.bot.view_listeners:
            self.bot.view_listeners.remove(self.game_changed)
        if self.bot.league_pages is self:
            self.bot.league_pages = None
        SERVER_LOG.removeFilter(self._redact)
        for subscribers in self.channels.values():
            for subscriber in subscribers:
                subscriber.end("closed")
        for task in (self._flush_task, self._reaper, self._sweeper):
            if task is not None:
                task.cancel()
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._accept_errors is not None:
            self._accept_errors.remove()
            self._accept_errors = None

    # -- change notifications ------------------------------------------------------------------------

    def game_changed(self, referee: GameReferee) -> None:
        """The runtime's view hook: remember the game; one flush per loop turn recomputes views."""
        self._dirty[referee.game_id] = referee
        self._schedule_flush()

    def link(self, league: Any, player: str) -> str | None:
        """The league's (or lobby's) hook: a new private link for ``player`` (None if they have one, or it
        is over)."""
        number = self._league_number(league)
        place = ("league", number)
        if league.over or self.tokens.has_token(place, player):
            return None
        token = self.tokens.issue(place, player, player)
        return f"{self.base_url}/league/{number}/private/{token}"

    def changed(self, league: Any) -> None:
        """The league's (or lobby's) hook: what its players' pages show may have changed."""
        self._dirty_leagues.add(self._league_number(league))
        self._schedule_flush()

    def number(self, league: Any) -> int:
        """The league's hook: the number of its pages (``/league/N``), which its room lines announce too."""
        return self._league_number(league)

    def revoke(self, league: Any, player: str) -> None:
        """The lobby's hook: ``player`` left; their link dies and their open pages end."""
        number = self._league_number(league)
        self.tokens.revoke_player(("league", number), player)
        self._end(("league", number, player), "left")

    def _league_number(self, league: Any) -> int:
        """The number of ``league``'s pages (by its ``page_key``); the league started from a lobby takes
        the lobby's place under that number."""
        number = self._league_numbers.get(league.page_key)
        if number is None:  # never one used before: a link of an emptied lobby opens nothing new
            number = self._league_numbers[league.page_key] = next(self._numbers)
            if self.kept is not None:
                self.kept.number_given(league.page_key, number)
        self.leagues[number] = league
        return number

    async def _forget_what_did_not_come_back(self) -> None:
        """Once the restarted bot is ready: revoke the kept links of games and leagues it did not take
        back (a game lost with its seat, a lobby nobody waits in any more); their pages say so."""
        await self.bot.until_ready()
        for kind, number in self.tokens.places():
            if kind == "game" and self._live(number) is None:
                self.tokens.revoke((kind, number))
            elif kind == "league" and number not in self.leagues:
                self.tokens.revoke((kind, number))
                for page_key in [k for k, n in self._league_numbers.items() if n == number]:
                    del self._league_numbers[page_key]
                    if self.kept is not None:
                        self.kept.number_dropped(page_key)

    async def _once_started(self) -> bool:
        """Whether the bot was still starting (restoring its games and leagues) and now has: wait for it
        (at most ``STARTING_WAIT`` s) before telling a page with a known link that its place is gone."""
        if self.bot.ready:
            return False
        return await self.bot.until_ready(STARTING_WAIT)

    def _schedule_flush(self) -> None:
        if self._flush_task is None:
            self._flush_task = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        await asyncio.sleep(0)  # let the command that changed the game finish its synchronous part
        dirty, self._dirty = self._dirty, {}
        leagues, self._dirty_leagues = self._dirty_leagues, set()
        self._flush_task = None
        try:
            for game_id, referee in dirty.items():
                await self._refresh_game(game_id, referee)
            for number in leagues:
                self._refresh_league(number)
            if dirty or leagues:
                self._publish(("games",), self._games_view)
        except Exception:  # a view must never take the bot down
            LOGGER.exception(
                "web view: refreshing games %s, leagues %s failed", sorted(dirty), sorted(leagues)
            )

    def _refresh_league(self, number: int) -> None:
        """Send each open page of the league its player's new view; a finished league's links expire."""
        league = self.leagues[number]
        channels = [c for c in self.channels if c[0] == "league" and c[1] == number]
        if isinstance(league, Lobby) and league.over:  # emptied: nothing will come under its number
            del self.leagues[number], self._league_numbers[league.page_key]
            if self.kept is not None:
                self.kept.number_dropped(league.page_key)
        elif not isinstance(league, Lobby):
            self.boards.publish(number)
        if league.over:
            self.tokens.revoke(("league", number))
            if self.kept is not None:
                self.kept.number_dropped(league.page_key)
            for channel in channels:
                self._end(channel, "expired")
            return
        for channel in channels:
            player = channel[2]
            self._publish(channel, lambda player=player: views.league_private_view(league, player, number))

    def _live(self, game_id: int) -> GameReferee | None:
        """The game's referee while the bot sits in it (a finished game lingers a few minutes)."""
        referee = self.bot.all_games().get(game_id)
        if referee is None or referee.closed:
            return None
        return referee

    def _over(self, referee: GameReferee) -> bool:
        """Whether the game has ended: finished by its referee, or its journal table closed."""
        if referee.finished or referee.closed:
            return True
        table = referee.table
        return table is not None and self.bot.journal.closed_reason(table.key) is not None

    async def _refresh_game(self, game_id: int, referee: GameReferee) -> None:
        present = self.bot.all_games().get(game_id) is referee and not referee.closed
        if self._over(referee) or not present:
            self.tokens.revoke(("game", game_id))
            for channel in [c for c in self.channels if c[0] == "private" and c[1] == game_id]:
                self._end(channel, "expired")
        elif referee.format_name in views.PRIVATE_PAGES and referee.table is not None:
            await self._send_links(referee)
        if not present:
            self._end(("game", game_id), "gone")
            return
        self._publish(("game", game_id), lambda: views.game_view(referee))
        for channel in [c for c in self.channels if c[0] == "private" and c[1] == game_id]:
            player, name = channel[2], channel[3]
            if referee.player_name(player) != name:  # a page of an earlier game under this number
                self._end(channel, "expired")
                continue
            self._publish(channel, lambda player=player: views.private_view(referee, player))

    async def _send_links(self, referee: GameReferee) -> None:
        """Once per player and game: a private message with the link to their private page."""
        assert referee.table is not None
        for player in referee.table.engine.config.players:  # type: ignore[attr-defined]
            name = referee.player_name(player)
            if self.tokens.has_token(("game", referee.game_id), player, name):
                continue
            token = self.tokens.issue(("game", referee.game_id), player, name)
            url = f"{self.base_url}/game/{referee.game_id}/private/{token}"
            what = views.PRIVATE_PAGES[referee.format_name]
            await self.bot.tell(name, f"{views.game_title(referee)}: your private page ({what}): {url}")

    # -- channels --------------------------------------------------------------------------------------

    def _publish(self, channel: Channel, make: Callable[[], Any]) -> None:
        """Recompute a channel's view if a page watches it, and send it if it changed."""
        subscribers = self.channels.get(channel)
        if not subscribers:
            self.last.pop(channel, None)
            return
        payload = json.dumps(make(), separators=(",", ":"), sort_keys=True)
        if self.last.get(channel) == payload:
            return
        self.last[channel] = payload
        for subscriber in subscribers:
            subscriber.offer(payload)

    def _end(self, channel: Channel, event: str) -> None:
        for subscriber in self.channels.get(channel, ()):
            subscriber.end(event)

    async def _end_closed_streams(self) -> None:
        """Every second, end the streams of pages that went away (a league player who closes their page
        stops being a page player within a second, and gets chat again, not at the next keepalive) and of
        clients that read nothing (see ``WebOptions.stream_stall_seconds``)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(CLOSED_CHECK_SECONDS)
            now = loop.time()
            for subscribers in list(self.channels.values()):
                for subscriber in list(subscribers):
                    subscriber.check_closed()
                    subscriber.check_stalled(
                        now, self.options.stream_backlog_bytes, self.options.stream_stall_seconds
                    )

    def _games_view(self) -> Any:
        games = sorted(self.bot.all_games().items())
        return {
            "games": [views.game_summary(referee) for _, referee in games if not referee.closed],
            "leagues": self.boards.summaries(),
        }

    async def _stream(
        self, request: web.Request, channel: Channel, make: Callable[[], Any]
    ) -> web.StreamResponse:
        """A server-sent-events stream of ``channel``'s views, starting with the current one; 429 if its
        client, all streams, or (for a public page) all public pages' streams are at their limit."""
        client = request.remote or "?"
        private = channel[0] in PRIVATE_CHANNELS
        open_here = self.streams_by_client.get(client, 0)
        streams = [s for subscribers in self.channels.values() for s in subscribers]
        public = sum(not s.private for s in streams)
        if (
            open_here >= self.options.max_streams_per_client
            or len(streams) >= self.options.max_streams
            or (not private and public >= self.options.max_public_streams)
        ):
            raise web.HTTPTooManyRequests()
        payload = self.last.get(channel) or json.dumps(make(), separators=(",", ":"), sort_keys=True)
        response = web.StreamResponse(
            headers={**SECURITY_HEADERS, "Content-Type": "text/event-stream", "X-Accel-Buffering": "no"}
        )
        await response.prepare(request)
        subscriber = Subscriber(client, request.transport, private)
        self.channels.setdefault(channel, set()).add(subscriber)
        self.streams_by_client[client] = open_here + 1
        self.last[channel] = payload
        subscriber.offer(payload)
        try:
            while True:
                try:
                    await asyncio.wait_for(subscriber.wake.wait(), KEEPALIVE_SECONDS)
                except TimeoutError:
                    await response.write(b"event: keepalive\ndata: {}\n\n")
                    continue
                subscriber.wake.clear()
                if subscriber.gone:
                    break
                data, subscriber.pending = subscriber.pending, None
                if data is not None and not subscriber.final:
                    await response.write(f"event: view\ndata: {data}\n\n".encode())
                if subscriber.final:
                    await response.write(f"event: {subscriber.final}\ndata: {{}}\n\n".encode())
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            subscribers = self.channels.get(channel, set())
            subscribers.discard(subscriber)
            if not subscribers:
                self.channels.pop(channel, None)
                self.last.pop(channel, None)
            self.streams_by_client[client] -= 1
            if not self.streams_by_client[client]:
                del self.streams_by_client[client]
        return response

    # -- middleware ------------------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Rate limit, one-line errors (never echoing the address), security headers; tells the gate when
        the request has all arrived (the body is read here, within its deadline) and when it is answered."""
        try:
            return await self._guarded(request, handler)
        finally:
            self.gate.response_done(request.transport)

    async def _guarded(self, request: web.Request, handler: Any) -> web.StreamResponse:
        if not self.requests.allow(request.remote or "?"):
            return self._error(429)
        try:
            if request.body_exists:
                try:
                    await request.read()  # capped by max_body; kept for the handler's request.post()
                except ConnectionError:  # the client went away, or its body missed the deadline
                    return self._error(400)
            self.gate.request_complete(request.transport)
            response: web.StreamResponse = await handler(request)
        except web.HTTPException as exc:
            if exc.status == 404 and (lost := self._lost_game(request.path)):
                return web.Response(status=404, text=lost, headers=SECURITY_HEADERS)
            return self._error(exc.status, request.path)
        except Exception:
            LOGGER.exception("web view: %s %s failed", request.method, redact(request.path))
            return web.Response(status=500, text="error: something went wrong; nothing changed")
        if not response.prepared:
            for header, value in SECURITY_HEADERS.items():  # a chart sets its own policy
                response.headers.setdefault(header, value)
        return response

    def _lost_game(self, path: str) -> str:
        """For a page of a game the referee lost in a restart (a seat an unregistered account cannot keep):
        what happened and how its players continue it; "" for any other page."""
        match = GAME_PAGE.match(path)
        if match is None or match.group(1) not in self.bot.lost_games():
            return ""
        number = match.group(1)
        return (
            f"error: game #{number} was lost in a restart of the referee; its players continue it with"
            f" !resume {number} in the room (new links come then)"
        )

    @staticmethod
    def _error(status: int, path: str = "") -> web.Response:
        """A one-line error; a 404's words fit the page asked for (see ``NOT_FOUND``)."""
        text = ERRORS.get(status, "error: request refused")
        if status == 404:
            text = next((words for page, words in NOT_FOUND if page.match(path)), text)
        return web.Response(status=status, text=text, headers=SECURITY_HEADERS)

    # -- pages -----------------------------------------------------------------------------------------

    def _html(self, kind: str, title: str, name: str = "") -> web.Response:
        """A live page; ``name`` (a player's, untrusted) ends its title, isolated in the heading (``<bdi>``)
        so that right-to-left text in it cannot reorder the rest of the line."""
        full = f"{title}: {name}" if name else title
        heading = html.escape(title) + (f": <bdi>{html.escape(name)}</bdi>" if name else "")
        page = self._page.substitute(
            kind=html.escape(kind),
            title=html.escape(full),
            heading=heading,
            keepalive=f"{KEEPALIVE_SECONDS:g}",
        )
        return web.Response(text=page, content_type="text/html")

    async def _static_file(self, request: web.Request) -> web.Response:
        found = self._static.get(request.match_info["name"])
        if found is None:
            raise web.HTTPNotFound()
        text, content_type = found
        return web.Response(text=text, content_type=content_type)

    async def _games_page(self, request: web.Request) -> web.Response:
        return self._html("games", "Refereed games")

    async def _games_events(self, request: web.Request) -> web.StreamResponse:
        return await self._stream(request, ("games",), self._games_view)

    def _game(self, request: web.Request) -> tuple[int, GameReferee]:
        game_id = int(request.match_info["game"])
        referee = self._live(game_id)
        if referee is None:
            raise web.HTTPNotFound()
        return game_id, referee

    async def _game_page(self, request: web.Request) -> web.Response:
        _, referee = self._game(request)
        return self._html("game", views.game_title(referee))

    async def _game_events(self, request: web.Request) -> web.StreamResponse:
        game_id, referee = self._game(request)
        return await self._stream(request, ("game", game_id), lambda: views.game_view(referee))

    async def _grant(self, request: web.Request) -> tuple[Grant, GameReferee]:
        """The token's grant and its live game, or 404 (unknown, expired or another game's token)."""
        game_id = int(request.match_info["game"])
        token, place = request.match_info["token"], ("game", game_id)
        grant = self.tokens.find(token, place)
        referee = self._live(game_id) if grant is not None else None
        if grant is not None and referee is None and await self._once_started():
            grant, referee = self.tokens.find(token, place), self._live(game_id)  # the link may be gone now
        if grant is None or referee is None or self._over(referee):
            raise web.HTTPNotFound()
        if referee.player_name(grant.player) != grant.name:  # a link of an earlier game under this number
            raise web.HTTPNotFound()
        return grant, referee

    async def _private_page(self, request: web.Request) -> web.Response:
        grant, referee = await self._grant(request)
        return self._html("private", views.game_title(referee), grant.name)

    async def _private_events(self, request: web.Request) -> web.StreamResponse:
        grant, referee = await self._grant(request)
        channel = ("private", referee.game_id, grant.player, grant.name)
        return await self._stream(request, channel, lambda: views.private_view(referee, grant.player))

    async def _action_form(self, request: web.Request, *fields: str) -> dict[str, str]:
        """A page action's form fields, each on one line and under ``MAX_CHOICE_LENGTH`` (the token's
        action budget spent); 429 or 400 otherwise."""
        if not self.actions.allow(request.match_info["token"]):
            raise web.HTTPTooManyRequests()
        try:
            form = await request.post()
        except ValueError:  # not UTF-8, not a form
            raise web.HTTPBadRequest() from None
        values = {name: " ".join(str(form.get(name, "")).split()) for name in fields}
        if any(len(value) > MAX_CHOICE_LENGTH for value in values.values()):
            raise web.HTTPBadRequest()
        return values

    @staticmethod
    def _replies(replies: list[str]) -> web.Response:
        return web.json_response({"replies": replies}, headers=SECURITY_HEADERS)

    async def _pick(self, request: web.Request) -> web.Response:
        """A pick from the private page: the chat command ``!pick CHOICE`` from the token's player."""
        grant, referee = await self._grant(request)
        if referee.format_name != "vortex":  # the only page with a pick
            raise web.HTTPNotFound()
        form = await self._action_form(request, "choice", "seen")
        if not form["choice"]:
            raise web.HTTPBadRequest()
        if form["seen"]:  # the page's number points into the pack it drew: refused if the pack changed since
            mine = views.private_view(referee, grant.player)
            stale = self._stale("vortex", "pick", form["seen"], mine["private"] if mine else {})
            if stale is not None:
                return stale
        return self._replies(await self.run_command(grant, referee, f"!pick {form['choice']}"))

    @staticmethod
    def _stale(format_name: str, command: str, seen: str, desk: views.View) -> web.Response | None:
        """The refusal (409, what changed) of a page action whose numbers point into lists that changed since
        the page drew them (``seen``: :func:`views.seen_lists`), or None when they are as it saw them."""
        stale = views.stale_lists(format_name, command, seen, desk)
        if not stale:
            return None
        return web.Response(status=409, text=views.stale_answer(stale, command), headers=SECURITY_HEADERS)

    async def run_command(self, grant: Grant, referee: GameReferee, text: str) -> list[str]:
        """Run ``text`` as a game chat command of the grant's player; return what the bot answered them.

        The seat is found by the player's name in the game now, so the same checks as in chat apply
        (a spectator or a player who left cannot act).
        """
        assert len(text) <= MAX_COMMAND_LENGTH
        seat = next(
            (
                p.player_id
                for p in referee.mirror.players.values()
                if p.name == grant.name and not p.spectator and p.player_id != referee.me
            ),
            None,
        )
        replies: list[str] = []

        async def answer(line: str) -> None:
            replies.append(line)

        ctx = Context(
            referee.bot,
            "game",
            grant.name,
            player_id=seat,
            game_id=referee.game_id,
            room_id=referee.room_id,
            reply_hook=answer,
            page=True,
        )
        if not await referee.handle_command(ctx, text):
            replies.append("that cannot be done from this page")
        return replies

    # -- league pages ------------------------------------------------------------------------------------

    async def _league_grant(self, request: web.Request) -> tuple[Grant, Any, int]:
        """The token's grant, its running league (or open lobby) and the league's number here, or 404."""
        number = int(request.match_info["league"])
        token, place = request.match_info["token"], ("league", number)
        grant = self.tokens.find(token, place)
        league = self.leagues.get(number) if grant is not None else None
        if grant is not None and league is None and await self._once_started():
            grant, league = self.tokens.find(token, place), self.leagues.get(number)  # the link may be gone
        if grant is None or league is None or league.over:
            raise web.HTTPNotFound()
        return grant, league, number

    async def _league_page(self, request: web.Request) -> web.Response:
        grant, league, number = await self._league_grant(request)
        return self._html("league", views.league_title(league, number), grant.name)

    async def _league_events(self, request: web.Request) -> web.StreamResponse:
        """The page's stream; while one is open its player plays from the page (no chat copies)."""
        grant, league, number = await self._league_grant(request)
        channel = ("league", number, grant.player)
        league.page_players.add(grant.player)
        try:
            return await self._stream(
                request,
                channel,
                lambda: views.league_private_view(self.leagues[number], grant.player, number),
            )
        finally:
            occupant = self.leagues.get(number)  # the league, if it started from this lobby meanwhile
            if not self.channels.get(channel) and occupant is not None:
                occupant.page_players.discard(grant.player)

    async def _league_act(self, request: web.Request) -> web.Response:
        """A button of a league page: ``!COMMAND ARGS`` as the token's player's private message.

        The page sends ``seen``, the version of the numbered lists it drew (``views.seen_lists``): when a list
        the command's numbers point into changed since (another player bought from the market, the pool was
        renumbered), the action is refused (409, what changed) instead of acting on cards the player never
        chose. Checked and run in one turn of the loop, so no other action comes between. A form without
        ``seen`` (a script) is run as chat runs it."""
        grant, league, number = await self._league_grant(request)
        if isinstance(league, Lobby):  # a lobby's page has no button
            raise web.HTTPBadRequest()
        if self.channels.get(("league", number, grant.player)):  # back on the page after chat commands
            league.page_players.add(grant.player)
        form = await self._action_form(request, "command", "args", "seen")
        command = form["command"]
        if command not in views.LEAGUE_COMMANDS[league.format_name]:
            raise web.HTTPBadRequest()
        if form["seen"]:  # the page's numbers point into the lists it drew: refused if they changed since
            desk = views.league_private_view(league, grant.player, number)["private"]
            stale = self._stale(league.format_name, command, form["seen"], desk)
            if stale is not None:
                return stale
        return self._replies(
            await self.run_league_command(grant, league, f"!{command} {form['args']}".strip())
        )

    async def run_league_command(self, grant: Grant, league: Any, text: str) -> list[str]:
        """Run ``text`` as a private message of the grant's player to the league; return its answers."""
        assert len(text) <= MAX_COMMAND_LENGTH
        replies: list[str] = []

        async def answer(line: str) -> None:
            replies.append(line)

        ctx = Context(league.bot, "private", grant.name, reply_hook=answer, page=True)
        if not await league.handle_command(ctx, text):
            replies.append("that cannot be done from this page")
        return replies
