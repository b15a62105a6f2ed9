"""The web view in a real browser: headless Chromium (Debian's packages, driven by Selenium through the
system chromedriver) on the pages of ``cockatrice-ext bot run --web``, a real process refereeing real
Servatrice games with scripted players.

* Auction: the public board shows the lot, each bid, gold, the block size and the history as the game
  goes, and never a card still hidden in the block; the game's gold chart and the sold card's price
  chart (``/prices``) are drawn.
* Vortex: each player's private link (sent by private message) shows exactly their pack; a token does
  not open another game's page nor act for another player; a pick clicked on the page is the chat
  command (journaled, announced in game chat, the card in the player's hand), and the other player's open
  page says it is their turn to pick; the link expires when the game ends.
* AutoBattler: each league player's link (sent once, privately, as the answer to their join) shows the
  lobby live (who joined), then, at the start and without a reload, their own shop, pool and treasures;
  Swap, Roll and Done on the page are the private commands (journaled, the page updated live; a swap is
  answered on the page); a token opens only its player's page of its league. The league's public board,
  found from ``/``, shows the standings and follows the phase to the round's pairings, and shows no card.
  A league game's public page speaks to a spectator, also once the game is gone. Roll and Done are to be
  answered on the page (expected to fail until ``bot/league.py`` marks those answers for the page).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from browsers import open_chromium
from servatrice import ServatriceServer, free_port
from test_page_access import LOG
from test_page_behaviour import until

pytestmark = pytest.mark.servatrice

_HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent / "bot"))
from bot_players import Player, wait_until  # noqa: E402

BLOCK = """\
# Six different cards: a card still in the block is one the board must never name.
1 Serra Angel
1 Grizzly Bears
1 Chimney Imp
1 Augury Owl
1 Pacifism
1 Shock
"""
WAIT = 15.0
"""Generous upper bound for anything the page should show (the test asserts that it shows, not when)."""
LINK = re.compile(r"https?://\S+/game/(\d+)/private/([A-Za-z0-9_-]+)")
LEAGUE_LINK = re.compile(r"https?://\S+/league/(\d+)/private/([A-Za-z0-9_-]+)")


class LoopThread:
    """An asyncio loop in a thread, for the scripted players while Selenium blocks the test's thread."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Any, timeout: float = 60.0) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Chromium from the OS packages (skips, saying why, when they are not installed)."""
    driver = open_chromium("1100,900")
    yield driver
    driver.quit()


def start_referee(
    url: str, user: str, journal: Path, port: int, *options: str, room: str = "Bot room"
) -> subprocess.Popen[bytes]:
    """``cockatrice-ext bot run URL --user USER --room ROOM ... --web 127.0.0.1:PORT OPTIONS`` as an
    operator runs it; returns once the referee is in its room."""
    process = subprocess.Popen(
        [
            sys.executable, "-m", "cockatrice_ext", "bot", "run", url, "--user", user, "--room", room,
            "--journal", str(journal), "--relaxed-flood", "--web", f"127.0.0.1:{port}", *options,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )  # fmt: skip
    assert process.stdout is not None
    lines = [process.stdout.readline().decode() for _ in range(2)]
    assert f"web view: http://127.0.0.1:{port}/" in lines[0], lines
    assert f"referee {user} is in 1 room(s)" in lines[1], lines
    return process


def stop_referee(process: subprocess.Popen[bytes]) -> None:
    """Ctrl-C, as an operator stops it (killed if it does not stop within 20 s)."""
    process.send_signal(signal.SIGINT)
    try:
        process.wait(20)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def referee(
    servatrice: ServatriceServer, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """``cockatrice-ext bot run ... --web 127.0.0.1:PORT`` as an operator runs it."""
    folder = tmp_path_factory.mktemp("web_bot")
    block = folder / "block.txt"
    block.write_text(BLOCK)
    journal = folder / "journal.sqlite3"
    port = free_port()
    formats = ("--format", "auction", "--format", "vortex", "--format", "autobattler")
    auction = ("--auction-block", str(block), "--auction-seed", "7")
    process = start_referee(servatrice.ws_url, "web_referee", journal, port, *formats, *auction)
    loop = LoopThread()
    yield {"base": f"http://127.0.0.1:{port}", "journal": journal, "loop": loop, "url": servatrice.ws_url}
    loop.close()
    stop_referee(process)


def journal_actions(journal: Path, game_id: int, kind: str = "game") -> list[str]:
    """The journaled actions of one game (or league: ``kind`` "league", ``game_id`` its number), read as
    another process would."""
    pattern = f"%:{game_id}" if kind == "league" else f"%:game:{game_id}"
    with sqlite3.connect(f"file:{journal}?mode=ro", uri=True) as db:
        rows = db.execute(
            "SELECT action FROM actions WHERE table_key LIKE ? AND table_key LIKE ? ORDER BY seq",
            (pattern, f"%:{kind}:%"),
        ).fetchall()
    return [row[0] for row in rows]


def page_shows(browser: Any, element_id: str, check: Callable[[str], bool], what: str) -> str:
    """Wait until the element's text passes ``check``; its text."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait

    def text_ok(driver: Any) -> str | bool:
        try:
            text = str(driver.find_element("id", element_id).text)
        except (NoSuchElementException, StaleElementReferenceException):
            return False
        return text if check(text) else False

    try:
        return str(WebDriverWait(browser, WAIT, poll_frequency=0.05).until(text_ok))
    except Exception:
        body = browser.find_element("tag name", "body").text
        raise AssertionError(f"the page never showed {what}; page: {body!r}") from None


def hand_names(player: Player, game_id: int, seat: int) -> list[str]:
    """The cards in a player's hand as their own client sees them."""
    return [card.name for card in player.client.games[game_id].players[seat].zone("hand").cards]


async def seat_players(env: dict[str, Any], names: tuple[str, str], command: str, pattern: str) -> Any:
    alice = await Player.connect(env["url"], names[0])
    bob = await Player.connect(env["url"], names[1])
    room_id = await alice.client.room_id_by_name("Bot room")
    for player in (alice, bob):
        await player.client.join_room(room_id)
    await alice.client.room_say(room_id, command)
    line = await alice.wait_line(lambda t: re.search(pattern, t) is not None)
    game_id = int(re.search(r"#(\d+)", line).group(1))  # type: ignore[union-attr]
    seats = {alice.name: await alice.sit(room_id, game_id), bob.name: await bob.sit(room_id, game_id)}
    return alice, bob, room_id, game_id, seats


def test_auction_board_follows_the_bids_live(browser: Any, referee: dict[str, Any]) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    loop: LoopThread = referee["loop"]
    alice, bob, _, game_id, _ = loop.run(
        seat_players(referee, ("alice_w", "bob_w"), "!auction new 2", r"Auction Magic game #\d+")
    )
    players = {alice.name: alice, bob.name: bob}
    try:
        browser.get(referee["base"] + "/")
        page_shows(browser, "games", lambda t: f"#{game_id} Auction Magic" in t, "the game in the list")
        browser.find_element("link text", f"#{game_id} Auction Magic").click()
        page_shows(browser, "summary", lambda t: "alice_w, bob_w" in t, "the seated players")
        page_shows(browser, "gold", lambda t: "alice_w 10" in t and "bob_w 10" in t, "everyone's gold")
        page_shows(browser, "block-left", lambda t: t == "6", "the block size")

        opened = loop.run(alice.wait_line(lambda t: "Turn order" in t))
        first = players[re.search(r"Turn order (\w+),", opened).group(1)]  # type: ignore[union-attr]
        second = bob if first is alice else alice
        mark = first.mark()
        loop.run(first.phase(game_id, 2))  # the draw step: the auction step begins
        lot_line = loop.run(first.wait_line(lambda t: "Auction 1:" in t, since=mark))
        page_shows(browser, "lot", lambda t: "Auction 1:" in t and "No bid yet" in t, "the open lot")
        page_shows(browser, "block-left", lambda t: t == "5", "one card fewer in the block")

        loop.run(first.say(game_id, "!bid 2"))  # the board shows the bid (nothing is said in chat)
        page_shows(browser, "lot", lambda t: f"High bid: 2 by {first.name}" in t, "the bid")
        page_shows(browser, "lot", lambda t: f"To bid: {second.name}" in t, "who bids next")
        loop.run(second.say(game_id, "!bid 3"))
        page_shows(browser, "lot", lambda t: f"High bid: 3 by {second.name}" in t, "the higher bid")
        loop.run(first.say(game_id, "!pass"))
        page_shows(browser, "history", lambda t: f"{second.name} 3" in t, "the sale in the history")
        page_shows(browser, "gold", lambda t: f"{second.name} 7" in t, "the buyer's gold")

        # Nothing hidden: only cards announced in game chat may appear on the board.
        announced = " ".join(text for _, text in first.heard)
        shown = browser.find_element("tag name", "body").text
        hidden = [name for name in re.findall(r"^1 (.+)$", BLOCK, re.M) if name not in announced]
        assert hidden and not [name for name in hidden if name in shown], (hidden, shown)
        assert "Auction 1:" in lot_line

        # The game's gold chart (SVG, drawn by the bot) has a line per player.
        page_shows(browser, "gold-chart", lambda t: "Gold" in t, "the gold chart's link")
        browser.get(browser.find_element("id", "gold-chart").get_attribute("href"))
        assert len(browser.find_elements("css selector", "g[id^='series-']")) == 2
        # The sale is in the prices report; the card's page shows its price chart (an image that loads).
        browser.get(referee["base"] + "/prices")
        browser.find_element("css selector", "#prices tbody a").click()
        page_shows(browser, "view", lambda t: "Sold: 1" in t, "the card's figures")
        loaded = "const c = document.getElementById('chart'); return c.complete && c.naturalWidth > 0;"
        WebDriverWait(browser, WAIT).until(lambda d: d.execute_script(loaded))
    finally:
        for player in players.values():
            loop.run(player.close())


def test_vortex_private_page_shows_the_pack_and_a_click_is_a_pick(
    browser: Any, referee: dict[str, Any]
) -> None:
    loop: LoopThread = referee["loop"]
    alice, bob, _, game_id, seats = loop.run(
        seat_players(referee, ("alice_x", "bob_x"), "!vortex new 2", r"Vortex game #\d+")
    )
    players = {alice.name: alice, bob.name: bob}
    try:
        drafting = loop.run(alice.wait_line(lambda t: "Opening turn 1:" in t))
        picker = players[drafting.split("Opening turn 1: ")[1].split(" drafts")[0]]
        other = bob if picker is alice else alice
        links = {}
        for player in (picker, other):
            message = loop.run(player.wait_private(lambda t: LINK.search(t) is not None))
            links[player.name] = LINK.search(message).group(0)  # type: ignore[union-attr]
        listing = loop.run(picker.wait_private(lambda t: t.startswith("Your pack:")))
        pack = re.findall(r"\d+\. ([^;]+?)(?=;|\. In game chat)", listing)

        # The picker's page shows exactly the pack the bot listed to them, and that they must pick.
        browser.get(links[picker.name])
        page_shows(browser, "pack", lambda t: len(t.splitlines()) == len(pack), "the pack")
        cards = browser.find_elements("css selector", "#pack li")
        assert [c.get_attribute("data-name") for c in cards] == pack
        page_shows(browser, "to-pick", lambda t: t == "You must pick now.", "the pick prompt")
        assert LINK.search(links[picker.name]).group(2) not in browser.page_source  # type: ignore[union-attr]

        # A token opens its own game only; a page acts only for its own player.
        token = LINK.search(links[picker.name]).group(2)  # type: ignore[union-attr]
        for address in (f"/game/{game_id + 1}/private/{token}", f"/game/{game_id}/private/{token[:-2]}"):
            browser.get(referee["base"] + address)
            body = browser.find_element("tag name", "body").text
            assert body.startswith("error: no such page") and token[:16] not in body
        browser.get(links[other.name])
        page_shows(browser, "to-pick", lambda t: t == "Nothing to pick right now.", "no pick for the other")
        other_pack = [c.get_attribute("data-name") for c in browser.find_elements("css selector", "#pack li")]
        assert len(other_pack) == len(pack)
        browser.execute_script("document.querySelector('#pack button').disabled = false")
        browser.find_element("css selector", "#pack button").click()  # forced: the server still refuses
        refusal = f"{other.name}: you have no pick to make now: it is {picker.name}'s pick"
        page_shows(browser, "messages", lambda t: t == refusal, "the engine's refusal")
        before = journal_actions(referee["journal"], game_id)
        browser.execute_script(LOG)  # the other's page stays open (this tab): what its live region says
        others_tab = browser.current_window_handle

        # The click (in a second tab): the chat command !pick 2 from that player, in the game, the journal
        # and their hand.
        browser.switch_to.new_window("tab")
        browser.get(links[picker.name])
        page_shows(browser, "to-pick", lambda t: t == "You must pick now.", "the pick prompt")
        mark = other.mark()
        browser.find_element("css selector", "#pack li:nth-child(2) button").click()
        loop.run(other.wait_line(lambda t: f"{picker.name} picks a card" in t, since=mark))
        browser.close()
        browser.switch_to.window(others_tab)  # the page says it is their turn, no card picked
        page_shows(browser, "to-pick", lambda t: t == "You must pick now.", "the other's turn")
        until(browser, "return window.said.includes('Your turn to pick.')", "the turn said")
        assert pack[1] not in " ".join(browser.execute_script("return window.said"))
        browser.get(links[picker.name])
        after = journal_actions(referee["journal"], game_id)
        assert after[: len(before)] == before
        assert f'"choice": 1, "player": {seats[picker.name]}, "type": "Pick"' in after[len(before)]
        page_shows(browser, "to-pick", lambda t: t == "Nothing to pick right now.", "the pick taken")
        seat = seats[picker.name]
        loop.run(wait_until(lambda: pack[1] in hand_names(picker, game_id, seat), what="the pick in hand"))

        # The public board counts the packs (it never lists them) and names whose turn it is.
        browser.get(f"{referee['base']}/game/{game_id}")
        page_shows(browser, "packs", lambda t: picker.name in t and other.name in t, "every pack's size")
        page_shows(browser, "shoe", lambda t: t.isdigit(), "the shoe's size")
        page_shows(browser, "active", lambda t: t == other.name, "the next drafter")
        assert not [name for name in pack if name in browser.find_element("tag name", "body").text]

        # The game ends (everyone leaves): the link expires on the open page.
        browser.get(links[picker.name])
        page_shows(browser, "pack", lambda t: bool(t), "the pack again")
        for player in (picker, other):
            loop.run(player.client.leave_game(game_id))
        page_shows(browser, "ended", lambda t: "expired" in t, "the expired link")
        browser.get(links[picker.name])
        assert browser.find_element("tag name", "body").text.startswith("error: no such page")
    finally:
        for player in players.values():
            loop.run(player.close())


def listed(line: str, label: str, after: str) -> list[str]:
    """The names of a numbered chat listing: ``Shop: 1. A; 2. B. Pool: ...`` -> [A, B]."""
    found = re.search(rf"{label}: (.*?)\. {after}", line)
    assert found is not None, line
    return [re.sub(r"^\d+\. ", "", item) for item in found.group(1).split("; ")]


def test_autobattler_page_shows_the_shop_and_its_buttons_are_the_private_commands(
    browser: Any, referee: dict[str, Any]
) -> None:
    loop: LoopThread = referee["loop"]
    names = ("ann_ab", "ben_ab", "cat_ab", "dan_ab")

    async def arrive() -> tuple[list[Player], int]:
        players = [await Player.connect(referee["url"], name) for name in names]
        room_id = await players[0].client.room_id_by_name("Bot room")
        for player in players:
            await player.client.join_room(room_id)
        return players, room_id

    async def join(player: Player) -> str:
        """``!autobattler join``: the answer is a private message with the player's page link."""
        await player.client.room_say(room_id, "!autobattler join")
        answer = await player.wait_private(lambda t: LEAGUE_LINK.search(t) is not None, timeout=WAIT)
        assert answer.startswith("Your AutoBattler page: "), answer
        return LEAGUE_LINK.search(answer).group(0)  # type: ignore[union-attr]

    players, room_id = loop.run(arrive())
    ann, ben = players[0], players[1]
    try:
        # The lobby: ann's page lists who joined, live; the room hears only that a lobby opened.
        links = {ann.name: loop.run(join(ann))}
        loop.run(ben.wait_line(lambda t: t == "ann_ab opened a lobby for AutoBattler: !autobattler join"))
        browser.get(links[ann.name])
        page_shows(browser, "roster", lambda t: t.splitlines() == ["ann_ab"], "the lobby with ann alone")
        assert "!autobattler start" in browser.find_element("id", "how-to-start").text
        for player in players[1:]:
            links[player.name] = loop.run(join(player))
        page_shows(browser, "roster", lambda t: t.splitlines() == list(names), "the four who joined")
        assert not [line for scope, line in ann.heard if " joins" in line]  # no room line per join
        # The start: the same page turns into ann's desk with her shop, without a reload.
        loop.run(players[-1].client.room_say(room_id, "!autobattler start"))
        loop.run(ann.wait_line(lambda t: "AutoBattler league #" in t and "starts" in t))
        page_shows(browser, "shop", lambda t: len(t.splitlines()) == 5, "the shop at the start")
        number, token = LEAGUE_LINK.search(links[ann.name]).groups()  # type: ignore[union-attr]

        # The page shows exactly the shop and pool the bot lists to ann in chat.
        loop.run(ann.client.send_message("web_referee", "!shop"))
        listing = loop.run(ann.wait_private(lambda t: t.startswith("Shop: 1. "), timeout=WAIT))
        shop, pool = listed(listing, "Shop", "Pool: "), listed(listing, "Pool", "Treasures ")
        browser.get(links[ann.name])
        page_shows(browser, "shop", lambda t: len(t.splitlines()) == len(shop), "the shop")
        assert [
            c.get_attribute("data-name") for c in browser.find_elements("css selector", "#shop li")
        ] == shop
        assert [
            c.get_attribute("data-name") for c in browser.find_elements("css selector", "#pool li")
        ] == pool
        assert token not in browser.page_source
        treasures = int(page_shows(browser, "treasures", lambda t: t.isdigit(), "the treasures"))

        # Swap: shop card 2 for pool card 1 is !swap 2 1 from ann: answered on the page, journaled, shown
        # live.
        before = journal_actions(referee["journal"], int(number), "league")
        browser.find_element("css selector", "#shop li:nth-child(2) input").click()
        browser.find_element("css selector", "#pool li:nth-child(1) input").click()
        browser.find_element("id", "swap").click()
        answer = f"You took {shop[1]} and gave {pool[0]}."
        page_shows(browser, "messages", lambda t: answer in t, "the swap's answer")
        page_shows(browser, "pool", lambda t: shop[1] in t and pool[0] not in t, "the swapped pool")
        after = journal_actions(referee["journal"], int(number), "league")
        assert after[: len(before)] == before and '"type": "Swap"' in after[len(before)]
        assert '"player": "ann_ab"' in after[len(before)]

        if treasures:  # Roll: one treasure for a new shop (where its answer shows: a test of its own below)
            browser.find_element("id", "roll").click()
            page_shows(browser, "treasures", lambda t: t == str(treasures - 1), "the treasure spent")

        # A token opens only its own player's page of its own league.
        browser.get(links[ben.name])
        page_shows(browser, "summary", lambda t: "AutoBattler league" in t, "ben's page")
        assert "ben_ab" in browser.title and shop[1] not in browser.find_element("id", "pool").text
        for address in (
            f"/league/{int(number) + 1}/private/{token}",
            f"/league/{number}/private/{token[:-2]}",
        ):
            browser.get(referee["base"] + address)
            body = browser.find_element("tag name", "body").text
            assert body.startswith("error: no such page") and token[:16] not in body

        # Done: ann has finished drafting, as her page's answer says (the room hears only who it waits for).
        browser.get(links[ann.name])
        page_shows(browser, "shop", lambda t: bool(t), "the shop again")
        browser.find_element("id", "done").click()
        page_shows(browser, "messages", lambda t: "(1 of 4 done)" in t, "the answer to Done")
        page_shows(browser, "phase", lambda t: t == "draft", "the phase")
        assert not browser.find_elements("id", "swap")  # nothing left to draft

        # The public board, from the list on /: standings and the phase, no card; live as the others finish.
        browser.get(referee["base"] + "/")
        page_shows(browser, "leagues", lambda t: "AutoBattler league" in t, "the league in the list")
        browser.find_element("css selector", "#leagues a").click()
        page_shows(browser, "standings", lambda t: all(n in t for n in names), "the standings")
        page_shows(browser, "phase", lambda t: t == "draft", "the league's phase")
        for player in players[1:]:
            loop.run(player.client.send_message("web_referee", "!done"))
        page_shows(browser, "phase", lambda t: t == "play", "the round's games")
        page_shows(browser, "pairings", lambda t: t.count(" vs ") == 2, "the pairings")
        shown = browser.find_element("tag name", "body").text
        assert not [card for card in shop + pool if card in shown]
    finally:
        for player in players:
            loop.run(player.close())


ROOM = "Second room"


@pytest.mark.parametrize("how", ["kill -9", "Ctrl-C"])
def test_an_open_page_carries_on_by_itself_after_the_referee_restarts(
    browser: Any, servatrice: ServatriceServer, tmp_path: Path, how: str
) -> None:
    """ann's lobby page is open in the browser when the referee is killed (``kill -9``: nothing said) or
    stopped by its operator (Ctrl-C: its web view ends every stream saying it stopped) and started again
    on the same journal and address: the page says it is reconnecting, then shows the lobby again without a
    reload, and ann gets no new link; the lobby fills and starts, and the same page turns into her shop.
    (Field test: after a Ctrl-C the page said the web view had stopped, and stayed so after the restart.)"""
    journal, port, user = tmp_path / "journal.sqlite3", free_port(), "restart_referee"
    options = ("--format", "autobattler")  # in a room of its own: the module's referee sits in "Bot room"
    process = start_referee(servatrice.ws_url, user, journal, port, *options, room=ROOM)
    loop = LoopThread()
    suffix = "rs" if how == "kill -9" else "st"
    names = tuple(f"{name}_{suffix}" for name in ("ann", "ben", "cat", "dan"))
    players: list[Player] = []

    async def arrive() -> int:
        for name in names:
            players.append(await Player.connect(servatrice.ws_url, name))
        room_id = await players[0].client.room_id_by_name(ROOM)
        for player in players:
            await player.client.join_room(room_id)
        return room_id

    async def join(player: Player) -> str:
        await player.client.room_say(room_id, "!autobattler join")
        answer = await player.wait_private(lambda t: LEAGUE_LINK.search(t) is not None, timeout=WAIT)
        return LEAGUE_LINK.search(answer).group(0)  # type: ignore[union-attr]

    try:
        room_id = loop.run(arrive())
        ann = players[0]
        link = loop.run(join(ann))
        loop.run(join(players[1]))
        browser.get(link)
        page_shows(browser, "roster", lambda t: t.splitlines() == list(names[:2]), "ann and ben")
        page_shows(browser, "status", lambda t: t == "live", "the live stream")
        told = len(ann.private)

        if how == "kill -9":
            process.kill()  # nothing is said, nothing is saved on the way out
            process.wait(10)
        else:
            stop_referee(process)  # as an operator stops it: the web view says it stopped
            page_shows(browser, "stopped", lambda t: "web view has stopped" in t, "that the web view stopped")
        page_shows(browser, "status", lambda t: t == "reconnecting…", "that it is reconnecting")
        mark = ann.mark()
        process = start_referee(servatrice.ws_url, user, journal, port, *options, room=ROOM)
        loop.run(ann.wait_line(lambda t: "lobby is still open after the referee's restart" in t, since=mark))
        page_shows(browser, "status", lambda t: t == "live", "the stream back, without a reload")
        page_shows(browser, "roster", lambda t: t.splitlines() == list(names[:2]), "the kept lobby")
        assert not browser.find_elements("id", "stopped") and not browser.find_elements("id", "ended")
        assert ann.private[told:] == []  # her link still works: no new one

        for player in players[2:]:
            assert LEAGUE_LINK.search(loop.run(join(player))).group(1) == LEAGUE_LINK.search(link).group(1)  # type: ignore[union-attr]
        page_shows(browser, "roster", lambda t: t.splitlines() == list(names), "the four who joined")
        loop.run(players[3].client.room_say(room_id, "!autobattler start"))
        page_shows(browser, "shop", lambda t: len(t.splitlines()) == 5, "ann's shop, on the same page")
    finally:
        for player in players:
            loop.run(player.close())
        loop.close()
        stop_referee(process)


async def autobattler_started(
    env: dict[str, Any], names: tuple[str, ...]
) -> tuple[list[Player], dict[str, str]]:
    """``names`` join the AutoBattler lobby of the module's referee (each link, answered privately) and the
    last one starts the league: the players and their links."""
    players = [await Player.connect(env["url"], name) for name in names]
    room_id = await players[0].client.room_id_by_name("Bot room")
    links = {}
    for player in players:
        await player.client.join_room(room_id)
        await player.client.room_say(room_id, "!autobattler join")
        answer = await player.wait_private(lambda t: LEAGUE_LINK.search(t) is not None, timeout=WAIT)
        links[player.name] = LEAGUE_LINK.search(answer).group(0)  # type: ignore[union-attr]
    await players[-1].client.room_say(room_id, "!autobattler start")
    await players[0].wait_line(lambda t: "AutoBattler league #" in t and "starts" in t, timeout=WAIT)
    return players, links


def test_a_league_game_s_public_page_speaks_to_a_spectator(browser: Any, referee: dict[str, Any]) -> None:
    """Field test: the public ``/game/N`` of a league game answered, once the game was decided, with the
    words of a private link. A spectator reads the game as a league's game while it is on, that the referee
    left it once its result is in, and on a reload that there is no such game now, never of a link."""
    loop: LoopThread = referee["loop"]
    players, _ = loop.run(autobattler_started(referee, ("ann_sp", "ben_sp", "cat_sp", "dan_sp")))
    by_name = {player.name: player for player in players}
    ann = players[0]
    try:
        for player in players:  # the draft phase ends: the round's games open
            loop.run(player.client.send_message("web_referee", "!done"))
        told = loop.run(ann.wait_private(lambda t: "your game vs" in t, timeout=WAIT))
        found = re.search(r"your game vs (\S+) is #(\d+)", told)
        assert found is not None, told
        opponent, game_id = by_name[found.group(1)], int(found.group(2))
        browser.get(f"{referee['base']}/game/{game_id}")
        title = f"AutoBattler league game #{game_id}"
        page_shows(browser, "summary", lambda t: t.startswith(f"{title}: "), "the league game's summary")
        assert browser.title == title

        loop.run(ann.client.send_message("web_referee", "!result win"))
        loop.run(opponent.client.send_message("web_referee", "!result loss"))
        page_shows(browser, "ended", lambda t: t == "The referee has left this game.", "the game left")
        browser.get(f"{referee['base']}/game/{game_id}")
        body = browser.find_element("tag name", "body").text
        assert body == "error: no such game now: the referee leaves a game once it is over; / lists its games"
    finally:
        for player in players:
            loop.run(player.close())


def test_roll_and_done_on_the_page_are_answered_on_the_page(browser: Any, referee: dict[str, Any]) -> None:
    """Field test: Roll and Done on a league page ran the command and the page showed an empty answer (the
    page's "Done." after Roll; the roll's line went to chat). What chat would have answered shows on the
    page, and the player watching their page gets no chat copy of it."""
    loop: LoopThread = referee["loop"]
    players, links = loop.run(autobattler_started(referee, ("ann_rd", "ben_rd", "cat_rd", "dan_rd")))
    ann = players[0]
    try:
        browser.get(links[ann.name])
        page_shows(browser, "shop", lambda t: len(t.splitlines()) == 5, "ann's shop")
        treasures = int(page_shows(browser, "treasures", lambda t: t.isdigit(), "the treasures"))
        assert treasures > 0, "the seed gives ann a treasure to roll with"
        told = len(ann.private)
        browser.find_element("id", "roll").click()
        page_shows(browser, "treasures", lambda t: t == str(treasures - 1), "the treasure spent")
        page_shows(browser, "messages", lambda t: t == "Rolled: a new shop.", "the roll's answer")
        browser.find_element("id", "done").click()
        page_shows(browser, "messages", lambda t: "drafting" in t, "the done's answer")
        page_shows(browser, "phase", lambda t: t == "draft", "the phase")
        loop.run(asyncio.sleep(1))  # what the bot says in chat has had time to arrive
        assert [text for _, text in ann.private[told:]] == []
    finally:
        for player in players:
            loop.run(player.close())
