"""Web view figures: time from a bid to the open boards showing it; memory and CPU with many pages.

    python scripts/bench_web.py [--games 50] [--pages 400] [--bids 4]
    python scripts/bench_web.py --league 8 [--no-web] [--idle 11] [--extra-user NAME]

The server side is the real web view in front of real Auction referees and engines on a stand-in
connection (:mod:`cockatrice_ext.web.demo`); every game has a lot open. A second process opens
``--pages`` live boards (server-sent events, spread evenly over the games) and notes when each view
arrives. Then each game takes ``--bids`` bids, one game after the other; a bid's latency is from the
engine accepting it to the last of that game's pages receiving it. Only loopback traffic.

``--league N``: an N-player AutoBattler league's first views under Servatrice's shipped flood limits. A
real Servatrice and ``cockatrice-ext bot run --format autobattler --web 127.0.0.1:PORT`` (``--no-web``:
chat only) in their own processes; N scripted players join the room and ``!autobattler join``, one after
the other. With the web view each opens the page link the join is answered with (privately) and keeps its
stream open, as a browser would; without it each waits for the room's acknowledgement. After ``--idle``
seconds (0 starts at once; 11 lets the joins' chat leave the bot's 10-second window, as when players gather
over minutes) the last one says ``!autobattler start``. Per player: the time from that line to their page's
first view listing their shop (web view), and to their first private message, if one comes within
``CHAT_GRACE`` seconds (chat only: that message is the view). Needs the ``servatrice`` binary
(``$SERVATRICE_BIN`` or on ``PATH``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.formats import auction as am
from cockatrice_ext.web.demo import demo_bot, seat_game
from cockatrice_ext.web.server import WebOptions, WebView

REPO = Path(__file__).resolve().parent.parent
ROOM = "Bot room"


def rss_mib() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


async def pages(base: str, games: int, count: int) -> None:
    """The client process: open ``count`` boards, print each view's (time, game, high bid) at the end."""
    import aiohttp

    seen: list[tuple[float, int, int]] = []
    opened = 0

    async def board(session: aiohttp.ClientSession, game: int) -> None:
        nonlocal opened
        async with session.get(f"{base}/game/{game}/events") as response:
            response.raise_for_status()
            opened += 1
            async for raw in response.content:
                if raw.startswith(b"data: "):
                    view = json.loads(raw[6:])
                    seen.append((time.time(), game, int(view["board"]["lot"]["high_bid"])))

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(
        connector=connector, timeout=aiohttp.ClientTimeout(total=None)
    ) as session:
        tasks = [asyncio.create_task(board(session, 1 + n % games)) for n in range(count)]
        while opened < count:
            await asyncio.sleep(0.05)
        print("ready", flush=True)
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        print(json.dumps(seen), flush=True)
        for task in tasks:
            task.cancel()


def serve_and_bid(args: argparse.Namespace) -> None:
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    def on_loop(coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, loop).result(300)

    async def quiet(_destination: Any, _message: str) -> None:
        return None

    with tempfile.TemporaryDirectory() as folder:
        base_rss = rss_mib()
        bot = demo_bot(Path(folder) / "journal.sqlite3", quiet)
        block = load_block("auction-sample")
        referees: list[AuctionReferee] = []

        async def start() -> WebView:
            # All pages come from one address here: the per-address budgets are raised to match.
            budget = args.pages + 10
            web = WebView(
                bot,
                WebOptions(
                    port=0,
                    max_streams_per_client=budget,
                    max_streams=max(budget, WebOptions.max_streams),
                    max_public_streams=max(budget, WebOptions.max_public_streams),
                    max_connections_per_client=budget,
                    max_connections=max(budget, WebOptions.max_connections),
                    request_burst=budget,
                ),
            )
            await web.start()
            for game in range(1, args.games + 1):
                seat_game(bot, game, [f"a{game}", f"b{game}", f"c{game}"])
                referee = AuctionReferee(bot, game, 1, AuctionOptions(seats=3, seed=game), block)
                bot.adopt_game(referee)
                await referee.start_engine()
                referee.apply(am.BeginTurn(None, active=referee.engine.players[0]))
                referee.apply(am.StartAuctionStep(None))
                referees.append(referee)
            return web

        web = on_loop(start())
        games_rss = rss_mib()
        client = subprocess.Popen(
            [sys.executable, __file__, "--client", f"http://127.0.0.1:{web.port}", "--games", str(args.games),
             "--pages", str(args.pages)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert client.stdin is not None and client.stdout is not None
        assert client.stdout.readline().strip() == "ready"
        time.sleep(1.0)
        pages_rss = rss_mib()
        accepted: dict[tuple[int, int], float] = {}
        cpu, wall = time.process_time(), time.perf_counter()
        for amount in range(1, args.bids + 1):
            for referee in referees:

                async def bid(referee: AuctionReferee = referee, amount: int = amount) -> None:
                    accepted[(referee.game_id, amount)] = time.time()
                    referee.apply(am.Bid(referee.engine.whose_bid(), amount=amount))

                on_loop(bid())
                time.sleep(0.005)
        time.sleep(1.0)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        client.stdin.write("\n")
        client.stdin.flush()
        seen = json.loads(client.stdout.readline())
        client.wait(30)
        last: dict[tuple[int, int], list[float]] = {}
        for at, game, high in seen:
            if (game, high) in accepted:
                last.setdefault((game, high), []).append(at)
        per_page = args.pages // args.games
        complete = [max(times) - accepted[key] for key, times in last.items() if len(times) >= per_page]
        latencies = sorted(1000 * value for value in complete)
        on_loop(web.stop())
        bot.journal.close()
    print(
        f"games {args.games}, open pages {args.pages}, bids {len(accepted)} ({len(latencies)} on every page)"
    )
    print(
        f"bid -> every page of its game: median {statistics.median(latencies):.1f} ms,"
        f" p95 {latencies[int(0.95 * (len(latencies) - 1))]:.1f} ms, max {latencies[-1]:.1f} ms"
    )
    print(
        f"server RSS: {base_rss:.0f} MiB at start, {games_rss:.0f} MiB with the games and the web view,"
        f" {pages_rss:.0f} MiB with the pages open"
    )
    print(f"server CPU while bidding: {cpu:.2f} s over {wall:.2f} s ({100 * cpu / wall:.0f}% of one core)")


LEAGUE_LINK = re.compile(r"http://\S+/league/\d+/private/[A-Za-z0-9_-]+")
CHAT_GRACE = 12.0
"""With the web view: how long after the start a private message is waited for (past one flood window)."""
Row = tuple[str, float | None, float | None]
"""A player's name, seconds from the start to their page's view with the shop, and to their first private
message (None: none came)."""


class LeaguePage:
    """A player's private page as a browser keeps it open: the time each view arrives."""

    def __init__(self, session: Any, link: str) -> None:
        self.views: list[tuple[float, dict[str, Any]]] = []
        self.task = asyncio.create_task(self._follow(session, link))

    async def _follow(self, session: Any, link: str) -> None:
        async with session.get(link) as page:
            page.raise_for_status()
        async with session.get(link + "/events") as response:
            async for raw in response.content:
                if raw.startswith(b"data: "):
                    self.views.append((time.monotonic(), json.loads(raw[6:])))

    async def first(self, check: Any, timeout: float) -> float:
        """When the first view passing ``check`` arrived."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = next((at for at, view in self.views if check(view)), None)
            if found is not None:
                return found
            await asyncio.sleep(0.005)
        raise AssertionError(f"no such view within {timeout} s; last: {self.views[-1:]}")


async def first_private(player: Any, after: int, timeout: float) -> float | None:
    """When the player's first private message past the ``after`` first arrived (None: none within
    ``timeout``); polled every 5 ms."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if len(player.private) > after:
            return time.monotonic()
        await asyncio.sleep(0.005)
    return None


def lists_in_lobby(name: str) -> Any:
    return lambda view: name in (view.get("lobby") or {}).get("players", ())


def shows_shop(view: dict[str, Any]) -> bool:
    return bool((view.get("private") or {}).get("shop"))


async def league_views(url: str, players_count: int, idle: float, web: bool) -> tuple[list[Row], float]:
    """The league scenario's players, from the joins to each one's first view; and when the room heard the
    start's line (seconds after the start)."""
    import aiohttp
    from bot_players import Player

    players = [await Player.connect(url, f"bench_p{n}") for n in range(1, players_count + 1)]
    pages: dict[str, LeaguePage] = {}

    async def join(player: Any, room_id: int, session: aiohttp.ClientSession) -> None:
        """``!autobattler join``; with the web view, open the page the answer links to (it lists them)."""
        await player.client.room_say(room_id, "!autobattler join")
        if not web:
            await players[0].wait_line(lambda t: t.startswith(f"{player.name} joins"), timeout=60)
            return
        answer = await player.wait_private(lambda t: LEAGUE_LINK.search(t) is not None, timeout=60)
        link = LEAGUE_LINK.search(answer).group(0)  # type: ignore[union-attr]
        pages[player.name] = LeaguePage(session, link)
        await pages[player.name].first(lists_in_lobby(player.name), 30)

    async def first_view(player: Any, told: int, started: float) -> Row:
        if not web:  # the first private message is the view
            message = await first_private(player, told, 120)
            assert message is not None and player.private[told][1].startswith("Your shop: 1. ")
            return player.name, message - started, message - started
        shown = await pages[player.name].first(shows_shop, 60)
        message = await first_private(player, told, CHAT_GRACE)
        return player.name, shown - started, None if message is None else message - started

    async def start_line(player: Any, started: float) -> float:
        await player.wait_line(lambda t: "AutoBattler league #" in t and " starts" in t, timeout=60)
        return time.monotonic() - started

    async with aiohttp.ClientSession() as session:
        try:
            room_id = await players[0].client.room_id_by_name(ROOM)
            for player in players:
                await player.client.join_room(room_id)
                await join(player, room_id, session)
            await asyncio.sleep(idle)
            told = [len(player.private) for player in players]
            started = time.monotonic()
            await players[-1].client.room_say(room_id, "!autobattler start")
            heard = asyncio.create_task(start_line(players[0], started))
            views = (first_view(p, n, started) for p, n in zip(players, told, strict=True))
            return list(await asyncio.gather(*views)), await heard
        finally:
            for page in pages.values():
                page.task.cancel()
            for player in players:
                await player.close()


def bench_league(args: argparse.Namespace) -> None:
    """Servatrice (shipped limits) and the bot in their own processes, the league's players here."""
    sys.path[:0] = [str(REPO / "tests"), str(REPO / "tests" / "bot")]
    from servatrice import FloodLimits, ServatriceConfig, ServatriceServer, find_servatrice_binary, free_port

    binary = find_servatrice_binary()
    if binary is None:
        sys.exit("no servatrice binary: set SERVATRICE_BIN or put servatrice on PATH")
    workdir = Path(tempfile.mkdtemp(prefix="bench-league-"))
    server = ServatriceServer(
        binary, workdir / "servatrice", ServatriceConfig(flood=FloodLimits.servatrice_defaults())
    )
    server.start()
    port = free_port()
    command = [sys.executable, "-m", "cockatrice_ext", "bot", "run", server.ws_url, "--user", "referee"]
    command += ["--room", ROOM, "--format", "autobattler", "--journal", str(workdir / "journal.sqlite3")]
    command += [] if args.no_web else ["--web", f"127.0.0.1:{port}"]
    for user in args.extra_user:
        command += ["--extra-user", user]
    with open(workdir / "bot.log", "wb") as log:
        bot = subprocess.Popen(
            command, stdout=subprocess.PIPE, stderr=log, env={**os.environ, "PYTHONUNBUFFERED": "1"}
        )
    try:
        assert bot.stdout is not None
        while b"Ctrl-C stops" not in bot.stdout.readline():
            if bot.poll() is not None:
                sys.exit(f"the bot stopped; see {workdir / 'bot.log'}")
        rows, start_line = asyncio.run(league_views(server.ws_url, args.league, args.idle, not args.no_web))
    finally:
        bot.send_signal(signal.SIGINT)
        bot.wait(20)
        server.stop()
    mode = "chat only" if args.no_web else "web view"
    mode += f", {1 + len(args.extra_user)} bot session(s)"
    print(
        f"AutoBattler, {args.league} players, shipped flood limits, {mode},"
        f" start {args.idle:g} s after the joins"
    )
    print(f"{'player':<10}{'page view s':>13}{'private message s':>19}")
    for name, shown, told in sorted(rows, key=lambda row: row[1] or 0.0):
        page = "-" if args.no_web else f"{shown:.2f}"
        message = f"{told:.2f}" if told is not None else f"none in {CHAT_GRACE:g} s"
        print(f"{name:<10}{page:>13}{message:>19}")
    print(f"the room heard the start's line at {start_line:.2f} s")
    slowest = max(row[1] or 0.0 for row in rows)
    verdict = "met" if slowest <= 2.0 else "not met"
    print(f"every player's view within {slowest:.2f} s: aim (2 s) {verdict} (logs: {workdir})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--bids", type=int, default=4, help="bids per game")
    parser.add_argument(
        "--league", type=int, metavar="N", help="the AutoBattler league scenario with N players"
    )
    parser.add_argument("--no-web", action="store_true", help="with --league: the bot without its web view")
    parser.add_argument("--idle", type=float, default=11.0, help="with --league: seconds from joins to start")
    parser.add_argument(
        "--extra-user",
        action="append",
        default=[],
        metavar="NAME",
        help="with --league: a helper session for the bot (repeatable), as `bot run --extra-user`",
    )
    parser.add_argument("--client", metavar="BASE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        asyncio.run(pages(args.client, args.games, args.pages))
    elif args.league:
        bench_league(args)
    else:
        serve_and_bid(args)


if __name__ == "__main__":
    main()
