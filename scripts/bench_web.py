"""Web view figures: time from a bid to the open boards showing it; memory and CPU with many pages.

    python scripts/bench_web.py [--games 50] [--pages 400] [--bids 4]

The server side is the real web view in front of real Auction referees and engines on a stand-in
connection (:mod:`cockatrice_ext.web.demo`); every game has a lot open. A second process opens
``--pages`` live boards (server-sent events, spread evenly over the games) and notes when each view
arrives. Then each game takes ``--bids`` bids, one game after the other; a bid's latency is from the
engine accepting it to the last of that game's pages receiving it. Only loopback traffic.
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
            web = WebView(bot, WebOptions(port=0, max_streams_per_client=budget, request_burst=budget))
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--pages", type=int, default=400)
    parser.add_argument("--bids", type=int, default=4, help="bids per game")
    parser.add_argument("--client", metavar="BASE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        asyncio.run(pages(args.client, args.games, args.pages))
    else:
        serve_and_bid(args)


if __name__ == "__main__":
    main()
