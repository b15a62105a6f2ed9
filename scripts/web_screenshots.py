"""Regenerate the web view's screenshots in docs/web/ (headless Chromium from the OS packages).

    python scripts/web_screenshots.py            # needs Debian's chromium and chromium-driver
    python scripts/web_screenshots.py --out /tmp/shots

The pages are the real ones, served by the real web view, from real referees and engines (an Auction
Magic game of the bundled sample block with three lots sold, a Vortex opening draft, a Combat game, an
AutoBattler league with its first round played; the prices report and a card's price chart),
played by scripted actions on a bot whose connection is a stand-in (:mod:`cockatrice_ext.web.demo`):
no Servatrice is needed. Seeds are fixed, so the pictures only change when the pages do.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote

from cockatrice_ext.bot.auction import AuctionOptions, AuctionReferee
from cockatrice_ext.bot.blocks import load_block
from cockatrice_ext.bot.combat import CombatOptions, CombatReferee, check_cod
from cockatrice_ext.bot.league_cards import load_league_block
from cockatrice_ext.bot.league_options import LeagueOptions
from cockatrice_ext.bot.league_referee import LeagueReferee
from cockatrice_ext.bot.runtime import Bot
from cockatrice_ext.bot.vortex import VortexOptions, VortexReferee
from cockatrice_ext.formats import auction as am
from cockatrice_ext.formats import autobattler as ab
from cockatrice_ext.formats import league as core
from cockatrice_ext.formats import vortex as vm
from cockatrice_ext.reports.prices import journal_prices
from cockatrice_ext.web.demo import demo_bot, seat_game
from cockatrice_ext.web.server import WebOptions, WebView

ROOT = Path(__file__).resolve().parent.parent
LOTS_SOLD = 3
LEAGUE_PLAYERS = ["hana", "ivo", "jun", "kim"]
MARKET_PLAYERS = ["lea", "mo"]
IMAGES_LOADED = "return Array.from(document.images).every((i) => i.complete);"  # loaded, or failed (offline)


def play_auction(referee: AuctionReferee) -> None:
    """Sell ``LOTS_SOLD`` lots (the first bidder bids, the others pass), then bid on the next one."""
    engine = referee.engine
    players = list(engine.players)
    turn = 0

    def begin_turn() -> None:
        referee.apply(am.BeginTurn(None, active=players[turn % len(players)]))
        referee.apply(am.StartAuctionStep(None))

    begin_turn()
    while True:
        for player in players:
            if engine.pending_choice(player):
                referee.apply(am.Keep(player))
        lot = engine.current_lot()
        if lot is None:
            referee.apply(am.EndTurn(None))
            turn += 1
            begin_turn()
            continue
        bidder = engine.whose_bid()
        if lot["high_bidder"] is None:
            referee.apply(am.Bid(bidder, amount=1 + lot["lot_no"]))
            if lot["lot_no"] > LOTS_SOLD:
                return
        else:
            referee.apply(am.Pass(bidder))


async def build(bot: Bot) -> None:
    """Three games: Auction (#1), Vortex (#2), Combat (#3); an AutoBattler and a Market Draft league."""
    seat_game(bot, 1, ["alice", "bob", "carol"])
    auction = AuctionReferee(bot, 1, 1, AuctionOptions(seats=3, seed=7), load_block("auction-sample"))
    bot.adopt_game(auction)
    await auction.start_engine()
    play_auction(auction)

    seat_game(bot, 2, ["dana", "eli"])
    vortex = VortexReferee(bot, 2, 1, VortexOptions(seed=11), load_block("vortex-pool", sections=None))
    bot.adopt_game(vortex)
    await vortex.start_engine()
    for _ in range(3):
        drafter = vortex.engine.whose_turn
        vortex.apply(vm.Pick(player=drafter, choice=0))

    seat_game(bot, 3, ["fay", "gus"])
    combat = CombatReferee(bot, 3, 1, CombatOptions(seed=5))
    verdict = check_cod(load_block("combat-deck", sections=None).cod)
    combat.decks = {1: verdict, 2: verdict}
    bot.adopt_game(combat)
    await combat.start_engine()

    options = LeagueOptions(format="autobattler", seed=11)
    block = load_league_block(options.block_name)
    league = await LeagueReferee.create(bot, 1, options, block, LEAGUE_PLAYERS)
    await league.begin()
    for player in LEAGUE_PLAYERS:
        await league.perform(league.table.apply(ab.EndDraft(player)))
    for match in league.engine.league.current_matches():
        await league.perform(league.table.apply(core.ReportResult(player=None, winner=match.players[0])))

    market_options = LeagueOptions(format="market", seed=5)
    market = await LeagueReferee.create(
        bot, 1, market_options, load_league_block(market_options.block_name), MARKET_PLAYERS
    )
    await market.begin()


def chromium(width: int, height: int) -> Any:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    browser, driver = shutil.which("chromium"), shutil.which("chromedriver")
    if browser is None or driver is None:
        sys.exit(
            "error: needs Debian's chromium and chromium-driver (apt-get install chromium chromium-driver)"
        )
    options = webdriver.ChromeOptions()
    options.binary_location = browser
    for argument in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        f"--window-size={width},{height}",
    ):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path=driver), options=options)


def shoot(browser: Any, url: str, ready_id: str, path: Path) -> None:
    """Open ``url``, wait until the live view drew element ``ready_id`` and its pictures, save a PNG."""
    from selenium.webdriver.support.ui import WebDriverWait

    browser.get(url)
    WebDriverWait(browser, 10).until(lambda d: d.find_elements("id", ready_id))
    WebDriverWait(browser, 10).until(lambda d: d.execute_script(IMAGES_LOADED))
    browser.save_screenshot(str(path))
    print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size} bytes")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "web", help="folder for the PNGs")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    links: dict[str, str] = {}
    loop = asyncio.new_event_loop()
    threading.Thread(target=loop.run_forever, daemon=True).start()

    async def chat(destination: tuple[str, Any], message: str) -> None:
        found = re.search(r"https?://\S+/private/[\w-]+", message)
        if destination[0] == "user" and found and destination[1] not in links:
            links[destination[1]] = found.group(0)  # a game's or a league's private page

    async def serve(folder: Path) -> tuple[Bot, WebView]:
        bot = demo_bot(folder / "journal.sqlite3", chat)
        web = WebView(bot, WebOptions(port=0))
        await web.start()
        await build(bot)
        await asyncio.sleep(0.2)  # the view's flush, then the links go out
        await bot.chat.flush(timeout=5)
        return bot, web

    with tempfile.TemporaryDirectory() as folder:
        bot, web = asyncio.run_coroutine_threadsafe(serve(Path(folder)), loop).result(60)
        base = f"http://127.0.0.1:{web.port}"
        browser = chromium(900, 760)
        try:
            shoot(browser, f"{base}/", "games", args.out / "games.png")
            shoot(browser, f"{base}/game/1", "history", args.out / "auction.png")
            shoot(browser, f"{base}/game/2", "packs", args.out / "vortex.png")
            shoot(browser, f"{base}/game/3", "points", args.out / "combat.png")
            drafter = bot.all_games()[2].player_name(bot.all_games()[2].engine.whose_turn)  # type: ignore[attr-defined]
            shoot(browser, links[drafter], "pack", args.out / "vortex-private.png")
            shoot(browser, links["fay"], "hand", args.out / "combat-private.png")
            shoot(browser, f"{base}/league/1", "pairings", args.out / "league.png")
            shoot(browser, links[LEAGUE_PLAYERS[0]], "pool", args.out / "autobattler-private.png")
            shoot(browser, links[MARKET_PLAYERS[0]], "pack", args.out / "market-private.png")
            shoot(browser, f"{base}/prices", "prices", args.out / "prices.png")
            priciest = max(journal_prices(bot.journal).values(), key=lambda row: row.median or 0)
            shoot(
                browser,
                f"{base}/prices/{quote(priciest.name, safe='')}",
                "chart",
                args.out / "price-chart.png",
            )
        finally:
            browser.quit()
            asyncio.run_coroutine_threadsafe(web.stop(), loop).result(10)
            bot.journal.close()


if __name__ == "__main__":
    main()
